#pragma once
// Internal: walking strided (possibly broadcast) operands row by row. A "row"
// is the last axis; the callback gets each operand's offset of the row start
// and the stride along it, so inner loops stay simple and vectorisable.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "glass/tensor/shape.h"
#include "glass/tensor/tensor.h"

namespace glass::detail {

// A row-major copy of any strided view (broadcast views included) in `dtype`.
Tensor materialize(const Tensor& x, DType dtype);

// x itself if contiguous, else a row-major copy; records nothing. Kernels use
// this on their inputs (the op they belong to records the history).
inline Tensor contiguous_values(const Tensor& x) { return x.is_contiguous() ? x : materialize(x, x.dtype()); }

// dst += src elementwise, in dst's own storage; records nothing. For a
// gradient sum whose left side nothing else holds: dst and src contiguous,
// of one shape and dtype (autograd.cpp checks). The same additions as add().
void add_to(Tensor& dst, const Tensor& src);

// Strides that read `t` as if it had shape `out` (numpy broadcasting):
// axes t lacks or has as size 1 get stride 0.
inline Strides broadcast_strides(const Tensor& t, const Shape& out) {
  Strides s(out.size(), 0);
  const int off = static_cast<int>(out.size()) - t.ndim();
  for (int i = 0; i < t.ndim(); ++i)
    if (t.shape()[i] != 1) s[off + i] = t.strides()[i];
  return s;
}

// Calls row(offsets, len, inner_strides) for rows first .. last-1 of `shape`
// (counted in row-major order), offsets advanced per operand by its own
// strides, so that threads can take a range each. A 0-d shape is one row of
// length 1.
template <std::size_t K, class F>
void for_each_row_range(const Shape& shape, const std::array<Strides, K>& strides, std::array<int64_t, K> offsets,
                        int64_t first, int64_t last, F&& row) {
  const int nd = static_cast<int>(shape.size());
  std::array<int64_t, K> inner{};
  if (nd == 0) {
    if (first == 0 && last > 0) row(offsets, int64_t{1}, inner);
    return;
  }
  if (numel(shape) == 0 || first >= last) return;
  for (std::size_t k = 0; k < K; ++k) inner[k] = strides[k][nd - 1];
  const int64_t len = shape[nd - 1];
  // The row's index, on the stack up to 8 axes (an empty vector allocates
  // nothing): this runs in every chunk of a strided map, and the threaded wasm
  // build's malloc takes one lock for all threads (docs/threads.md,
  // "Nineteenth and twentieth sessions").
  std::array<int64_t, 8> small{};
  std::vector<int64_t> large(nd > static_cast<int>(small.size()) ? nd : 0, 0);
  int64_t* const idx = large.empty() ? small.data() : large.data();
  for (int64_t d = nd - 2, r = first; d >= 0; --d) {  // row `first`'s index and offsets
    idx[d] = r % shape[d];
    r /= shape[d];
    for (std::size_t k = 0; k < K; ++k) offsets[k] += idx[d] * strides[k][d];
  }
  for (int64_t n = first; n < last; ++n) {
    row(offsets, len, inner);
    int d = nd - 2;
    for (; d >= 0; --d) {
      ++idx[d];
      for (std::size_t k = 0; k < K; ++k) offsets[k] += strides[k][d];
      if (idx[d] < shape[d]) break;
      for (std::size_t k = 0; k < K; ++k) offsets[k] -= strides[k][d] * shape[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

// Every row of `shape` (for_each_row_range over all of them).
template <std::size_t K, class F>
void for_each_row(const Shape& shape, const std::array<Strides, K>& strides, std::array<int64_t, K> offsets, F&& row) {
  const int64_t rows = shape.empty() ? 1 : (shape.back() == 0 ? 0 : numel(shape) / shape.back());
  for_each_row_range(shape, strides, offsets, 0, rows, std::forward<F>(row));
}

}  // namespace glass::detail

namespace glass::detail {

// A new TensorImpl over x's storage (no history): the forward of every view op.
Tensor make_view(const Tensor& x, Shape shape, Strides strides, int64_t offset);

// Writes src into the elements dst views (same shape and dtype). Only for
// tensors an op has just created: no op ever writes into its inputs.
void assign(const Tensor& dst, const Tensor& src);

}  // namespace glass::detail
