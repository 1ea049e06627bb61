// Selection: where / masked_fill (the causal mask), embedding (a gather of
// rows, whose backward scatter-adds), one_hot (a constant). pick, the
// gather of one class per position, is fused (fused/pick.cpp).
#include <string>

#include "glass/tensor/autograd.h"
#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ids.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/strided.h"

namespace glass {

namespace {

// out = cond != 0 ? a : b, all three broadcast together.
Tensor select(const Tensor& cond, const Tensor& a, const Tensor& b) {
  const Shape shape = broadcast_shapes("where", broadcast_shapes("where", cond.shape(), a.shape()), b.shape());
  Tensor out = empty_like_shape(shape, a.dtype());
  dispatch(cond.dtype(), [&](auto ctag) {
    using C = decltype(ctag);
    dispatch(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const C* pc = cond.impl()->storage->data<C>();
      const T* pa = a.impl()->storage->data<T>();
      const T* pb = b.impl()->storage->data<T>();
      T* o = out.mutable_data<T>();
      detail::for_each_row<3>(
          shape,
          {detail::broadcast_strides(cond, shape), detail::broadcast_strides(a, shape), detail::broadcast_strides(b, shape)},
          {cond.offset(), a.offset(), b.offset()}, [&](auto off, int64_t len, auto st) {
            for (int64_t i = 0; i < len; ++i)
              *o++ = pc[off[0] + i * st[0]] != C(0) ? pa[off[1] + i * st[1]] : pb[off[2] + i * st[2]];
          });
    });
  });
  return out;
}

}  // namespace

namespace detail {

void check_ids(const char* op, std::span<const int32_t> ids, const Shape& ids_shape, int64_t limit, const std::string& what) {
  if (static_cast<uint64_t>(ids.size()) != static_cast<uint64_t>(checked_numel(op, ids_shape)))
    throw Error(std::string(op) + ": " + std::to_string(ids.size()) + " ids do not fill shape " + to_string(ids_shape));
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0 || ids[i] >= limit)
      throw Error(std::string(op) + ": id " + std::to_string(ids[i]) + " at position " + std::to_string(i) +
                  " is out of range for " + std::to_string(limit) + " " + what + " (valid: 0 to " +
                  std::to_string(limit - 1) + ")");
}

}  // namespace detail

Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    throw Error("where: dtypes differ: " + describe(a) + " and " + describe(b) + " (cast one explicitly with .to(...))");
  Tensor out = select(cond, a, b);
  // the gradient flows to whichever input was taken; cond gets none
  return record(out, "where", {cond.detach(), a, b},
                [cond = cond.detach(), sa = a.shape(), sb = b.shape(), need_a = a.requires_grad(),
                 need_b = b.requires_grad()](std::vector<Tensor>& d, const Tensor& dout) {
                  const Tensor zero = Tensor::scalar(0.0, dout.dtype());
                  if (need_a) d[1] = sum_to(select(cond, dout, zero), sa);
                  if (need_b) d[2] = sum_to(select(cond, zero, dout), sb);
                });
}

Tensor masked_fill(const Tensor& x, const Tensor& mask, double value) {
  if (broadcast_shapes("masked_fill", mask.shape(), x.shape()) != x.shape())
    throw Error("masked_fill: mask of shape " + to_string(mask.shape()) + " must broadcast to the input's shape " +
                to_string(x.shape()));
  return where(mask, Tensor::scalar(value, x.dtype()), x);
}

Tensor embedding(const Tensor& weight, std::span<const int32_t> ids, const Shape& ids_shape) {
  if (weight.ndim() != 2)
    throw Error("embedding: weight must be 2-d (vocabulary, width), got shape " + to_string(weight.shape()));
  const int64_t vocab = weight.shape()[0], width = weight.shape()[1];
  detail::check_ids("embedding", ids, ids_shape, vocab, "rows of weight " + to_string(weight.shape()));
  Shape shape = ids_shape;
  shape.push_back(width);
  checked_numel("embedding", shape);  // ids_shape + (width,): more than either input
  const Tensor w = detail::contiguous_values(weight);
  Tensor out = empty_like_shape(shape, weight.dtype(), "embedding");
  dispatch(w.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* pw = w.data<T>();
    T* o = out.mutable_data<T>();
    for (int32_t id : ids) o = std::copy(pw + id * width, pw + (id + 1) * width, o);
  });
  // backward: every occurrence of an id adds its row of dout into that row
  return record(out, "embedding", {weight},
                [ids = std::vector<int32_t>(ids.begin(), ids.end()), vocab, width](std::vector<Tensor>& d,
                                                                                   const Tensor& dout) {
                  const Tensor g = detail::contiguous_values(dout);
                  Tensor dw = Tensor::zeros({vocab, width}, dout.dtype());
                  dispatch(dout.dtype(), [&](auto tag) {
                    using T = decltype(tag);
                    const T* pg = g.data<T>();
                    T* pd = dw.mutable_data<T>();
                    for (std::size_t i = 0; i < ids.size(); ++i)
                      for (int64_t j = 0; j < width; ++j) pd[ids[i] * width + j] += pg[i * width + j];
                  });
                  d[0] = dw;
                });
}

Tensor one_hot(std::span<const int32_t> ids, const Shape& ids_shape, int64_t classes, DType dtype) {
  if (classes <= 0) throw Error("one_hot: classes must be positive, got " + std::to_string(classes));
  detail::check_ids("one_hot", ids, ids_shape, classes, "classes");
  Shape shape = ids_shape;
  shape.push_back(classes);
  checked_numel("one_hot", shape);  // ids_shape + (classes,)
  Tensor out = Tensor::zeros(shape, dtype);
  dispatch(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* o = out.mutable_data<T>();
    for (std::size_t i = 0; i < ids.size(); ++i) o[static_cast<int64_t>(i) * classes + ids[i]] = T(1);
  });
  return out;
}

}  // namespace glass
