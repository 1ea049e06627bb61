// Elementwise primitives. Each op's forward is followed by its backward rule;
// binary rules reduce their gradient back to each input's shape with sum_to,
// which is the chain rule through broadcasting.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "glass/tensor/autograd.h"
#include "glass/tensor/div_by_rows.h"
#include "glass/tensor/error.h"
#include "glass/tensor/fast_math.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/strided.h"
#include "glass/tensor/thread_pool.h"

namespace glass {

namespace {

void check_same_dtype(const char* op, const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    throw Error(std::string(op) + ": dtypes differ: " + describe(a) + " and " + describe(b) +
                " (cast one explicitly with .to(...))");
}

// Large maps are shared between threads in pieces of kGrainElements elements
// (or of whole rows); each element is computed alone, so the thread count
// changes nothing. Below kParallelElements one thread does it all.
using detail::kParallelElements;
using detail::over_elements;

// out = f(a, b) with numpy broadcasting; any strides.
template <class F>
Tensor binary_map(const char* op, const Tensor& a, const Tensor& b, F f) {
  check_same_dtype(op, a, b);
  const Shape shape = a.shape() == b.shape() ? a.shape() : broadcast_shapes(op, a.shape(), b.shape());
  Tensor out = empty_like_shape(shape, a.dtype());
  dispatch(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* const out_data = out.mutable_data<T>();
    if (a.shape() == b.shape() && a.is_contiguous() && b.is_contiguous()) {
      const T* pa = a.data<T>();
      const T* pb = b.data<T>();
      over_elements(out.numel(), [&, pa, pb, o = out_data](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) o[i] = f(pa[i], pb[i]);
      });
      return;
    }
    const T* pa = a.impl()->storage->data<T>();
    const T* pb = b.impl()->storage->data<T>();
    const std::array<Strides, 2> strides{detail::broadcast_strides(a, shape), detail::broadcast_strides(b, shape)};
    const int64_t len = shape.empty() ? 1 : shape.back();
    const int64_t rows = len == 0 ? 0 : numel(shape) / len;
    auto row_range = [&](int64_t first, int64_t last) {
      T* o = out_data + first * len;
      detail::for_each_row_range<2>(shape, strides, {a.offset(), b.offset()}, first, last,
                                    [&](auto off, int64_t len, auto st) {
                              const T* ra = pa + off[0];
                              const T* rb = pb + off[1];
                              // the common broadcast rows, spelled out so they vectorise:
                              // both contiguous ((B,n,d) * (d,)), or one side a scalar ((B,n,d) / (B,n,1))
                              if (st[0] == 1 && st[1] == 1) {
                                for (int64_t i = 0; i < len; ++i) o[i] = f(ra[i], rb[i]);
                              } else if (st[0] == 1 && st[1] == 0) {
                                const T vb = *rb;
                                for (int64_t i = 0; i < len; ++i) o[i] = f(ra[i], vb);
                              } else if (st[0] == 0 && st[1] == 1) {
                                const T va = *ra;
                                for (int64_t i = 0; i < len; ++i) o[i] = f(va, rb[i]);
                              } else {
                                for (int64_t i = 0; i < len; ++i) o[i] = f(ra[i * st[0]], rb[i * st[1]]);
                              }
                              o += len;
                            });
    };
    if (numel(shape) < kParallelElements)
      row_range(0, std::max<int64_t>(rows, 1));
    else
      detail::parallel_ranges(rows, detail::grain_rows(len), row_range);
  });
  return out;
}

}  // namespace

void detail::add_to(Tensor& dst, const Tensor& src) {
  dispatch(dst.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* const o = dst.mutable_data<T>();
    const T* const p = src.data<T>();
    over_elements(dst.numel(), [o, p](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) o[i] = o[i] + p[i];
    });
  });
}

namespace {

// out = f(x) elementwise; any strides.
template <class F>
Tensor unary_map(const Tensor& x, F f) {
  const Tensor c = detail::contiguous_values(x);
  Tensor out = empty_like_shape(c.shape(), c.dtype());
  dispatch(c.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = c.data<T>();
    T* o = out.mutable_data<T>();
    over_elements(c.numel(), [&, p, o](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) o[i] = f(p[i]);
    });
  });
  return out;
}

}  // namespace

