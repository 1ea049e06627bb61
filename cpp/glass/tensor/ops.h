#pragma once
// Every op on Tensors, in three kinds:
//   primitives (here, in ops_*.cpp): each carries a backward rule next to its
//     forward; tests/cpp/test_gradcheck.cpp checks every rule against finite
//     differences in float64.
//   fused kernels (fused/fused.h, included at the end): one pass for what a
//     composition of primitives computes, with a rule of their own; each
//     names its composition, and tests/cpp/test_fused.cpp checks both agree.
//   composed ops (cross_entropy below; RMSNorm and RoPE in nn/): written from
//     the other two, no backward rule of their own.
// The ops JavaScript can call are listed once in op_table.inc.
//
// Binary ops broadcast like numpy. Mixing float32 and float64 in one op is an
// error: cast explicitly with Tensor::to. Scalars take the tensor's dtype.
#include <cstdint>
#include <span>
#include <vector>

#include "glass/tensor/tensor.h"

namespace glass {

// ---- elementwise, binary (broadcasting) ----
Tensor add(const Tensor& a, const Tensor& b);
Tensor sub(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Tensor& b);
Tensor add(const Tensor& a, double s);  // "add_scalar": shows as "add eps" in RMSNorm's graph
Tensor mul(const Tensor& a, double s);

// ---- elementwise, unary ----
Tensor neg(const Tensor& x);
Tensor pow(const Tensor& x, double exponent);
Tensor square(const Tensor& x);
Tensor sqrt(const Tensor& x);
Tensor exp(const Tensor& x);
Tensor log(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor silu(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor relu(const Tensor& x);
// |x|; the gradient at exactly 0 is taken as 0.
Tensor abs(const Tensor& x);

// ---- reductions ----
Tensor sum(const Tensor& x);  // over all elements: shape ()
Tensor sum(const Tensor& x, int axis, bool keepdim = false);
Tensor mean(const Tensor& x);
Tensor mean(const Tensor& x, int axis, bool keepdim = false);
// max's gradient goes to the first maximal element (ties are broken by index).
Tensor max(const Tensor& x);
Tensor max(const Tensor& x, int axis, bool keepdim = false);
// Sums `x` down to `shape` (the inverse of broadcasting `shape` up to x's shape).
// Where nothing needs summing (equal shapes, or only leading axes of size 1
// to drop) it returns x itself or a view of it, not a copy.
Tensor sum_to(const Tensor& x, const Shape& shape);

// ---- matmul: (..., m, k) @ (..., k, n) -> (..., m, n), batch axes broadcast;
// a 1-d operand is treated as a row (left) or column (right) and that axis dropped.
Tensor matmul(const Tensor& a, const Tensor& b);

// ---- shape ----
Tensor reshape(const Tensor& x, const Shape& shape);  // one size may be -1
Tensor permute(const Tensor& x, const std::vector<int>& axes);
Tensor transpose(const Tensor& x, int axis0 = -2, int axis1 = -1);
// Elements [start, stop) along axis (negative indices count from the end).
Tensor slice(const Tensor& x, int axis, int64_t start, int64_t stop);
Tensor concat(const std::vector<Tensor>& xs, int axis);
Tensor broadcast_to(const Tensor& x, const Shape& shape);

// ---- selection ----
// cond is nonzero where a is taken; cond, a and b broadcast together.
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
// value where mask is nonzero (mask broadcasts to x), x elsewhere.
Tensor masked_fill(const Tensor& x, const Tensor& mask, double value);
// Rows of weight (V, D) picked by ids: ids of shape `ids_shape` -> ids_shape + (D,).
Tensor embedding(const Tensor& weight, std::span<const int32_t> ids, const Shape& ids_shape);
// (ids_shape + (classes,)) of 0/1, no history.
Tensor one_hot(std::span<const int32_t> ids, const Shape& ids_shape, int64_t classes, DType dtype = DType::f32);

// ---- softmax: primitives with backward rules of their own (ops_softmax.cpp),
// one pass each way instead of the ~20 of max, sub, exp, sum and div they equal.
// y = exp(x - max) / sum(exp(x - max)) along `axis`; backward dx = y * (g - sum(g * y)).
Tensor softmax(const Tensor& x, int axis = -1);
// y = x - max - log(sum(exp(x - max))) along `axis`; backward dx = g - exp(y) * sum(g).
Tensor log_softmax(const Tensor& x, int axis = -1);

// ---- composed (no backward rule of their own) ----
// Mean over positions of -log softmax(logits)[target]; logits (..., V),
// targets one per position (numel(logits) / V of them), each in [0, V).
// = mean(pick(log_softmax(logits, -1), targets)) * -1 (ops_composed.cpp).
Tensor cross_entropy(const Tensor& logits, std::span<const int32_t> targets);

// ---- operators ----
inline Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
inline Tensor operator-(const Tensor& x) { return neg(x); }
inline Tensor operator+(const Tensor& a, double s) { return add(a, s); }
inline Tensor operator-(const Tensor& a, double s) { return add(a, -s); }
inline Tensor operator*(const Tensor& a, double s) { return mul(a, s); }
inline Tensor operator/(const Tensor& a, double s) { return mul(a, 1.0 / s); }
inline Tensor operator*(double s, const Tensor& a) { return mul(a, s); }

}  // namespace glass

#include "glass/tensor/fused/fused.h"
