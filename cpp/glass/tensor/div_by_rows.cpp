// Each row's two gradients by one thread, as the composition's row sums are
// taken (row_sum.h), so the bits are the composition's on any thread count.
// Built with -ffp-contract=off (CMakeLists.txt): the composition rounds each
// product da * out before it is summed, and a fused multiply-add would not.
#include "glass/tensor/div_by_rows.h"

#include "glass/tensor/fast_math.h"
#include "glass/tensor/row_sum.h"
#include "glass/tensor/strided.h"
#include "glass/tensor/thread_pool.h"

namespace glass::detail {

void div_by_rows_backward(const Tensor& dout, const Tensor& b, const Tensor& out, Tensor& da, Tensor& db) {
  const Tensor g = contiguous_values(dout), bc = contiguous_values(b), oc = contiguous_values(out);
  const int64_t len = g.shape().back(), rows = g.numel() / len;
  da = empty_like_shape(g.shape(), g.dtype());  // (..., len)
  db = empty_like_shape(b.shape(), b.dtype());  // (..., 1)
  dispatch(g.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* pg = g.data<T>();
    const T* pb = bc.data<T>();
    const T* po = oc.data<T>();
    T* pa = da.mutable_data<T>();
    T* pdb = db.mutable_data<T>();
    const auto body = [=](int64_t first, int64_t last) GLASS_KERNEL {
      for (int64_t i = first; i < last; ++i) {
        const T* gi = pg + i * len;
        const T* oi = po + i * len;
        T* ai = pa + i * len;
        const T bi = pb[i];
        for (int64_t j = 0; j < len; ++j) ai[j] = gi[j] / bi;
        pdb[i] = -static_cast<T>(row_sum(len, [=](int64_t j) { return T(ai[j] * oi[j]); }));
      }
    };
    if (g.numel() < kParallelElements)
      body(0, rows);
    else
      parallel_ranges(rows, grain_rows(len), body);
  });
}

}  // namespace glass::detail