// ---------------------------------------------------------------- binary

Tensor add(const Tensor& a, const Tensor& b) {
  Tensor out = binary_map("add", a, b, [](auto x, auto y) { return x + y; });
  return record(out, "add", {a, b}, [sa = a.shape(), sb = b.shape()](std::vector<Tensor>& d, const Tensor& dout) {
    d[0] = sum_to(dout, sa);
    d[1] = sum_to(dout, sb);
  });
}

Tensor sub(const Tensor& a, const Tensor& b) {
  Tensor out = binary_map("sub", a, b, [](auto x, auto y) { return x - y; });
  return record(out, "sub", {a, b}, [sa = a.shape(), sb = b.shape()](std::vector<Tensor>& d, const Tensor& dout) {
    d[0] = sum_to(dout, sa);
    d[1] = sum_to(neg(dout), sb);
  });
}

Tensor mul(const Tensor& a, const Tensor& b) {
  Tensor out = binary_map("mul", a, b, [](auto x, auto y) { return x * y; });
  // saves both inputs: each one's gradient is the other one
  // (a constant side, such as a one-hot or a mask, gets no gradient computed)
  return record(out, "mul", {a, b},
                [a = a.detach(), b = b.detach(), need_a = a.requires_grad(), need_b = b.requires_grad()](
                    std::vector<Tensor>& d, const Tensor& dout) {
                  if (need_a) d[0] = sum_to(mul(dout, b), a.shape());
                  if (need_b) d[1] = sum_to(mul(dout, a), b.shape());
                });
}

Tensor div(const Tensor& a, const Tensor& b) {
  Tensor out = binary_map("div", a, b, [](auto x, auto y) { return x / y; });
  // d(a/b)/da = 1/b, d(a/b)/db = -a/b^2 = -out/b; the sign is taken after
  // the sum, on b's shape: a broadcast b (RMSNorm's (..., 1)) saves a pass
  // over the whole of a. A b of one value per row of a takes one pass in all
  // (div_by_rows.h), with the same bits.
  Shape per_row = a.shape();
  if (!per_row.empty()) per_row.back() = 1;
  const bool by_rows = !per_row.empty() && a.shape().back() > 0 && b.shape() == per_row;
  return record(out, "div", {a, b},
                [b = b.detach(), out = out.detach(), sa = a.shape(), need_b = b.requires_grad(), by_rows](
                    std::vector<Tensor>& d, const Tensor& dout) {
                  if (need_b && by_rows) return detail::div_by_rows_backward(dout, b, out, d[0], d[1]);
                  const Tensor da = div(dout, b);
                  d[0] = sum_to(da, sa);
                  if (need_b) d[1] = neg(sum_to(mul(da, out), b.shape()));
                });
}

Tensor add(const Tensor& a, double s) {
  Tensor out = unary_map(a, [s](auto x) { return x + static_cast<decltype(x)>(s); });
  return record(out, "add_scalar", {a}, [](std::vector<Tensor>& d, const Tensor& dout) { d[0] = dout; },
                format_scalar(s));
}

Tensor mul(const Tensor& a, double s) {
  Tensor out = unary_map(a, [s](auto x) { return x * static_cast<decltype(x)>(s); });
  return record(out, "mul_scalar", {a}, [s](std::vector<Tensor>& d, const Tensor& dout) { d[0] = mul(dout, s); },
                format_scalar(s));
}

// ---------------------------------------------------------------- unary

Tensor neg(const Tensor& x) {
  Tensor out = unary_map(x, [](auto v) { return -v; });
  return record(out, "neg", {x}, [](std::vector<Tensor>& d, const Tensor& dout) { d[0] = neg(dout); });
}

