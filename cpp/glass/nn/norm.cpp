#include "glass/nn/norm.h"

namespace glass::nn {

namespace {
std::variant<RMSNorm, LayerNorm> make(NormKind kind, int64_t d, double eps, DType dtype) {
  if (kind == NormKind::rms) return RMSNorm(d, eps, dtype);
  return LayerNorm(d, eps, dtype);
}
}  // namespace

Norm::Norm(NormKind kind, int64_t d, double eps, DType dtype) : impl_(make(kind, d, eps, dtype)) {}

Tensor Norm::operator()(const Tensor& x) const {
  return std::visit([&](const auto& n) { return n(x); }, impl_);
}
double Norm::eps() const {
  return std::visit([](const auto& n) { return n.eps(); }, impl_);
}
void Norm::set_eps(double eps) {
  std::visit([&](auto& n) { n.set_eps(eps); }, impl_);
}
Tensor& Norm::gamma() {
  return std::visit([](auto& n) -> Tensor& { return n.gamma(); }, impl_);
}
void Norm::visit(const std::string& prefix, const ParamVisitor& visit) {
  std::visit([&](auto& n) { n.visit(prefix, visit); }, impl_);
}

}  // namespace glass::nn
