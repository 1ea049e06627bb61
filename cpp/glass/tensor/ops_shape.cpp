// Shape ops. reshape (of a contiguous tensor), permute, transpose, slice and
// broadcast_to are views: they share the input's storage and copy nothing.
// Their backward rules undo the view on the gradient.
#include <algorithm>
#include <string>

#include "glass/tensor/autograd.h"
#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/strided.h"

namespace glass {

namespace detail {

Tensor make_view(const Tensor& x, Shape shape, Strides strides, int64_t offset) {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = x.impl()->storage;
  impl->shape = std::move(shape);
  impl->strides = std::move(strides);
  impl->offset = offset;
  impl->dtype = x.dtype();
  return Tensor(std::move(impl));
}

void assign(const Tensor& dst, const Tensor& src) {
  dispatch(dst.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* pd = dst.impl()->storage->data<T>();
    const T* ps = src.impl()->storage->data<T>();
    for_each_row<2>(dst.shape(), {dst.strides(), broadcast_strides(src, dst.shape())}, {dst.offset(), src.offset()},
                    [&](auto off, int64_t len, auto st) {
                      for (int64_t i = 0; i < len; ++i) pd[off[0] + i * st[0]] = ps[off[1] + i * st[1]];
                    });
  });
}

}  // namespace detail

namespace {
std::string shape_detail(const Shape& s) { return to_string(s); }
}  // namespace

Tensor reshape(const Tensor& x, const Shape& shape) {
  Shape target = shape;
  int infer = -1;
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (target[i] == -1 && infer < 0) {
      infer = static_cast<int>(i);
      continue;
    }
    if (target[i] < 0)
      throw Error("reshape: bad target shape " + to_string(shape) + " for " + to_string(x.shape()) +
                  " (sizes must be >= 0, with at most one -1)");
  }
  if (infer >= 0) {
    // the product of the known sizes, checked: it must not wrap before it divides
    int64_t known = 1;
    try {
      for (std::size_t i = 0; i < target.size(); ++i)
        if (static_cast<int>(i) != infer) known = checked_mul("reshape", known, target[i], "the product of the sizes");
    } catch (const Error& e) {
      throw Error(std::string(e.what()) + ", in the target shape " + to_string(shape) + " for " + to_string(x.shape()));
    }
    if (known == 0 || x.numel() % known != 0)
      throw Error("reshape: cannot infer -1 in " + to_string(shape) + " from " + std::to_string(x.numel()) +
                  " elements of " + to_string(x.shape()));
    target[infer] = x.numel() / known;
  }
  if (checked_numel("reshape", target) != x.numel())
    throw Error("reshape: cannot reshape " + to_string(x.shape()) + " (" + std::to_string(x.numel()) +
                " elements) to " + to_string(shape) + " (" + std::to_string(numel(target)) + " elements)");
  const Tensor c = detail::contiguous_values(x);
  Tensor out = detail::make_view(c, target, contiguous_strides(target), c.offset());
  return record(
      out, "reshape", {x}, [xs = x.shape()](std::vector<Tensor>& d, const Tensor& dout) { d[0] = reshape(dout, xs); },
      shape_detail(target));
}

Tensor permute(const Tensor& x, const std::vector<int>& axes) {
  const int nd = x.ndim();
  std::vector<int> ax(axes.size());
  std::vector<bool> used(nd, false);
  bool ok = static_cast<int>(axes.size()) == nd;
  for (std::size_t i = 0; ok && i < axes.size(); ++i) {
    ok = axes[i] >= -nd && axes[i] < nd;
    if (!ok) break;
    ax[i] = axes[i] < 0 ? axes[i] + nd : axes[i];
    ok = !used[ax[i]];
    used[ax[i]] = true;
  }
  if (!ok) {
    std::string list;
    for (std::size_t i = 0; i < axes.size(); ++i) list += (i ? ", " : "") + std::to_string(axes[i]);
    throw Error("permute: axes [" + list + "] are not a permutation of the " + std::to_string(nd) +
                " axes of shape " + to_string(x.shape()));
  }
  Shape shape(nd);
  Strides strides(nd);
  std::vector<int> inverse(nd);
  for (int i = 0; i < nd; ++i) {
    shape[i] = x.shape()[ax[i]];
    strides[i] = x.strides()[ax[i]];
    inverse[ax[i]] = i;
  }
  Tensor out = detail::make_view(x, shape, strides, x.offset());
  std::string list;
  for (int i = 0; i < nd; ++i) list += (i ? ", " : "") + std::to_string(ax[i]);
  return record(
      out, "permute", {x}, [inverse](std::vector<Tensor>& d, const Tensor& dout) { d[0] = permute(dout, inverse); },
      "[" + list + "]");
}

