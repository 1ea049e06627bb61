#include "glass/nn/logit_lens.h"

#include <algorithm>
#include <cmath>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

LogitLens logit_lens(const Model& model, const Model::Output& run, std::span<const int32_t> ids) {
  if (!run.logits.defined() || run.snapshots.items().empty())
    throw Error("logit lens: the run recorded no snapshots (run the model with snapshots first)");
  NoGradGuard no_grad;
  LogitLens lens;
  lens.depths = run.snapshots.stream();
  const int64_t n = run.logits.size(1), vocab = run.logits.size(2);
  if (static_cast<int64_t>(ids.size()) != n)
    throw Error("logit lens: " + std::to_string(ids.size()) + " bytes for a run of " + std::to_string(n) + " positions");
  std::vector<Tensor> rows;
  for (const std::string& name : lens.depths) {
    // the batch's first row, read out exactly as the forward pass reads out its last stream
    const Tensor s = run.snapshots.get(name);
    const Tensor full = model.readout(s, &run.edits);  // (B, n, V)
    rows.push_back(slice(full, 0, 0, 1));              // (1, n, V)
  }
  lens.logits = concat(rows, 0);  // (depths, n, V)
  // the check: the last depth against the run's own logits (batch row 0)
  const std::vector<double> last = rows.back().to_vector(), model_logits = slice(run.logits, 0, 0, 1).to_vector();
  for (std::size_t j = 0; j < last.size(); ++j) {
    const double dlt = std::fabs(last[j] - model_logits[j]);
    lens.last_depth_max_abs = std::isnan(dlt) ? (std::isnan(last[j]) && std::isnan(model_logits[j]) ? lens.last_depth_max_abs : INFINITY)
                                              : std::max(lens.last_depth_max_abs, dlt);
  }
  const std::vector<double> logp = log_softmax(lens.logits, -1).to_vector();
  for (std::size_t depth = 0; depth < lens.depths.size(); ++depth) {
    std::vector<double> l;
    double sum = 0;
    for (int64_t t = 0; t + 1 < n; ++t) {
      const double v = -logp[(depth * static_cast<std::size_t>(n) + static_cast<std::size_t>(t)) * static_cast<std::size_t>(vocab) +
                             static_cast<std::size_t>(ids[static_cast<std::size_t>(t + 1)])];
      l.push_back(v);
      sum += v;
    }
    lens.mean_loss.push_back(n >= 2 ? sum / static_cast<double>(n - 1) : NAN);
    lens.loss.push_back(std::move(l));
  }
  return lens;
}

}  // namespace glass::nn
