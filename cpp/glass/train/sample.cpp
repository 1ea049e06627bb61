#include "glass/train/sample.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::train {
namespace {

void check(const SampleOptions& o, std::size_t vocab) {
  if (!(o.temperature >= 0) || !std::isfinite(o.temperature))
    throw Error("sample: the temperature must be 0 or more and finite");
  if (o.top_k < 0 || o.top_k > static_cast<int64_t>(vocab))
    throw Error("sample: top-k must be from 0 to " + std::to_string(vocab) + " (0 keeps every byte), got " +
                std::to_string(o.top_k));
}

// Unnormalised weights exp((l - max) / T) over the top k (0 elsewhere) and
// their sum. The draw walks these, not the normalised probabilities, so that
// with every byte kept the bytes are the ones this sampler always gave.
double weights(std::span<const double> logits, const SampleOptions& o, std::vector<double>& w) {
  const std::size_t vocab = logits.size();
  w.assign(vocab, 0.0);
  std::vector<std::size_t> kept(vocab);
  std::iota(kept.begin(), kept.end(), 0);
  if (o.top_k != 0 && o.top_k < static_cast<int64_t>(vocab)) {
    const auto k = static_cast<std::ptrdiff_t>(o.top_k);
    // the k largest logits; on a tie the lower byte comes first
    std::partial_sort(kept.begin(), kept.begin() + k, kept.end(), [&](std::size_t a, std::size_t b) {
      return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
    });
    kept.resize(static_cast<std::size_t>(k));
  }
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t v : kept) top = std::max(top, logits[v]);
  double total = 0;
  for (std::size_t v : kept) total += w[v] = std::exp((logits[v] - top) / o.temperature);
  return total;
}

}  // namespace

int32_t greedy_byte(std::span<const double> logits) {
  int32_t best = 0;
  for (std::size_t v = 1; v < logits.size(); ++v)
    if (logits[v] > logits[static_cast<std::size_t>(best)]) best = static_cast<int32_t>(v);
  return best;
}

std::vector<double> next_byte_distribution(std::span<const double> logits, const SampleOptions& options) {
  if (logits.empty()) throw Error("sample: no logits");
  check(options, logits.size());
  std::vector<double> p(logits.size(), 0.0);
  if (options.temperature == 0) {
    p[static_cast<std::size_t>(greedy_byte(logits))] = 1;
    return p;
  }
  const double total = weights(logits, options, p);
  for (double& x : p) x /= total;
  return p;
}

SampleStep sample_step(const nn::Model& model, std::span<const int32_t> ids, const SampleOptions& options,
                       Generator& gen) {
  if (ids.empty()) throw Error("sample: the prompt is empty; give at least one byte");
  check(options, static_cast<std::size_t>(model.config().vocab));
  const auto context = static_cast<std::size_t>(model.config().context);
  const std::span<const int32_t> window = ids.size() > context ? ids.subspan(ids.size() - context) : ids;
  NoGradGuard no_grad;
  const Tensor logits = model.forward(window, 1).logits;  // (1, n, V)
  const int64_t n = logits.size(1);
  SampleStep step;
  step.logits = slice(logits, 1, n - 1, n).to_vector();  // (V,)
  if (options.temperature == 0) {
    step.probs = next_byte_distribution(step.logits, options);
    step.u = std::numeric_limits<double>::quiet_NaN();
    step.byte = greedy_byte(step.logits);
    return step;
  }
  std::vector<double> w;
  const double total = weights(step.logits, options, w);
  step.u = gen.uniform();
  // inverse transform on the unnormalised weights: the first byte whose running sum passes u * total
  double rest = step.u * total;
  step.byte = static_cast<int32_t>(w.size() - 1);
  for (std::size_t v = 0; v < w.size(); ++v)
    if ((rest -= w[v]) < 0) {
      step.byte = static_cast<int32_t>(v);
      break;
    }
  // a draw that rounding carried past the last kept byte takes that byte, never one outside the top k
  while (w[static_cast<std::size_t>(step.byte)] == 0 && step.byte > 0) --step.byte;
  step.probs = std::move(w);
  for (double& x : step.probs) x /= total;
  return step;
}

std::vector<int32_t> sample_bytes(const nn::Model& model, std::vector<int32_t> ids, int64_t length,
                                  const SampleOptions& options, Generator& gen,
                                  const std::function<void(int32_t)>& on_byte) {
  if (ids.empty()) throw Error("sample: the prompt is empty; give at least one byte");
  if (length < 0) throw Error("sample: the length must not be negative");
  check(options, static_cast<std::size_t>(model.config().vocab));
  std::vector<int32_t> out;
  out.reserve(static_cast<std::size_t>(length));
  for (int64_t t = 0; t < length; ++t) {
    const int32_t next = sample_step(model, ids, options, gen).byte;
    ids.push_back(next);
    out.push_back(next);
    if (on_byte) on_byte(next);
  }
  return out;
}

std::vector<int32_t> sample_bytes(const nn::Model& model, std::vector<int32_t> prompt, int64_t length,
                                  double temperature, Generator& gen, const std::function<void(int32_t)>& on_byte) {
  return sample_bytes(model, std::move(prompt), length, SampleOptions{.temperature = temperature, .top_k = 0},
                      gen, on_byte);
}

}  // namespace glass::train
