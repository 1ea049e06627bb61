// rotate_half, RoPE's quarter turn along the last axis (even size k):
// [x1, x2] -> [-x2, x1] with x1 = x[..., :k/2], x2 = x[..., k/2:]. Equals
// concat({neg(slice(x, -1, k/2, k)), slice(x, -1, 0, k/2)}, -1) (fused.h):
// one pass and one node instead of two slices, a neg and a concat per call,
// twice per attention layer.
#include <algorithm>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/fused/fused.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/strided.h"
#include "glass/tensor/thread_pool.h"

namespace glass {

namespace {

// [x1, x2] -> [-x2, x1] (sign 1), or its inverse [x2, -x1] (sign -1): the
// backward, -rotate_half(dout), in one pass instead of a rotation and a neg.
Tensor rotate(const Tensor& x, int sign) {
  const Tensor c = detail::contiguous_values(x);
  const int64_t k = x.shape().back(), half = k / 2;
  Tensor out = empty_like_shape(x.shape(), x.dtype());
  dispatch(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* const px = c.data<T>();
    T* const po = out.mutable_data<T>();
    // rows (..., k) are independent: large inputs (every head of a batch) are shared by rows
    auto rows_of = [&](int64_t first, int64_t last) {
      for (int64_t row = first; row < last; ++row) {
        const T* in = px + row * k;
        T* o = po + row * k;
        if (sign > 0)
          for (int64_t j = 0; j < half; ++j) {
            o[j] = -in[j + half];
            o[j + half] = in[j];
          }
        else
          for (int64_t j = 0; j < half; ++j) {
            o[j] = in[j + half];
            o[j + half] = -in[j];
          }
      }
    };
    const int64_t rows = c.numel() / std::max<int64_t>(k, 1);
    if (c.numel() < detail::kParallelElements)
      rows_of(0, rows);
    else
      detail::parallel_ranges(rows, detail::grain_rows(k), rows_of);
  });
  return out;
}

}  // namespace

Tensor rotate_half(const Tensor& x) {
  if (x.ndim() < 1 || x.shape().back() % 2 != 0)
    throw Error("rotate_half: the last axis must have an even size, got shape " + to_string(x.shape()));
  // it is a signed permutation P with P^T = -P, so the gradient is -rotate_half(dout)
  return record(rotate(x, 1), "rotate_half", {x},
                [](std::vector<Tensor>& d, const Tensor& dout) { d[0] = rotate(dout, -1); });
}

}  // namespace glass
