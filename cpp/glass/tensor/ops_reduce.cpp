// Reductions. A reduction over an axis views the contiguous input as
// (outer, len, inner) and reduces the middle; its backward broadcasts the
// upstream gradient back over the reduced axis.
#include <algorithm>
#include <cmath>
#include <string>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/row_sum.h"
#include "glass/tensor/strided.h"
#include "glass/tensor/thread_pool.h"

namespace glass {

namespace {

struct AxisSplit {
  int64_t outer = 1, len = 1, inner = 1;
  Shape out_shape;   // without the axis, or with size 1 if keepdim
  Shape keep_shape;  // always with size 1: the shape to broadcast gradients from
};

AxisSplit split_axis(const Tensor& x, int axis, bool keepdim) {
  AxisSplit s;
  for (int i = 0; i < x.ndim(); ++i) {
    const int64_t n = x.shape()[i];
    if (i < axis) s.outer *= n;
    if (i == axis) s.len = n;
    if (i > axis) s.inner *= n;
    if (i != axis || keepdim) s.out_shape.push_back(i == axis ? 1 : n);
    s.keep_shape.push_back(i == axis ? 1 : n);
  }
  return s;
}

void check_nonempty(const char* op, const Tensor& x, int64_t len) {
  if (len == 0) throw Error(std::string(op) + ": cannot reduce an empty axis (input shape " + to_string(x.shape()) + ")");
}

std::string axis_detail(int axis, bool keepdim) {
  return "axis=" + std::to_string(axis) + (keepdim ? ", keepdim" : "");
}

// Sum over the axis, scaled by `scale` (1 for sum, 1/len for mean).
Tensor sum_axis(const Tensor& x, const AxisSplit& s, double scale) {
  const Tensor c = detail::contiguous_values(x);
  Tensor out = empty_like_shape(s.out_shape, x.dtype());
  dispatch(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = c.data<T>();
    T* o = out.mutable_data<T>();
    // accumulate in double: the core is a reference, accuracy first. Large
    // reductions are shared between threads by outputs (rows, or blocks of
    // columns), never by the axis summed over: each sum keeps its order.
    const bool parallel = s.outer * s.len * s.inner >= detail::kParallelElements;
    if (s.inner == 1) {  // reducing contiguous rows (the last axis): four chains for the FPU
      auto rows = [&](int64_t first, int64_t last) {
        for (int64_t a = first; a < last; ++a) {
          const T* row = p + a * s.len;
          o[a] = static_cast<T>(detail::row_sum(s.len, [row](int64_t j) { return row[j]; }) * scale);
        }
      };
      if (parallel)
        detail::parallel_ranges(s.outer, detail::grain_rows(s.len), rows);
      else
        rows(0, s.outer);
      return;
    }
    // columns i0 .. i0 + kColumns of outer slice a: one chunk
    constexpr int64_t kColumns = 256;
    const int64_t blocks = (s.inner + kColumns - 1) / kColumns;
    auto chunk = [&](int64_t c) {
      const int64_t a = c / blocks, i0 = c % blocks * kColumns, w = std::min(kColumns, s.inner - i0);
      double acc[kColumns] = {};
      for (int64_t j = 0; j < s.len; ++j) {
        const T* row = p + (a * s.len + j) * s.inner + i0;
        for (int64_t i = 0; i < w; ++i) acc[i] += row[i];
      }
      for (int64_t i = 0; i < w; ++i) o[a * s.inner + i0 + i] = static_cast<T>(acc[i] * scale);
    };
    if (parallel) {
      detail::parallel_for(s.outer * blocks, chunk);
    } else {
      for (int64_t c = 0; c < s.outer * blocks; ++c) chunk(c);
    }
  });
  return out;
}

Tensor reduce_sum(const char* op, const Tensor& x, int axis, bool keepdim, bool average) {
  const int ax = normalize_axis(op, axis, x.shape());
  const AxisSplit s = split_axis(x, ax, keepdim);
  if (average) check_nonempty(op, x, s.len);
  const double scale = average ? 1.0 / static_cast<double>(s.len) : 1.0;
  Tensor out = sum_axis(x, s, scale);
  return record(
      out, op, {x},
      [keep = s.keep_shape, xs = x.shape(), scale](std::vector<Tensor>& d, const Tensor& dout) {
        // scaled before it is broadcast: the same products, on the reduced shape
        // only, and the gradient stays a view (RMSNorm's mean: one pass less)
        d[0] = broadcast_to(reshape(scale == 1.0 ? dout : mul(dout, scale), keep), xs);
      },
      axis_detail(axis, keepdim));
}

Tensor reduce_all(const char* op, const Tensor& x, bool average) {
  if (average) check_nonempty(op, x, x.numel());
  const Tensor flat = reshape(x.detach(), {x.numel()});
  const double scale = average ? 1.0 / static_cast<double>(x.numel()) : 1.0;
  Tensor out = reshape(sum_axis(flat, split_axis(flat, 0, false), scale), {});
  return record(out, op, {x}, [xs = x.shape(), scale](std::vector<Tensor>& d, const Tensor& dout) {
    d[0] = broadcast_to(scale == 1.0 ? dout : mul(dout, scale), xs);
  });
}

// Max over the axis; also returns, per output element, the index along the
// axis that won, which is where backward sends the gradient.
Tensor max_axis(const Tensor& x, const AxisSplit& s, std::vector<int64_t>& winner) {
  const Tensor c = detail::contiguous_values(x);
  Tensor out = empty_like_shape(s.out_shape, x.dtype());
  winner.assign(static_cast<std::size_t>(s.outer * s.inner), 0);
  dispatch(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = c.data<T>();
    T* o = out.mutable_data<T>();
    for (int64_t a = 0; a < s.outer; ++a)
      for (int64_t i = 0; i < s.inner; ++i) {
        const T* col = p + a * s.len * s.inner + i;
        T best = col[0];
        int64_t arg = 0;
        for (int64_t j = 1; j < s.len && !std::isnan(best); ++j) {
          const T v = col[j * s.inner];
          if (v > best || std::isnan(v)) best = v, arg = j;  // NaN wins and sticks, as in numpy
        }
        o[a * s.inner + i] = best;
        winner[a * s.inner + i] = arg;
      }
  });
  return out;
}

