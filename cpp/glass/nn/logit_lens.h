#pragma once
// The logit lens (nostalgebraist 2020): the model's own readout (norm_final,
// if it has one, then the head: Model::readout) applied to the residual
// stream at every depth of a run, so one can read what the model "would
// predict" after each sublayer. At the last depth it is the model's logits,
// computed by the same operations on the same tensor, so the two are equal bit
// for bit (last_depth_max_abs is that check, live).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "glass/nn/model.h"

namespace glass::nn {

struct LogitLens {
  std::vector<std::string> depths;  // the stream's snapshot names (Snapshots::stream()), from embed up
  Tensor logits;                    // (depths, n, V): batch row 0 of each depth's readout
  // loss[depth][t] = -log softmax(logits[depth, t])[ids[t + 1]] for t < n - 1 (nats)
  std::vector<std::vector<double>> loss;
  std::vector<double> mean_loss;    // per depth, over the n - 1 predictions (NaN for n = 1)
  double last_depth_max_abs = 0;    // max |logits[last] - the run's logits|: 0 when the lens is the model
};

// From a run that recorded snapshots (its edits' norm_final change included);
// ids are batch row 0's bytes.
LogitLens logit_lens(const Model& model, const Model::Output& run, std::span<const int32_t> ids);

}  // namespace glass::nn
