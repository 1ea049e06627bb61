// softmax and log_softmax along one axis, as primitives with their own
// backward rules. Composed from max, sub, exp, sum and div they are exact too
// (tests/cpp/test_fused.cpp checks both ways agree), but attention applies
// softmax to (B, h, n, n) scores every step, and one fused pass (plus one for
// backward) replaces about twenty.
//
// Forward subtracts the row maximum first, so every exponent is <= 0 and
// nothing overflows; a row of -inf except one finite entry (a causal mask)
// gives a one-hot row.
//
// The same passes serve fused/causal_softmax.cpp, where line i of an
// (..., n, n) matrix takes part only up to column i (softmax_kernel.h).
//
// Backward, with y the saved output and g the upstream gradient:
//   softmax:      dx = y * (g - sum(g * y))
//   log_softmax:  dx = g - exp(y) * sum(g)
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/fast_math.h"
#include "glass/tensor/fused/causal_kernels.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/softmax_kernel.h"
#include "glass/tensor/strided.h"
#include "glass/tensor/thread_pool.h"

namespace glass {

namespace {

// Views contiguous x as (outer, len, inner) around `axis` and calls
// line(index, base, stride, len) for every line along the axis. Along the last
// axis the stride is the compile-time constant 1, so the line loops vectorise.
// Many lines are shared between threads in groups of a fixed size; each line
// is computed whole by one thread, so the thread count changes nothing.
template <class F>
void for_each_line(const Tensor& x, int axis, F&& line) {
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= x.shape()[i];
  for (int i = axis + 1; i < x.ndim(); ++i) inner *= x.shape()[i];
  const int64_t len = x.shape()[axis], lines = outer * inner;
  auto run = [&](int64_t begin, int64_t end) {
    for (int64_t l = begin; l < end; ++l) {
      if (inner == 1)
        line(l, l * len, std::integral_constant<int64_t, 1>{}, len);
      else
        line(l, l / inner * len * inner + l % inner, inner, len);
    }
  };
  // ~8K elements a group (grain_rows); below kParallelElements in all, one thread (waking another costs more)
  if (lines * len < detail::kParallelElements) {
    run(0, lines);
    return;
  }
  detail::parallel_ranges(lines, detail::grain_rows(len), run);
}

// Max and sum of a contiguous row with kLanes independent partials: one
// running max or sum is a chain the CPU cannot overlap (or vectorise).
constexpr int kLanes = 8;

template <class T>
T row_max(const T* x, int64_t n) {
  T m[kLanes];
  for (T& v : m) v = -std::numeric_limits<T>::infinity();
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes)
    for (int u = 0; u < kLanes; ++u) m[u] = x[j + u] > m[u] ? x[j + u] : m[u];  // a NaN never wins here ...
  for (; j < n; ++j) m[0] = x[j] > m[0] ? x[j] : m[0];
  T top = m[0];
  for (int u = 1; u < kLanes; ++u) top = m[u] > top ? m[u] : top;
  return top;  // ... it reaches the output through exp(NaN - top)
}

template <class T>
double row_sum(const T* x, int64_t n) {
  double s[kLanes] = {};
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes)
    for (int u = 0; u < kLanes; ++u) s[u] += x[j + u];
  for (; j < n; ++j) s[0] += x[j];
  double total = 0;
  for (double v : s) total += v;
  return total;
}

// sum(g * y) of contiguous rows, the products rounded to T as in one chain,
// summed in double over kLanes partials, as row_sum.
template <class T>
double row_dot(const T* g, const T* y, int64_t n) {
  double s[kLanes] = {};
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes)
    for (int u = 0; u < kLanes; ++u) s[u] += static_cast<T>(g[j + u] * y[j + u]);
  for (; j < n; ++j) s[0] += static_cast<T>(g[j] * y[j]);
  double total = 0;
  for (double v : s) total += v;
  return total;
}

// One line of length len (elements `stride` apart) from x into y, of which
// the first `valid` take part (the rest are masked: y = 0, or -inf for log).
// Lines along the last axis are contiguous and take the vectorised row helpers.
template <bool kLog, class T, class Stride>
void softmax_line(const T* x, T* y, int64_t len, int64_t valid, Stride stride) {
  constexpr bool kRow = std::is_same_v<Stride, std::integral_constant<int64_t, 1>>;
  T top;
  if constexpr (kRow) {
    top = row_max(x, valid);
  } else {
    top = -std::numeric_limits<T>::infinity();
    for (int64_t j = 0; j < valid; ++j) top = std::max(top, x[j * stride]);
  }
  if (!std::isfinite(top)) top = 0;  // all -inf (or +inf present): let the arithmetic say so
  // exponentials first, in their own loop, then their sum in double
  for (int64_t j = 0; j < valid; ++j) y[j * stride] = detail::exp_of(x[j * stride] - top);
  double total = 0;
  if constexpr (kRow) {
    total = row_sum(y, valid);
  } else {
    for (int64_t j = 0; j < valid; ++j) total += y[j * stride];
  }
  if constexpr (kLog) {
    const T log_total = static_cast<T>(std::log(total));
    for (int64_t j = 0; j < valid; ++j) y[j * stride] = x[j * stride] - top - log_total;
  } else {
    const T inv = static_cast<T>(1.0 / total);
    for (int64_t j = 0; j < valid; ++j) y[j * stride] *= inv;
  }
  const T masked = kLog ? -std::numeric_limits<T>::infinity() : T(0);
  for (int64_t j = valid; j < len; ++j) y[j * stride] = masked;
}

