#pragma once
// Every op on Tensors. Primitives (in ops_*.cpp) carry a backward rule next to
// their forward; composed ops (cross_entropy, and in nn/ RMSNorm and RoPE)
// are written from primitives and need none.
//
// Binary ops broadcast like numpy. Mixing float32 and float64 in one op is an
// error: cast explicitly with Tensor::to. Scalars take the tensor's dtype.
#include <cstdint>
#include <span>
#include <vector>

#include "glass/tensor/tensor.h"

namespace glass {

class PackedWeight;

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

// ---- reductions ----
Tensor sum(const Tensor& x);  // over all elements: shape ()
Tensor sum(const Tensor& x, int axis, bool keepdim = false);
Tensor mean(const Tensor& x);
Tensor mean(const Tensor& x, int axis, bool keepdim = false);
// max's gradient goes to the first maximal element (ties are broken by index).
Tensor max(const Tensor& x);
Tensor max(const Tensor& x, int axis, bool keepdim = false);
// Sums `x` down to `shape` (the inverse of broadcasting `shape` up to x's shape).
Tensor sum_to(const Tensor& x, const Shape& shape);

// ---- matmul: (..., m, k) @ (..., k, n) -> (..., m, n), batch axes broadcast;
// a 1-d operand is treated as a row (left) or column (right) and that axis dropped.
Tensor matmul(const Tensor& a, const Tensor& b);
// x (..., in) @ W^T for W (out, in): the numbers of matmul(x, transpose(weight)),
// with W^T's packing kept in `packed` between calls (float32; other dtypes
// multiply the usual way), recorded as one node whose backward writes dW as
// (out, in) directly.
Tensor linear(const Tensor& x, const Tensor& weight, PackedWeight& packed);

// ---- causal attention products: row i of an (..., n, n) matrix sees columns 0..i.
// Equal (up to rounding) to masking the full product, without computing the masked half.
// q, k (..., n, d) -> (..., n, n): q @ k^T on and below the diagonal, 0 above.
Tensor causal_scores(const Tensor& q, const Tensor& k);
// w (..., n, n), v (..., n, d) -> (..., n, d): w @ v with w's entries above the diagonal taken as 0.
Tensor causal_mix(const Tensor& w, const Tensor& v);

// ---- shape ----
Tensor reshape(const Tensor& x, const Shape& shape);  // one size may be -1
Tensor permute(const Tensor& x, const std::vector<int>& axes);
Tensor transpose(const Tensor& x, int axis0 = -2, int axis1 = -1);
// Elements [start, stop) along axis (negative indices count from the end).
Tensor slice(const Tensor& x, int axis, int64_t start, int64_t stop);
Tensor concat(const std::vector<Tensor>& xs, int axis);
Tensor broadcast_to(const Tensor& x, const Shape& shape);
// RoPE's rotate_half along the last axis (even size k): [x1, x2] -> [-x2, x1]
// with x1 = x[..., :k/2], x2 = x[..., k/2:]. The same as
// concat({neg(slice(x, -1, k/2, k)), slice(x, -1, 0, k/2)}, -1), in one pass.
Tensor rotate_half(const Tensor& x);

// ---- selection ----
// cond is nonzero where a is taken; cond, a and b broadcast together.
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
// value where mask is nonzero (mask broadcasts to x), x elsewhere.
Tensor masked_fill(const Tensor& x, const Tensor& mask, double value);
// Rows of weight (V, D) picked by ids: ids of shape `ids_shape` -> ids_shape + (D,).
Tensor embedding(const Tensor& weight, std::span<const int32_t> ids, const Shape& ids_shape);
// (ids_shape + (classes,)) of 0/1, no history.
Tensor one_hot(std::span<const int32_t> ids, const Shape& ids_shape, int64_t classes, DType dtype = DType::f32);

// x (..., V) -> (...): x[..., ids[i]] at each position i (one id per
// position, numel(x) / V of them, each in [0, V)). Backward scatters.
Tensor pick(const Tensor& x, std::span<const int32_t> ids);

// ---- composed (no backward rule of their own) ----
Tensor softmax(const Tensor& x, int axis = -1);
Tensor log_softmax(const Tensor& x, int axis = -1);
// softmax over the last axis of (..., n, n) scores where row i sees columns
// 0..i only; equals softmax(masked_fill(scores, above-diagonal, -inf)), with
// exact zeros above the diagonal, at about half the work.
Tensor causal_softmax(const Tensor& scores);
// Mean over positions of -log softmax(logits)[target]; logits (..., V),
// targets one per position (numel(logits) / V of them), each in [0, V).
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
