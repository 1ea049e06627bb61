// RoPE's rotation in one pass: rope(x, cos, sin) = x * cos + rotate_half(x) * sin
// (fused.h). Composed, a call reads x four times and writes four tensors of
// its size (a copy of the strided head view for the rotation, two products,
// their sum), and its backward as many; here each direction is one pass that
// reads x through its strides. Inside a head of width k, coordinate j pairs
// with j + h (h = k/2):
//   out[j]   = x[j] cos[j]     - x[j+h] sin[j]
//   out[j+h] = x[j+h] cos[j+h] + x[j] sin[j+h]
// and the gradient is the transposed rotation of the upstream g:
//   dx[j]    = g[j] cos[j]     + g[j+h] sin[j+h]
//   dx[j+h]  = g[j+h] cos[j+h] - g[j] sin[j]
// Each output is a rounded product added to another rounded product, as the
// composition computes it, so the bits are the composition's (the cli stage's
// golden hashes pin them). That needs every product rounded on its own: this
// file is compiled with -ffp-contract=off (CMakeLists.txt), since g++ would
// otherwise fuse one product and the sum into a multiply-add, rounded once.
#include <array>
#include <string>
#include <type_traits>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/fused/fused.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/strided.h"
#include "glass/tensor/thread_pool.h"

namespace glass {

namespace {

enum class Turn { forward, inverse };

// One row of k = 2h: o from in (stride `step` along the row, a compile-time 1
// in the common case) and the tables' rows c, s. __restrict: without it g++
// gives up on the alias checks these five pointers need and stays scalar.
template <class T, class Step>
void rotate_row(Turn turn, int64_t h, const T* __restrict in, Step step, const T* __restrict c,
                const T* __restrict s, T* __restrict o) {
  if (turn == Turn::forward)
    for (int64_t j = 0; j < h; ++j) {
      const T a = in[j * step], b = in[(j + h) * step];
      o[j] = a * c[j] - b * s[j];
      o[j + h] = b * c[j + h] + a * s[j + h];
    }
  else
    for (int64_t j = 0; j < h; ++j) {
      const T a = in[j * step], b = in[(j + h) * step];
      o[j] = a * c[j] + b * s[j + h];
      o[j + h] = b * c[j + h] - a * s[j];
    }
}

// out (..., n, k), row-major, from x (..., n, k) read through its strides;
// c and s (n, k) contiguous: row r of x stands at position r % n.
template <class T> void rotate_rows(const Tensor& x, const Tensor& c, const Tensor& s, Turn turn, Tensor& out) {
  const int64_t k = x.size(-1), h = k / 2, n = x.size(-2);
  const T* const px = x.impl()->storage->data<T>();
  const T* const pc = c.data<T>();
  const T* const ps = s.data<T>();
  T* const po = out.mutable_data<T>();
  const std::array<Strides, 1> strides{x.strides()};  // once, not a copy (a malloc) per chunk
  auto rows_of = [&](int64_t first, int64_t last) {
    int64_t r = first;
    detail::for_each_row_range<1>(x.shape(), strides, {x.offset()}, first, last,
                                  [&](auto off, int64_t, auto st) {
                                    const int64_t at = r % n * k;
                                    if (st[0] == 1)
                                      rotate_row(turn, h, px + off[0], std::integral_constant<int64_t, 1>{}, pc + at,
                                                 ps + at, po + r * k);
                                    else
                                      rotate_row(turn, h, px + off[0], st[0], pc + at, ps + at, po + r * k);
                                    ++r;
                                  });
  };
  const int64_t rows = x.numel() / k;
  if (x.numel() < detail::kParallelElements)
    rows_of(0, rows);
  else
    detail::parallel_ranges(rows, detail::grain_rows(k), rows_of);
}

Tensor rotate(const Tensor& x, const Tensor& c, const Tensor& s, Turn turn) {
  Tensor out = empty_like_shape(x.shape(), x.dtype(), "rope");
  if (x.numel() == 0) return out;
  dispatch(x.dtype(), [&](auto tag) { rotate_rows<decltype(tag)>(x, c, s, turn, out); });
  return out;
}

void check_rope(const Tensor& x, const Tensor& cos, const Tensor& sin) {
  if (x.ndim() < 2)
    throw Error("rope: x needs a positions axis and a head axis (..., n, k), got shape " + to_string(x.shape()));
  const int64_t n = x.size(-2), k = x.size(-1);
  if (k % 2 != 0)
    throw Error("rope: the head axis pairs coordinate j with j + k/2, so its size k must be even, got x of shape " +
                to_string(x.shape()));
  const Shape table{n, k};
  if (cos.shape() != table || sin.shape() != table)
    throw Error("rope: cos and sin must be (n, k) = " + to_string(table) + " for x of shape " + to_string(x.shape()) +
                ", got cos " + to_string(cos.shape()) + " and sin " + to_string(sin.shape()));
  if (cos.dtype() != x.dtype() || sin.dtype() != x.dtype())
    throw Error("rope: dtypes differ: x " + describe(x) + ", cos " + describe(cos) + ", sin " + describe(sin) +
                " (cast explicitly with .to(...))");
}

}  // namespace

Tensor rope(const Tensor& x, const Tensor& cos, const Tensor& sin) {
  check_rope(x, cos, sin);
  const Tensor c = detail::contiguous_values(cos), s = detail::contiguous_values(sin);  // (n, k)
  Tensor out = rotate(x, c, s, Turn::forward);                                         // (..., n, k)
  const bool need_c = cos.requires_grad(), need_s = sin.requires_grad();
  return record(out, "rope", {x, cos, sin},
                [c = c.detach(), s = s.detach(), x = need_c || need_s ? x.detach() : Tensor(),
                 need_x = x.requires_grad(), need_c, need_s](std::vector<Tensor>& d, const Tensor& dout) {
                  if (need_x) d[0] = rotate(dout, c, s, Turn::inverse);
                  // the tables' gradients, rarely wanted (the model's are constants): composed
                  if (need_c) d[1] = sum_to(mul(dout, x), c.shape());
                  if (need_s) d[2] = sum_to(mul(dout, rotate_half(x)), s.shape());
                });
}

}  // namespace glass
