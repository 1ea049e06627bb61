#pragma once
// Internal: the gradients of a / b for a b of one value per row, b (..., 1)
// against a (..., len) (RMSNorm's x / r), in one pass: div's rule
// (ops_elementwise.cpp) composes them of four ops, three of them passes over
// the whole of a, each a job for the thread pool.
#include "glass/tensor/tensor.h"

namespace glass::detail {

// da = dout / b and db = -sum(da * out) over each row, with the very bits of
// that composition (div, mul, sum over the last axis, neg). dout and out
// (..., len) with len > 0, b (..., 1); any strides.
void div_by_rows_backward(const Tensor& dout, const Tensor& b, const Tensor& out, Tensor& da, Tensor& db);

}  // namespace glass::detail
