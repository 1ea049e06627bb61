// glassllm generate --weights W --prompt P [--tokens N] [--temperature T] [--top-k K] [--seed S]
// Samples bytes one at a time; the model sees at most its context, so a long
// text slides. Temperature 0 takes the most likely byte (the lowest on a tie);
// --top-k K draws only among the K likeliest (0, the default, or 256: all).
#include <cstdio>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/load_model.h"
#include "cli/threads_flag.h"
#include "glass/io/bytes.h"
#include "glass/tensor/random.h"
#include "glass/train/sample.h"

namespace glass::cli {

int run_generate(const Argv& argv) {
  const Args args(argv, with_threads_flag({"weights", "prompt", "tokens", "temperature", "top-k", "seed"}));
  apply_threads_flag(args);
  auto model = load_model(args.text("weights"), DType::f32);
  const int64_t tokens = args.integer("tokens", 200, 1, 100000);
  const double temperature = args.number("temperature", 0.8, 0, 100);
  const int64_t top_k = args.integer("top-k", 0, 0, model->config().vocab);
  Generator gen(static_cast<uint64_t>(args.integer("seed", 0, 0, INT64_MAX)));
  std::vector<int32_t> ids = io::encode_bytes(args.text("prompt"));
  if (ids.empty()) throw UsageError{"--prompt must not be empty"};

  std::fwrite(args.text("prompt").data(), 1, args.text("prompt").size(), stdout);
  train::sample_bytes(*model, ids, tokens, {.temperature = temperature, .top_k = top_k}, gen, [](int32_t next) {
    std::fputc(next, stdout);
    std::fflush(stdout);
  });
  std::fputc('\n', stdout);
  return 0;
}

}  // namespace glass::cli
