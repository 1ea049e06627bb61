#include "glass/nn/edits.h"

#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

Tensor apply_norm(const Norm& norm, const Tensor& x, const NormEdit* edit) {
  if (!edit || !edit->any()) return norm(x);
  if (edit->identity) return x;
  // A copy shares the model's gamma (and beta) handles; replacing them or the
  // eps in the copy leaves the model's norm as it was.
  Norm edited = norm;
  if (edit->eps) edited.set_eps(*edit->eps);
  if (edit->unit_gamma) edited.gamma() = Tensor::ones(edited.gamma().shape(), x.dtype());
  return edited(x);
}

Tensor nudged(const Edits* edits, const std::string& name, const Tensor& t) {
  if (!edits || !edits->nudge || edits->nudge->name != name) return t;
  const Nudge& nd = *edits->nudge;
  if (nd.index < 0 || nd.index >= t.numel())
    throw Error("nudge: element " + std::to_string(nd.index) + " of \"" + name + "\" does not exist (it has " +
                std::to_string(t.numel()) + " elements, " + to_string(t.shape()) + ")");
  std::vector<double> bump(static_cast<std::size_t>(t.numel()), 0.0);
  bump[static_cast<std::size_t>(nd.index)] = nd.delta;
  return t + Tensor::from_vector(bump, t.shape(), t.dtype());
}

}  // namespace glass::nn
