// glassllm generate --weights W --prompt P [--tokens N] [--temperature T] [--seed S]
// Samples bytes one at a time; the model sees at most its context, so a long
// text slides. Temperature 0 takes the most likely byte.
#include <cmath>
#include <cstdio>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/load_model.h"
#include "glass/io/bytes.h"
#include "glass/tensor/autograd.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/random.h"

namespace glass::cli {

int run_generate(const Argv& argv) {
  const Args args(argv, {"weights", "prompt", "tokens", "temperature", "seed"});
  auto model = load_model(args.text("weights"), DType::f32);
  const int64_t tokens = args.integer("tokens", 200, 1, 100000);
  const double temperature = args.number("temperature", 0.8, 0, 100);
  Generator gen(static_cast<uint64_t>(args.integer("seed", 0, 0, INT64_MAX)));
  std::vector<int32_t> ids = io::encode_bytes(args.text("prompt"));
  if (ids.empty()) throw UsageError{"--prompt must not be empty"};
  const auto context = static_cast<std::size_t>(model->config().context);

  NoGradGuard no_grad;
  std::fwrite(args.text("prompt").data(), 1, args.text("prompt").size(), stdout);
  for (int64_t t = 0; t < tokens; ++t) {
    const std::size_t start = ids.size() > context ? ids.size() - context : 0;
    const std::vector<int32_t> window(ids.begin() + static_cast<std::ptrdiff_t>(start), ids.end());
    const Tensor logits = model->forward(window, 1).logits;  // (1, n, V)
    const int64_t n = logits.size(1), vocab = logits.size(2);
    const std::vector<double> last = slice(logits, 1, n - 1, n).to_vector();  // (V,)
    int32_t next = 0;
    if (temperature == 0) {
      for (int64_t v = 1; v < vocab; ++v)
        if (last[v] > last[next]) next = static_cast<int32_t>(v);
    } else {
      // softmax(last / T) by inverse transform sampling
      double top = last[0];
      for (double x : last) top = std::max(top, x);
      std::vector<double> p(last.size());
      double total = 0;
      for (std::size_t v = 0; v < p.size(); ++v) total += p[v] = std::exp((last[v] - top) / temperature);
      double u = gen.uniform() * total;
      next = static_cast<int32_t>(vocab - 1);
      for (std::size_t v = 0; v < p.size(); ++v)
        if ((u -= p[v]) < 0) {
          next = static_cast<int32_t>(v);
          break;
        }
    }
    ids.push_back(next);
    std::fputc(next, stdout);
    std::fflush(stdout);
  }
  std::fputc('\n', stdout);
  return 0;
}

}  // namespace glass::cli
