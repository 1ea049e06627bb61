#include "glass/nn/rmsnorm.h"

#include <cmath>
#include <string>

#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

void check_eps(const char* where, double eps) {
  if (!std::isfinite(eps) || eps < 0)
    throw Error(std::string(where) + ": eps must be finite and >= 0, got " + format_scalar(eps));
}

RMSNorm::RMSNorm(int64_t d, double eps, DType dtype) : d_(d), eps_(eps) {
  if (d <= 0) throw Error("RMSNorm: width d must be positive, got " + std::to_string(d));
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
  if (x.ndim() < 1 || x.shape().back() != d_)
    throw Error("RMSNorm: input must be (..., " + std::to_string(d_) + "), got shape " + to_string(x.shape()));
  if (x.dtype() != gamma_.dtype())
    throw Error("RMSNorm: input is " + describe(x) + " but this norm is " + std::string(dtype_name(gamma_.dtype())) +
                " (cast the input with .to(...))");
  const Tensor ms = mean(square(x), -1, /*keepdim=*/true);  // (..., 1)
  const Tensor r = sqrt(ms + eps_);                          // (..., 1)
  return x / r * gamma_;                                     // (..., d)
}

void RMSNorm::visit(const std::string& prefix, const ParamVisitor& visit) { visit(prefix + "gamma", gamma_); }

}  // namespace glass::nn
