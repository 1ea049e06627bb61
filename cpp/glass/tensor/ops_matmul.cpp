// matmul: (..., m, k) @ (..., k, n) -> (..., m, n) with broadcast batch axes.
// The work happens in kernels::gemm, which reads any strides, so transposed
// views (as in every backward) are never copied.
#include <string>

#include "glass/tensor/autograd.h"
#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"
#include "glass/tensor/gemm.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/strided.h"

namespace glass {

namespace {

Shape batch_of(const Tensor& t) { return Shape(t.shape().begin(), t.shape().end() - 2); }

// Strides of t's batch axes read as `batch` (broadcast: 0 where t has none or 1).
Strides batch_strides(const Tensor& t, const Shape& batch) {
  Strides s(batch.size(), 0);
  const int tb = t.ndim() - 2;
  const int off = static_cast<int>(batch.size()) - tb;
  for (int i = 0; i < tb; ++i)
    if (t.shape()[i] != 1) s[off + i] = t.strides()[i];
  return s;
}

// Both operands at least 2-d, shapes already checked.
Tensor matmul_forward(const Tensor& a_in, const Tensor& b, const Shape& batch, int64_t m, int64_t k, int64_t n) {
  Shape out_shape = batch;
  out_shape.push_back(m);
  out_shape.push_back(n);
  Tensor out = empty_like_shape(out_shape, a_in.dtype(), "matmul");
  // (B, m, k) @ (k, n): fold the batch into rows, one big gemm
  const bool fold = b.ndim() == 2 && a_in.ndim() > 2;
  const Tensor a = fold ? detail::contiguous_values(a_in) : a_in;
  dispatch(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* pa = a.impl()->storage->data<T>();
    const T* pb = b.impl()->storage->data<T>();
    T* po = out.mutable_data<T>();
    const int64_t bs_row = b.strides()[b.ndim() - 2], bs_col = b.strides()[b.ndim() - 1];
    if (fold || batch.empty()) {
      // folded: every batch element's m rows (not numel / k, which divides by zero when k is 0)
      const int64_t rows = fold ? numel(batch) * m : m;
      const int64_t as_row = fold ? k : a.strides()[0], as_col = fold ? 1 : a.strides()[1];
      kernels::gemm<T>(rows, n, k, pa + a.offset(), as_row, as_col, pb + b.offset(), bs_row, bs_col, po, n, false);
      return;
    }
    const int64_t as_row = a.strides()[a.ndim() - 2], as_col = a.strides()[a.ndim() - 1];
    detail::for_each_row<2>(batch, {batch_strides(a, batch), batch_strides(b, batch)}, {a.offset(), b.offset()},
                            [&](auto off, int64_t len, auto st) {
                              for (int64_t i = 0; i < len; ++i, po += m * n)
                                kernels::gemm<T>(m, n, k, pa + off[0] + i * st[0], as_row, as_col,
                                                 pb + off[1] + i * st[1], bs_row, bs_col, po, n, false);
                            });
  });
  return out;
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    throw Error("matmul: dtypes differ: " + describe(a) + " and " + describe(b) + " (cast one explicitly with .to(...))");
  if (a.ndim() == 0 || b.ndim() == 0)
    throw Error("matmul: needs at least 1-d operands, got shapes " + to_string(a.shape()) + " and " +
                to_string(b.shape()));
  const int64_t k = a.shape().back();
  const int64_t k2 = b.ndim() == 1 ? b.shape()[0] : b.shape()[b.ndim() - 2];
  if (k != k2)
    throw Error("matmul: inner sizes differ: " + to_string(a.shape()) + " @ " + to_string(b.shape()) + " needs " +
                std::to_string(k) + " == " + std::to_string(k2) + " (the last axis of the left operand must match "
                "the second-to-last of the right)");
  // 1-d operands: a row on the left, a column on the right, that axis dropped after
  const bool row = a.ndim() == 1, col = b.ndim() == 1;
  if (row || col) {
    const Tensor r = matmul(row ? reshape(a, {1, k}) : a, col ? reshape(b, {k, 1}) : b);  // (..., m, n)
    Shape s = r.shape();
    if (col) s.pop_back();                     // n = 1
    if (row) s.erase(s.end() - (col ? 1 : 2));  // m = 1
    return reshape(r, s);
  }
  const int64_t m = a.shape()[a.ndim() - 2], n = b.shape()[b.ndim() - 1];
  Shape batch;
  try {
    batch = broadcast_shapes("batch axes", batch_of(a), batch_of(b));
  } catch (const Error& e) {
    throw Error("matmul: " + to_string(a.shape()) + " @ " + to_string(b.shape()) + ": " + e.what());
  }
  Shape out_shape = batch;  // (..., m, n) can outgrow both operands
  out_shape.push_back(m);
  out_shape.push_back(n);
  if (const std::string problem = size_problem(out_shape); !problem.empty())
    throw Error("matmul: " + to_string(a.shape()) + " @ " + to_string(b.shape()) + " gives shape " +
                to_string(out_shape) + ", which " + problem);
  Tensor out = matmul_forward(a, b, batch, m, k, n);
  return record(out, "matmul", {a, b},
                [a = a.detach(), b = b.detach(), need_a = a.requires_grad(), need_b = b.requires_grad()](
                    std::vector<Tensor>& d, const Tensor& dout) {
    // dA = dC B^T, dB = A^T dC, each summed over the batch axes its operand was broadcast along
    if (need_a) d[0] = sum_to(matmul(dout, transpose(b)), a.shape());
    if (!need_b) return;
    if (b.ndim() == 2 && a.ndim() > 2) {  // fold the batch: one (k, rows) @ (rows, n) product
      // rows spelled out: a -1 cannot be inferred when k or n is 0
      const int64_t kk = a.shape().back(), nn = dout.shape().back();
      const int64_t rows = numel(Shape(a.shape().begin(), a.shape().end() - 1));
      d[1] = matmul(transpose(reshape(a, {rows, kk})), reshape(dout, {rows, nn}));
    } else {
      d[1] = sum_to(matmul(transpose(a), dout), b.shape());
    }
  });
}

}  // namespace glass
