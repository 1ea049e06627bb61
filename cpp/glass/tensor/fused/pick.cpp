// pick: one entry per position, x (..., V) -> (...), out[i] = x[i, ids[i]].
// Equals sum(mul(x, one_hot(ids, positions, V)), -1) (fused.h) without the
// (..., V) one-hot and product: cross_entropy picks each position's
// log-probability of its target this way from (B, n, 256) logits.
#include <algorithm>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/fused/fused.h"
#include "glass/tensor/ids.h"
#include "glass/tensor/strided.h"
#include "glass/tensor/thread_pool.h"

namespace glass {

Tensor pick(const Tensor& x, std::span<const int32_t> ids) {
  if (x.ndim() < 1 || x.shape().back() == 0)
    throw Error("pick: input must be (..., V) with V > 0, got shape " + to_string(x.shape()));
  const int64_t classes = x.shape().back();
  const Shape positions(x.shape().begin(), x.shape().end() - 1);
  detail::check_ids("pick", ids, positions, classes, "classes of input " + to_string(x.shape()));
  const Tensor c = detail::contiguous_values(x);
  Tensor out = empty_like_shape(positions, x.dtype());
  dispatch(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = c.data<T>();
    T* o = out.mutable_data<T>();
    for (std::size_t i = 0; i < ids.size(); ++i) o[i] = px[static_cast<int64_t>(i) * classes + ids[i]];
  });
  // backward: each position's gradient goes to the one class it picked
  return record(out, "pick", {x},
                [ids = std::vector<int32_t>(ids.begin(), ids.end()), xs = x.shape(), classes](std::vector<Tensor>& d,
                                                                                               const Tensor& dout) {
                  const Tensor g = detail::contiguous_values(dout);
                  Tensor dx = empty_like_shape(xs, dout.dtype());
                  dispatch(dout.dtype(), [&](auto tag) {
                    using T = decltype(tag);
                    const T* pg = g.data<T>();
                    T* pd = dx.mutable_data<T>();
                    // each row zeroed and given its one entry by the thread that owns it
                    // (the logits' gradient, (B, n, 256): 2 MB for a 16 x 128 batch)
                    auto rows = [&](int64_t first, int64_t last) {
                      for (int64_t i = first; i < last; ++i) {
                        T* row = pd + i * classes;
                        std::fill(row, row + classes, T(0));
                        row[ids[static_cast<std::size_t>(i)]] = pg[i];
                      }
                    };
                    const int64_t n = static_cast<int64_t>(ids.size());
                    if (n * classes < detail::kParallelElements)
                      rows(0, n);
                    else
                      detail::parallel_ranges(n, detail::grain_rows(classes), rows);
                  });
                  d[0] = dx;
                });
}

}  // namespace glass