// How many entries of line `line` (counted along the rows of (..., n, n))
// take part: all of them, or for a causal softmax the row index + 1.
struct Visible {
  bool causal;
  int64_t operator()(int64_t line, int64_t len) const { return causal ? line % len + 1 : len; }
};

template <bool kLog>
Tensor softmax_forward(const Tensor& x_in, int axis, Visible visible) {
  const Tensor x = detail::contiguous_values(x_in);
  Tensor out = empty_like_shape(x.shape(), x.dtype());
  dispatch(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data<T>();
    T* py = out.mutable_data<T>();
    for_each_line(x, axis, [&](int64_t line, int64_t base, auto stride, int64_t len) {
      softmax_line<kLog>(px + base, py + base, len, visible(line, len), stride);
    });
  });
  return out;
}

// One line of the backward pass: dx from the saved output y and the upstream
// g, the first `valid` entries taking part (the rest get 0). pd may be pg:
// each entry of g is read before its dx is written.
template <bool kLog, class T, class Stride>
void softmax_backward_line(const T* py, const T* pg, T* pd, int64_t base, Stride stride, int64_t len, int64_t valid) {
  double dot = 0;  // softmax: sum(g * y); log_softmax: sum(g)
  constexpr bool kRow = std::is_same_v<Stride, std::integral_constant<int64_t, 1>>;
  if constexpr (kRow && std::is_same_v<T, float>) {
    // float32 rows in kLanes partials: one chain of double additions took
    // 4 cycles an element, never vectorised (causal softmax backward,
    // AVX2 build: 0.75 -> 0.56 ms on 16 x 4 x 128 x 128). The terms are
    // floats, so their sum in double is exact unless their magnitudes
    // span more than about 2^22 (53 bits less 24, less 7 for 128 terms),
    // and even then another order changes the float it rounds to only if
    // the sum lands within about 2^-53 of a rounding boundary: the same
    // float in practice (the cli stage's golden hashes pass). float64, the reference, keeps its single chain,
    // whose order its last bits depend on.
    dot = kLog ? row_sum(pg + base, valid) : row_dot(pg + base, py + base, valid);
  } else {
    for (int64_t j = 0; j < valid; ++j)
      dot += kLog ? pg[base + j * stride] : pg[base + j * stride] * py[base + j * stride];
  }
  const T s = static_cast<T>(dot);
  for (int64_t j = 0; j < valid; ++j) {
    const int64_t at = base + j * stride;
    pd[at] = kLog ? pg[at] - detail::exp_of(py[at]) * s : py[at] * (pg[at] - s);
  }
  for (int64_t j = valid; j < len; ++j) pd[base + j * stride] = T(0);
}

template <bool kLog>
Tensor softmax_backward(const Tensor& y, const Tensor& g_in, int axis, Visible visible) {
  const Tensor g = detail::contiguous_values(g_in);
  Tensor dx = empty_like_shape(y.shape(), y.dtype());
  dispatch(y.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* py = y.data<T>();
    const T* pg = g.data<T>();
    T* pd = dx.mutable_data<T>();
    for_each_line(y, axis, [&](int64_t line, int64_t base, auto stride, int64_t len) {
      // masked entries do not depend on x: gradient 0
      softmax_backward_line<kLog>(py, pg, pd, base, stride, len, visible(line, len));
    });
  });
  return dx;
}

template <bool kLog>
Tensor softmax_op(const char* op, const Tensor& x, int axis, Visible visible = {false}) {
  const int ax = normalize_axis(op, axis, x.shape());
  if (x.shape()[ax] == 0) throw Error(std::string(op) + ": axis " + std::to_string(axis) + " of shape " + to_string(x.shape()) + " is empty");
  Tensor out = softmax_forward<kLog>(x, ax, visible);
  return record(
      out, op, {x},
      [y = out.detach(), ax, visible](std::vector<Tensor>& d, const Tensor& dout) { d[0] = softmax_backward<kLog>(y, dout, ax, visible); },
      visible.causal ? std::string("causal") : "axis=" + std::to_string(axis));
}

}  // namespace

Tensor softmax(const Tensor& x, int axis) { return softmax_op<false>("softmax", x, axis); }
Tensor log_softmax(const Tensor& x, int axis) { return softmax_op<true>("log_softmax", x, axis); }

namespace detail {

template <class T> void causal_softmax_rows(const T* scores, T* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    softmax_line<false>(scores + i * n, y + i * n, n, i + 1, std::integral_constant<int64_t, 1>{});
}
template <class T> void causal_softmax_backward_rows(const T* y, const T* g, T* dx, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    softmax_backward_line<false>(y, g, dx, i * n, std::integral_constant<int64_t, 1>{}, n, i + 1);
}
template void causal_softmax_rows<float>(const float*, float*, int64_t);
template void causal_softmax_rows<double>(const double*, double*, int64_t);
template void causal_softmax_backward_rows<float>(const float*, const float*, float*, int64_t);
template void causal_softmax_backward_rows<double>(const double*, const double*, double*, int64_t);

Tensor softmax_recorded(const char* op, const Tensor& x, int axis, bool log, bool causal) {
  return log ? softmax_op<true>(op, x, axis, {causal}) : softmax_op<false>(op, x, axis, {causal});
}
}  // namespace detail

}  // namespace glass
