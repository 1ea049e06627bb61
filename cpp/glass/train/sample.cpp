#include "glass/train/sample.h"

#include <algorithm>
#include <cmath>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::train {

std::vector<int32_t> sample_bytes(const nn::Model& model, std::vector<int32_t> ids, int64_t length,
                                  double temperature, Generator& gen, const std::function<void(int32_t)>& on_byte) {
  if (ids.empty()) throw Error("sample: the prompt is empty; give at least one byte");
  if (length < 0) throw Error("sample: the length must not be negative");
  if (!(temperature >= 0) || !std::isfinite(temperature))
    throw Error("sample: the temperature must be 0 or more and finite");
  const auto context = static_cast<std::size_t>(model.config().context);
  NoGradGuard no_grad;
  std::vector<int32_t> out;
  out.reserve(static_cast<std::size_t>(length));
  for (int64_t t = 0; t < length; ++t) {
    const std::size_t start = ids.size() > context ? ids.size() - context : 0;
    const std::vector<int32_t> window(ids.begin() + static_cast<std::ptrdiff_t>(start), ids.end());
    const Tensor logits = model.forward(window, 1).logits;  // (1, n, V)
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
    out.push_back(next);
    if (on_byte) on_byte(next);
  }
  return out;
}

}  // namespace glass::train
