#pragma once
// The gradient check a learner can run on the real model: pick one coordinate
// of any snapshot or parameter, nudge it by +delta and -delta, and compare the
// change in the loss the gradient predicts (g * delta) with the change the
// model shows, (L(+delta) - L(-delta)) / 2 (central difference).
//
// It runs on a copy of the model in the asked dtype whose parameters are
// detached from the original: the loaded weights, and their gradients from
// the last run, are never touched.
#include <cstdint>
#include <span>
#include <string>

#include "glass/nn/model.h"

namespace glass::nn {

struct GradientCheck {
  std::string target;    // a snapshot (docs/model.md name or alias) or parameter name
  bool parameter = false;
  int64_t index = 0;     // row-major element (a snapshot's batch axis of 1 changes nothing)
  DType dtype = DType::f32;
  double delta = 0;          // as asked
  double applied_delta = 0;  // (x(+delta) - x(-delta)) / 2 after rounding to the dtype: the nudge that happened
  double value = 0;          // the coordinate before the nudge
  double grad = 0;           // dL/d coordinate, from backward in this dtype
  double predicted = 0;      // grad * delta
  double actual = 0;         // (loss_plus - loss_minus) / 2
  double loss = 0, loss_plus = 0, loss_minus = 0;
};

// Refuses a name that is neither a snapshot of the run nor a parameter, an
// index out of range, a delta that is not finite and positive, a text of fewer
// than 2 bytes (no loss).
GradientCheck gradient_check(const Model& model, std::span<const int32_t> ids, const std::string& target, int64_t index,
                             double delta, DType dtype, const Edits* edits = nullptr);

}  // namespace glass::nn
