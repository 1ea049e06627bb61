#pragma once
// Internal: the one softmax pass (forward and backward rule, ops_softmax.cpp)
// behind softmax, log_softmax and the fused causal_softmax.
#include "glass/tensor/tensor.h"

namespace glass::detail {

// softmax (or log_softmax if `log`) along `axis`, recorded as op `op`. With
// `causal`, x is (..., n, n), axis the last, and line i takes part only up to
// column i: the rest of the line is 0 (-inf for log) with gradient 0, and
// neither pass computes it.
Tensor softmax_recorded(const char* op, const Tensor& x, int axis, bool log, bool causal);

}  // namespace glass::detail
