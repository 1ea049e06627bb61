#include "glass/nn/layernorm.h"

#include "glass/nn/rmsnorm.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

LayerNorm::LayerNorm(int64_t d, double eps, DType dtype) : d_(d), eps_(eps) {
  if (d <= 0) throw Error("LayerNorm: width d must be positive, got " + std::to_string(d));
  check_eps("LayerNorm", eps);
  gamma_ = Tensor::ones({d}, dtype).set_requires_grad().set_name("gamma");
  beta_ = Tensor::zeros({d}, dtype).set_requires_grad().set_name("beta");
}

void LayerNorm::set_eps(double eps) {
  check_eps("LayerNorm::set_eps", eps);
  eps_ = eps;
}

Tensor LayerNorm::operator()(const Tensor& x) const {
  if (x.ndim() < 1 || x.shape().back() != d_)
    throw Error("LayerNorm: input must be (..., " + std::to_string(d_) + "), got shape " + to_string(x.shape()));
  if (x.dtype() != gamma_.dtype())
    throw Error("LayerNorm: input is " + describe(x) + " but this norm is " + std::string(dtype_name(gamma_.dtype())) +
                " (cast the input with .to(...))");
  const Tensor mu = mean(x, -1, /*keepdim=*/true);           // (..., 1)
  const Tensor c = x - mu;                                    // (..., d)
  const Tensor var = mean(square(c), -1, /*keepdim=*/true);  // (..., 1), the biased variance
  const Tensor s = sqrt(var + eps_);                          // (..., 1)
  return c / s * gamma_ + beta_;                              // (..., d)
}

void LayerNorm::visit(const std::string& prefix, const ParamVisitor& visit) {
  visit(prefix + "gamma", gamma_);
  visit(prefix + "beta", beta_);
}

}  // namespace glass::nn