Tensor pow(const Tensor& x, double p) {
  if (!std::isfinite(p)) throw Error("pow: exponent must be finite, got " + format_scalar(p));
  Tensor out = unary_map(x, [p](auto v) { return static_cast<decltype(v)>(std::pow(v, static_cast<decltype(v)>(p))); });
  // d x^p = p x^(p-1)
  return record(
      out, "pow", {x},
      [x = x.detach(), p](std::vector<Tensor>& d, const Tensor& dout) { d[0] = mul(dout, mul(pow(x, p - 1), p)); },
      format_scalar(p));
}

Tensor square(const Tensor& x) {
  Tensor out = unary_map(x, [](auto v) { return v * v; });
  return record(out, "square", {x},
                [x = x.detach()](std::vector<Tensor>& d, const Tensor& dout) {
                  d[0] = binary_map("square backward", dout, x, [](auto g, auto v) { return g * (v + v); });
                });
}

Tensor sqrt(const Tensor& x) {
  Tensor out = unary_map(x, [](auto v) { return std::sqrt(v); });
  // d sqrt(x) = 1 / (2 sqrt(x)): reuse the output
  return record(out, "sqrt", {x}, [out = out.detach()](std::vector<Tensor>& d, const Tensor& dout) {
    d[0] = div(dout, mul(out, 2.0));
  });
}

Tensor exp(const Tensor& x) {
  Tensor out = unary_map(x, [](auto v) GLASS_KERNEL { return detail::exp_of(v); });
  return record(out, "exp", {x},
                [out = out.detach()](std::vector<Tensor>& d, const Tensor& dout) { d[0] = mul(dout, out); });
}

Tensor log(const Tensor& x) {
  Tensor out = unary_map(x, [](auto v) { return std::log(v); });
  return record(out, "log", {x}, [x = x.detach()](std::vector<Tensor>& d, const Tensor& dout) { d[0] = div(dout, x); });
}

using detail::sigmoid_of;
using detail::silu_grad;

Tensor sigmoid(const Tensor& x) {
  Tensor out = unary_map(x, [](auto v) GLASS_KERNEL { return sigmoid_of(v); });
  // d sigmoid = s (1 - s)
  return record(out, "sigmoid", {x}, [s = out.detach()](std::vector<Tensor>& d, const Tensor& dout) {
    d[0] = binary_map("sigmoid backward", dout, s, [](auto g, auto sv) { return g * sv * (1 - sv); });
  });
}

Tensor silu(const Tensor& x) {
  Tensor out = unary_map(x, [](auto v) GLASS_KERNEL { return v * sigmoid_of(v); });
  // d (x s(x)) = s + x s (1 - s)
  return record(out, "silu", {x}, [x = x.detach()](std::vector<Tensor>& d, const Tensor& dout) {
    d[0] = binary_map("silu backward", dout, x, [](auto g, auto v) GLASS_KERNEL { return silu_grad(g, v); });
  });
}

Tensor tanh(const Tensor& x) {
  Tensor out = unary_map(x, [](auto v) { return std::tanh(v); });
  return record(out, "tanh", {x}, [t = out.detach()](std::vector<Tensor>& d, const Tensor& dout) {
    d[0] = binary_map("tanh backward", dout, t, [](auto g, auto tv) { return g * (1 - tv * tv); });
  });
}

Tensor relu(const Tensor& x) {
  Tensor out = unary_map(x, [](auto v) { return v > 0 ? v : decltype(v)(0); });
  // the gradient at exactly 0 is taken as 0
  return record(out, "relu", {x}, [x = x.detach()](std::vector<Tensor>& d, const Tensor& dout) {
    d[0] = binary_map("relu backward", dout, x, [](auto g, auto v) { return v > 0 ? g : decltype(g)(0); });
  });
}

Tensor abs(const Tensor& x) {
  Tensor out = unary_map(x, [](auto v) { return std::abs(v); });
  // d|x| = sign(x), taken as 0 at exactly 0 (as relu's kink is)
  return record(out, "abs", {x}, [x = x.detach()](std::vector<Tensor>& d, const Tensor& dout) {
    d[0] = binary_map("abs backward", dout, x, [](auto g, auto v) { return v > 0 ? g : v < 0 ? -g : decltype(g)(0); });
  });
}

}  // namespace glass
