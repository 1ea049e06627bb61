#pragma once
// RMSNorm (Zhang and Sennrich, 2019), along the last axis only:
//
//   r(x)       = sqrt(mean(x * x over the last axis) + eps)
//   RMSNorm(x) = gamma * x / r(x)
//
// It is written with Tensor ops only (square, mean, add eps, sqrt, divide,
// multiply by gamma) and has no backward rule of its own: autograd
// differentiates each step. That is the lesson, not a shortcut: the graph the
// app draws for RMSNorm is exactly these six nodes.
#include <string>

#include "glass/nn/module.h"
#include "glass/tensor/tensor.h"

namespace glass::nn {

class RMSNorm {
 public:
  // gamma (d,) starts at 1. eps must be finite and >= 0 (0 is allowed: the lab
  // shows what it does to the zero vector).
  explicit RMSNorm(int64_t d, double eps = 1e-6, DType dtype = DType::f32);

  // x (..., d) -> (..., d); every row (position, batch element) independently.
  Tensor operator()(const Tensor& x) const;

  double eps() const { return eps_; }
  void set_eps(double eps);  // same checks as the constructor
  int64_t dim() const { return d_; }
  DType dtype() const { return gamma_.dtype(); }
  Tensor& gamma() { return gamma_; }  // (d,)
  const Tensor& gamma() const { return gamma_; }
  // Replaces gamma; must be (d,) of this norm's dtype.
  void set_gamma(const Tensor& gamma);

  // Calls visit(prefix + "gamma", gamma): the one walk that names parameters
  // for safetensors, the inspector and the optimizer.
  void visit(const std::string& prefix, const ParamVisitor& visit);

 private:
  int64_t d_;
  double eps_;
  Tensor gamma_;  // (d,)
};

}  // namespace glass::nn