Tensor reduce_max(const Tensor& x, int ax, bool keepdim, std::string detail) {
  const AxisSplit s = split_axis(x, ax, keepdim);
  check_nonempty("max", x, s.len);
  std::vector<int64_t> winner;
  Tensor out = max_axis(x, s, winner);
  return record(
      out, "max", {x},
      [s, winner = std::move(winner), xs = x.shape()](std::vector<Tensor>& d, const Tensor& dout) {
        const Tensor g = detail::contiguous_values(dout);
        Tensor dx = Tensor::zeros(xs, dout.dtype());
        dispatch(dout.dtype(), [&](auto tag) {
          using T = decltype(tag);
          const T* pg = g.data<T>();
          T* pd = dx.mutable_data<T>();
          for (int64_t a = 0; a < s.outer; ++a)
            for (int64_t i = 0; i < s.inner; ++i)
              pd[(a * s.len + winner[a * s.inner + i]) * s.inner + i] = pg[a * s.inner + i];
        });
        d[0] = dx;
      },
      std::move(detail));
}

}  // namespace

Tensor sum(const Tensor& x) { return reduce_all("sum", x, false); }
Tensor sum(const Tensor& x, int axis, bool keepdim) { return reduce_sum("sum", x, axis, keepdim, false); }
Tensor mean(const Tensor& x) { return reduce_all("mean", x, true); }
Tensor mean(const Tensor& x, int axis, bool keepdim) { return reduce_sum("mean", x, axis, keepdim, true); }

Tensor max(const Tensor& x) {
  if (x.numel() == 0) throw Error("max: cannot reduce an empty tensor (shape " + to_string(x.shape()) + ")");
  return reshape(reduce_max(reshape(x, {x.numel()}), 0, false, ""), {});
}
Tensor max(const Tensor& x, int axis, bool keepdim) {
  return reduce_max(x, normalize_axis("max", axis, x.shape()), keepdim, axis_detail(axis, keepdim));
}

Tensor sum_to(const Tensor& x, const Shape& shape) {
  if (x.shape() == shape) return x;
  const int lead = x.ndim() - static_cast<int>(shape.size());
  bool ok = lead >= 0;
  for (std::size_t i = 0; ok && i < shape.size(); ++i)
    ok = shape[i] == x.shape()[lead + i] || shape[i] == 1;
  if (!ok) throw Error("sum_to: cannot reduce shape " + to_string(x.shape()) + " to " + to_string(shape));
  // A leading axis of size 1 is reshaped away, not summed: its sum is its one
  // value, exactly, and summing would copy the whole gradient (RMSNorm's gain
  // on a batch of one, in every norm of the page's run).
  int ones = 0;
  while (ones < lead && x.shape()[ones] == 1) ++ones;
  Tensor r = ones == 0 ? x : reshape(x, Shape(x.shape().begin() + ones, x.shape().end()));
  for (int i = ones; i < lead; ++i) r = sum(r, 0, false);
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (shape[i] == 1 && r.shape()[i] != 1) r = sum(r, static_cast<int>(i), true);
  return r;
}

}  // namespace glass
