#include "glass/nn/rmsnorm.h"

#include <string>

#include "glass/nn/norm_checks.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

RMSNorm::RMSNorm(int64_t d, double eps, DType dtype) : d_(d), eps_(eps) {
  check_width("RMSNorm", d);
  check_eps("RMSNorm", eps);
  gamma_ = Tensor::ones({d}, dtype).set_requires_grad().set_name("gamma");
}

void RMSNorm::set_eps(double eps) {
  check_eps("RMSNorm::set_eps", eps);
  eps_ = eps;
}

void RMSNorm::set_gamma(const Tensor& gamma) {
  if (gamma.shape() != Shape{d_} || gamma.dtype() != gamma_.dtype())
    throw Error("RMSNorm::set_gamma: gamma must be " + std::string(dtype_name(gamma_.dtype())) + " " +
                to_string({d_}) + ", got " + describe(gamma));
  gamma_ = gamma.detach().clone().set_requires_grad().set_name("gamma");
}

Tensor RMSNorm::operator()(const Tensor& x) const {
  check_norm_input("RMSNorm", x, d_, gamma_.dtype());
  const Tensor ms = mean(square(x), -1, /*keepdim=*/true);  // (..., 1)
  const Tensor r = sqrt(ms + eps_);                          // (..., 1)
  return x / r * gamma_;                                     // (..., d)
}

void RMSNorm::visit(const std::string& prefix, const ParamVisitor& visit) { visit(prefix + "gamma", gamma_); }

}  // namespace glass::nn
