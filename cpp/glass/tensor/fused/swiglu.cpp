// SwiGLU's gate in one pass: swiglu(gate, up) = silu(gate) * up (fused.h).
// Composed, the forward writes silu(gate) and reads it back for the product,
// and the backward takes three passes (the product's two gradients, then
// silu's); here each direction is one pass, and the backward computes the
// sigmoid once for both gradients:
//   dup   = g * silu(gate)
//   dgate = silu_grad(g * up, gate)
// The same expressions as the composition (fast_math.h's sigmoid_of and
// silu_grad), so the same bits: the cli stage's golden hashes pin them.
#include <string>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/fast_math.h"
#include "glass/tensor/fused/fused.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/strided.h"
#include "glass/tensor/thread_pool.h"

namespace glass {

namespace {

// gate and up contiguous, of one shape and dtype
Tensor gate_forward(const Tensor& g, const Tensor& u) {
  Tensor out = empty_like_shape(g.shape(), g.dtype(), "swiglu");
  dispatch(g.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* pg = g.data<T>();
    const T* pu = u.data<T>();
    T* po = out.mutable_data<T>();
    detail::over_elements(out.numel(), [=](int64_t begin, int64_t end) GLASS_KERNEL {
      for (int64_t i = begin; i < end; ++i) {
        const T act = pg[i] * detail::sigmoid_of(pg[i]);  // silu(gate), rounded as silu's own output
        po[i] = act * pu[i];
      }
    });
  });
  return out;
}

// The two gradients from the upstream dout, in one pass (either may be
// skipped); gate and up contiguous.
void gate_backward(const Tensor& dout, const Tensor& gate, const Tensor& up, Tensor* dgate, Tensor* dup) {
  const Tensor d = detail::contiguous_values(dout);
  if (dgate != nullptr) *dgate = empty_like_shape(gate.shape(), gate.dtype(), "swiglu");
  if (dup != nullptr) *dup = empty_like_shape(gate.shape(), gate.dtype(), "swiglu");
  dispatch(gate.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* pd = d.data<T>();
    const T* pg = gate.data<T>();
    const T* pu = up.data<T>();
    T* dg = dgate != nullptr ? dgate->mutable_data<T>() : nullptr;
    T* du = dup != nullptr ? dup->mutable_data<T>() : nullptr;
    detail::over_elements(d.numel(), [=](int64_t begin, int64_t end) GLASS_KERNEL {
      if (dg != nullptr && du != nullptr)
        for (int64_t i = begin; i < end; ++i) {
          const T s = detail::sigmoid_of(pg[i]);  // one exp and one division for both
          du[i] = pd[i] * (pg[i] * s);
          dg[i] = detail::silu_grad_with(pd[i] * pu[i], pg[i], s);
        }
      else if (dg != nullptr)
        for (int64_t i = begin; i < end; ++i) dg[i] = detail::silu_grad(pd[i] * pu[i], pg[i]);
      else
        for (int64_t i = begin; i < end; ++i) du[i] = pd[i] * (pg[i] * detail::sigmoid_of(pg[i]));
    });
  });
}

}  // namespace

Tensor swiglu(const Tensor& gate, const Tensor& up) {
  if (gate.dtype() != up.dtype())
    throw Error("swiglu: dtypes differ: gate " + describe(gate) + " and up " + describe(up) +
                " (cast one explicitly with .to(...))");
  if (gate.shape() != up.shape())
    throw Error("swiglu: gate and up must have the same shape (one gate per hidden unit), got " +
                to_string(gate.shape()) + " and " + to_string(up.shape()));
  const Tensor g = detail::contiguous_values(gate), u = detail::contiguous_values(up);
  Tensor out = gate_forward(g, u);  // the shape of gate
  return record(out, "swiglu", {gate, up},
                [g = g.detach(), u = u.detach(), need_g = gate.requires_grad(), need_u = up.requires_grad()](
                    std::vector<Tensor>& d, const Tensor& dout) {
                  gate_backward(dout, g, u, need_g ? &d[0] : nullptr, need_u ? &d[1] : nullptr);
                });
}

}  // namespace glass
