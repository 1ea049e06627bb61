#include "glass/nn/layernorm.h"

#include "glass/nn/norm_checks.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

LayerNorm::LayerNorm(int64_t d, double eps, DType dtype) : d_(d), eps_(eps) {
  check_width("LayerNorm", d);
  check_eps("LayerNorm", eps);
  gamma_ = Tensor::ones({d}, dtype).set_requires_grad().set_name("gamma");
  beta_ = Tensor::zeros({d}, dtype).set_requires_grad().set_name("beta");
}

void LayerNorm::set_eps(double eps) {
  check_eps("LayerNorm::set_eps", eps);
  eps_ = eps;
}

Tensor LayerNorm::operator()(const Tensor& x) const {
  check_norm_input("LayerNorm", x, d_, gamma_.dtype());
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