Tensor transpose(const Tensor& x, int axis0, int axis1) {
  if (x.ndim() < 2)
    throw Error("transpose: needs at least 2 dimensions, got shape " + to_string(x.shape()));
  const int a = normalize_axis("transpose", axis0, x.shape());
  const int b = normalize_axis("transpose", axis1, x.shape());
  std::vector<int> axes(x.ndim());
  for (int i = 0; i < x.ndim(); ++i) axes[i] = i;
  std::swap(axes[a], axes[b]);
  return permute(x, axes);
}

Tensor slice(const Tensor& x, int axis, int64_t start, int64_t stop) {
  const int ax = normalize_axis("slice", axis, x.shape());
  const int64_t n = x.shape()[ax];
  const int64_t s = start < 0 ? start + n : start;
  const int64_t e = stop < 0 ? stop + n : stop;
  if (s < 0 || e > n || s > e)
    throw Error("slice: [" + std::to_string(start) + ", " + std::to_string(stop) + ") is out of range for axis " +
                std::to_string(axis) + " of shape " + to_string(x.shape()) + " (size " + std::to_string(n) + ")");
  Shape shape = x.shape();
  shape[ax] = e - s;
  Tensor out = detail::make_view(x, shape, x.strides(), x.offset() + s * x.strides()[ax]);
  // backward: the gradient lands in the sliced window of a zero tensor
  return record(
      out, "slice", {x},
      [xs = x.shape(), ax, s, e](std::vector<Tensor>& d, const Tensor& dout) {
        Tensor dx = Tensor::zeros(xs, dout.dtype());
        detail::assign(slice(dx, ax, s, e), dout);
        d[0] = dx;
      },
      "axis=" + std::to_string(axis) + ", " + std::to_string(s) + ":" + std::to_string(e));
}

Tensor concat(const std::vector<Tensor>& xs, int axis) {
  if (xs.empty()) throw Error("concat: needs at least one tensor");
  const Tensor& first = xs[0];
  const int ax = normalize_axis("concat", axis, first.shape());
  Shape shape = first.shape();
  shape[ax] = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const Tensor& t = xs[i];
    bool ok = t.ndim() == first.ndim();
    for (int k = 0; ok && k < t.ndim(); ++k) ok = k == ax || t.shape()[k] == first.shape()[k];
    if (!ok)
      throw Error("concat: tensor " + std::to_string(i) + " has shape " + to_string(t.shape()) +
                  ", which does not match " + to_string(first.shape()) + " outside axis " + std::to_string(axis));
    if (t.dtype() != first.dtype())
      throw Error("concat: dtypes differ: " + describe(first) + " and " + describe(t) +
                  " (cast one explicitly with .to(...))");
    shape[ax] = checked_add("concat", shape[ax], t.shape()[ax], "the size along the axis");
  }
  checked_numel("concat", shape);
  Tensor out = empty_like_shape(shape, first.dtype(), "concat");
  std::vector<int64_t> starts;
  int64_t at = 0;
  for (const Tensor& t : xs) {
    starts.push_back(at);
    NoGradGuard no_grad;
    detail::assign(slice(out, ax, at, at + t.shape()[ax]), t);
    at += t.shape()[ax];
  }
  starts.push_back(at);
  return record(
      out, "concat", xs,
      [ax, starts](std::vector<Tensor>& d, const Tensor& dout) {
        for (std::size_t i = 0; i + 1 < starts.size(); ++i) d[i] = slice(dout, ax, starts[i], starts[i + 1]);
      },
      "axis=" + std::to_string(axis));
}

Tensor broadcast_to(const Tensor& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  if (x.ndim() > static_cast<int>(shape.size()) || broadcast_shapes("broadcast_to", x.shape(), shape) != shape)
    throw Error("broadcast_to: cannot broadcast " + to_string(x.shape()) + " to " + to_string(shape));
  Tensor out = detail::make_view(x, shape, detail::broadcast_strides(x, shape), x.offset());
  return record(
      out, "broadcast_to", {x}, [xs = x.shape()](std::vector<Tensor>& d, const Tensor& dout) { d[0] = sum_to(dout, xs); },
      shape_detail(shape));
}

}  // namespace glass
