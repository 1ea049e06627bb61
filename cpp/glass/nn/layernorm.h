#pragma once
// LayerNorm (Ba, Kiros and Hinton, 2016), along the last axis only:
//
//   mu(x)        = mean(x over the last axis)
//   s(x)         = sqrt(mean((x - mu) * (x - mu) over the last axis) + eps)
//   LayerNorm(x) = gamma * (x - mu) / s(x) + beta
//
// Like RMSNorm it is written with Tensor ops only (mean, subtract, square,
// mean, add eps, sqrt, divide, multiply by gamma, add beta) and has no
// backward rule of its own: the graph the app can draw is these nine nodes.
// It differs from RMSNorm by the centring and by beta.
#include <string>

#include "glass/nn/module.h"
#include "glass/tensor/tensor.h"

namespace glass::nn {

class LayerNorm {
 public:
  // gamma (d,) starts at 1, beta (d,) at 0. eps must be finite and >= 0.
  explicit LayerNorm(int64_t d, double eps = 1e-6, DType dtype = DType::f32);

  // x (..., d) -> (..., d); every row independently.
  Tensor operator()(const Tensor& x) const;

  double eps() const { return eps_; }
  void set_eps(double eps);
  int64_t dim() const { return d_; }
  Tensor& gamma() { return gamma_; }
  Tensor& beta() { return beta_; }

  // visit(prefix + "gamma", gamma), then visit(prefix + "beta", beta).
  void visit(const std::string& prefix, const ParamVisitor& visit);

 private:
  int64_t d_;
  double eps_;
  Tensor gamma_;  // (d,)
  Tensor beta_;   // (d,)
};

}  // namespace glass::nn
