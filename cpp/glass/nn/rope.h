#pragma once
// Rotary position embedding, half-split ("rotate_half") form: inside a head
// of width k, coordinate j is paired with j + k/2 and the pair is rotated by
// the angle pos * base^(-2j/k). Positions start at 0.
//
//   rope(x) = x * cos + rotate_half(x) * sin,  rotate_half([x1, x2]) = [-x2, x1]
//
// One fused op (glass::rope, fused/rope.cpp) computes it in a pass each way,
// with the bits of the composition above.
#include "glass/tensor/tensor.h"

namespace glass::nn {

class Rope {
 public:
  Rope(int64_t head_dim, int64_t context, double base, DType dtype);
  // x (..., n, k) whose rows stand at positions offset .. offset+n-1 (offset + n <= context) -> same shape
  Tensor operator()(const Tensor& x, int64_t offset = 0) const;
  const Tensor& cos() const { return cos_; }
  const Tensor& sin() const { return sin_; }

 private:
  int64_t half_;
  Tensor cos_;  // (context, k): cos(pos * freq_j mod k/2), no history
  Tensor sin_;  // (context, k)
};

}  // namespace glass::nn
