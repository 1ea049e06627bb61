#pragma once
// The norm a block uses, of the kind its Config names: RMSNorm (gamma) or
// LayerNorm (gamma, beta). The model holds one per place a norm sits, and
// none where the config has no norms.
#include <string>
#include <variant>

#include "glass/nn/config.h"
#include "glass/nn/layernorm.h"
#include "glass/nn/rmsnorm.h"

namespace glass::nn {

class Norm {
 public:
  Norm(NormKind kind, int64_t d, double eps, DType dtype);

  Tensor operator()(const Tensor& x) const;  // (..., d) -> (..., d)
  NormKind kind() const { return std::holds_alternative<RMSNorm>(impl_) ? NormKind::rms : NormKind::layer; }
  double eps() const;
  void set_eps(double eps);
  Tensor& gamma();
  void visit(const std::string& prefix, const ParamVisitor& visit);

 private:
  std::variant<RMSNorm, LayerNorm> impl_;
};

}  // namespace glass::nn
