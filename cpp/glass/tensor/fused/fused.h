#pragma once
// Fused kernels: the ops the model runs every step, each written as one pass
// (and one node in the graph) where the reference primitives of ops.h would
// take several. Every one equals a composition of primitives, given below, in
// values and in gradients (tests/cpp/test_fused.cpp checks each in float64 on
// several shapes); it exists for speed, or to skip work a mask throws away.
// Each carries a backward rule of its own, next to its forward in fused/*.cpp
// (causal_softmax's passes are softmax's, in ops_softmax.cpp, told where each
// row ends). JavaScript calls them through the op table (op_table.inc).
//
// Letters: n positions, d (or k) width, V classes; "..." any leading axes.
#include <cstdint>
#include <span>

#include "glass/tensor/tensor.h"

namespace glass {

class PackedWeight;

// ---- linear: x (..., in), W (out, in) -> (..., out)
//   = matmul(x, transpose(W))
// Float32 multiplies by W^T packed once for the kernel and kept in `packed`
// between calls (nn::Linear holds one per weight); other dtypes multiply the
// usual way. One node whose backward writes dW as (out, in) directly
// (dx = dout W, dW = dout^T x over all rows).
Tensor linear(const Tensor& x, const Tensor& weight, PackedWeight& packed);
// The same with W^T packed for this call only (for callers that keep no cache).
Tensor linear(const Tensor& x, const Tensor& weight);

// ---- causal attention: row i of an (..., n, n) matrix sees columns 0..i.
// Only the kept half is computed, forward and backward, in blocks of rows.
// q, k (..., n, d) -> (..., n, n):
//   = masked_fill(matmul(q, transpose(k)), above, 0)
// with `above` (n, n) nonzero where column > row.
Tensor causal_scores(const Tensor& q, const Tensor& k);
// scores (..., n, n) -> (..., n, n), rows sum to 1 over columns 0..i:
//   = softmax(masked_fill(scores, above, -inf), -1)
// with exact zeros above the diagonal (and zero gradient there).
Tensor causal_softmax(const Tensor& scores);
// w (..., n, n), v (..., n, d) -> (..., n, d), w's entries above the diagonal taken as 0:
//   = matmul(masked_fill(w, above, 0), v)
Tensor causal_mix(const Tensor& w, const Tensor& v);
// q, k (..., n, d), v (..., n, dv) -> (..., n, dv): the three above in one op,
//   = causal_mix(causal_softmax(causal_scores(q, k)), v)
// bit for bit, forward and backward, taking each head through every step
// before the next (causal_attention.cpp): for runs that need no view of the
// scores or the weights.
Tensor causal_attention(const Tensor& q, const Tensor& k, const Tensor& v);

// ---- RoPE's rotate_half along the last axis (even size k): [x1, x2] -> [-x2, x1]
//   = concat({neg(slice(x, -1, k/2, k)), slice(x, -1, 0, k/2)}, -1)
// in one pass; its backward is -rotate_half(dout).
Tensor rotate_half(const Tensor& x);

// ---- RoPE: x (..., n, k) any strides, cos and sin (n, k) -> (..., n, k),
// row i of every leading index rotated by row i of the tables:
//   = add(mul(x, cos), mul(rotate_half(x), sin))
// in one pass each way, with the same roundings (the bits of the composition).
Tensor rope(const Tensor& x, const Tensor& cos, const Tensor& sin);

// ---- SwiGLU's gate: gate, up (...) of one shape -> (...):
//   = mul(silu(gate), up)
// in one pass each way (the backward computes both gradients together), with
// the bits of the composition.
Tensor swiglu(const Tensor& gate, const Tensor& up);

// ---- pick: x (..., V) -> (...), x[..., ids[i]] at each position i (one id
// per position, numel(x) / V of them, each in [0, V)):
//   = sum(mul(x, one_hot(ids, positions, V)), -1)
// without building the one-hot; its backward scatters dout into the picked entries.
Tensor pick(const Tensor& x, std::span<const int32_t> ids);

}  // namespace glass
