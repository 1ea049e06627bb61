// linear: x (..., in) @ W^T for W (out, in), as nn::Linear runs it.
// Equals matmul(x, transpose(W)) (fused.h); the two differences are speed:
// float32 multiplies by W^T packed once for the product kernel and reused
// while W is unchanged (PackedWeight), and the graph holds one node whose
// backward writes dW as (out, in) directly (as the transpose of x^T dout it
// would be a strided copy into the weight's gradient).
#include <string>

#include "glass/tensor/autograd.h"
#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"
#include "glass/tensor/fused/fused.h"
#include "glass/tensor/gemm.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/packed_weight.h"
#include "glass/tensor/strided.h"

namespace glass {

Tensor linear(const Tensor& x, const Tensor& weight, PackedWeight& packed) {
  if (weight.ndim() != 2)
    throw Error("linear: the weight must be (out, in), got shape " + to_string(weight.shape()));
  Tensor out;  // (..., out)
  {
    NoGradGuard values_only;  // linear records one node of its own below
    const bool fits = x.dtype() == weight.dtype() && x.ndim() >= 2 && x.shape().back() == weight.shape()[1];
    const kernels::PackedB<float>* pb = fits ? packed.transposed(weight) : nullptr;
    if (pb == nullptr) {
      out = matmul(x, transpose(weight));  // float64, or a shape matmul explains
    } else {
      // (..., in) -> (rows, in): the batch axes fold into rows, as in matmul
      const Tensor a = detail::contiguous_values(x);
      Shape out_shape = x.shape();
      out_shape.back() = pb->n;
      out = empty_like_shape(out_shape, x.dtype(), "linear");  // (..., out) can outgrow x: checked
      // rows: the product of x's leading axes (not numel / in, which divides by zero when in is 0)
      const int64_t rows = numel(Shape(x.shape().begin(), x.shape().end() - 1));
      kernels::gemm_packed<float>(rows, a.data<float>(), pb->k, 1, *pb, out.mutable_data<float>(), pb->n, false);
    }
  }
  return record(out, "linear", {x, weight},
                [x = x.detach(), w = weight.detach(), need_x = x.requires_grad(), need_w = weight.requires_grad()](
                    std::vector<Tensor>& d, const Tensor& dout) {
                  // dx = dout W; dW = dout^T x over all rows, computed as (out, in) directly
                  // (as the transpose of x^T dout it would be a strided copy to store)
                  if (need_x) d[0] = matmul(dout, w);  // (..., in)
                  if (need_w) {  // rows spelled out: a -1 cannot be inferred when in or out is 0
                    const int64_t rows = numel(Shape(x.shape().begin(), x.shape().end() - 1));
                    d[1] = matmul(transpose(reshape(dout, {rows, w.shape()[0]})), reshape(x, {rows, w.shape()[1]}));  // (out, in)
                  }
                });
}

Tensor linear(const Tensor& x, const Tensor& weight) {
  PackedWeight once;  // the backward rule does not hold on to it
  return linear(x, weight, once);
}

}  // namespace glass
