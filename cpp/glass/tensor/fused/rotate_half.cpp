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

namespace glass {

Tensor rotate_half(const Tensor& x) {
  if (x.ndim() < 1 || x.shape().back() % 2 != 0)
    throw Error("rotate_half: the last axis must have an even size, got shape " + to_string(x.shape()));
  const Tensor c = detail::contiguous_values(x);
  const int64_t k = x.shape().back(), half = k / 2;
  Tensor out = empty_like_shape(x.shape(), x.dtype());
  dispatch(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = c.data<T>();
    T* po = out.mutable_data<T>();
    for (int64_t row = 0, rows = c.numel() / std::max<int64_t>(k, 1); row < rows; ++row, px += k, po += k)
      for (int64_t j = 0; j < half; ++j) {
        po[j] = -px[j + half];
        po[j + half] = px[j];
      }
  });
  // it is a signed permutation P with P^T = -P, so the gradient is -rotate_half(dout)
  return record(out, "rotate_half", {x},
                [](std::vector<Tensor>& d, const Tensor& dout) { d[0] = neg(rotate_half(dout)); });
}

}  // namespace glass
