#include "glass/nn/gradient_check.h"

#include <cmath>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

namespace {

// x + delta at element `index`, by the same core add the forward's nudge uses (so rounding matches).
Tensor bumped(const Tensor& x, int64_t index, double delta) {
  std::vector<double> bump(static_cast<std::size_t>(x.numel()), 0.0);
  bump[static_cast<std::size_t>(index)] = delta;
  NoGradGuard no_grad;
  return (x.detach() + Tensor::from_vector(bump, x.shape(), x.dtype())).contiguous();
}

double element(const Tensor& x, int64_t index) { return x.contiguous().to_vector()[static_cast<std::size_t>(index)]; }

}  // namespace

GradientCheck gradient_check(const Model& model, std::span<const int32_t> ids, const std::string& target, int64_t index,
                             double delta, DType dtype, const Edits* edits) {
  if (!std::isfinite(delta) || delta <= 0)
    throw Error("gradient check: delta must be a finite number > 0, got " + format_scalar(delta));
  if (ids.size() < 2) throw Error("gradient check: the text needs at least 2 bytes (the loss predicts each next byte)");
  // A copy in the asked dtype with parameters of its own (sharing storage until cast).
  Model m = model;
  m.visit([](const std::string&, Tensor& p) { p = p.detach().set_requires_grad(); });
  m.to(dtype);
  Tensor* param = nullptr;
  m.visit([&](const std::string& name, Tensor& p) {
    if (name == target) param = &p;
  });

  GradientCheck out;
  out.target = target;
  out.parameter = param != nullptr;
  out.index = index;
  out.dtype = dtype;
  out.delta = delta;
  const bool pattern = target.ends_with(".attn.pattern");
  ForwardOptions opts{.record_snapshots = true, .record_patterns = pattern, .edits = edits};
  Model::Output run = m.forward(ids, 1, opts);
  run.loss.backward();
  out.loss = run.loss.item();
  std::string snapshot;  // the docs/model.md name the nudge must use
  Tensor x, g;
  if (param) {
    x = *param;
    g = param->grad();
  } else {
    if (!run.snapshots.has(target)) {
      std::string params;
      m.visit([&](const std::string& name, Tensor&) { params += (params.empty() ? "" : ", ") + name; });
      std::string snaps;
      for (const auto& [name, t] : run.snapshots.items()) snaps += (snaps.empty() ? "" : ", ") + name;
      throw Error("gradient check: \"" + target + "\" is neither a snapshot nor a parameter; snapshots: " + snaps +
                  (pattern ? "" : " (and blocks.{i}.attn.pattern)") + "; parameters: " + params);
    }
    snapshot = run.snapshots.resolve(target);
    x = run.snapshots.get(snapshot);
    g = x.grad();
  }
  if (index < 0 || index >= x.numel())
    throw Error("gradient check: element " + std::to_string(index) + " of \"" + target + "\" does not exist (it has " +
                std::to_string(x.numel()) + " elements, shape " + to_string(x.shape()) + ")");
  out.value = element(x, index);
  out.grad = g.defined() ? element(g, index) : 0.0;  // no gradient: the loss does not depend on it
  out.predicted = out.grad * delta;
  out.applied_delta = (element(bumped(x, index, delta), index) - element(bumped(x, index, -delta), index)) / 2;

  NoGradGuard no_grad;
  auto loss_at = [&](double d) {
    if (param) {
      const Tensor original = *param;
      *param = bumped(original, index, d);
      const double l = m.forward(ids, 1, ForwardOptions{.record_snapshots = false, .record_patterns = false, .edits = edits}).loss.item();
      *param = original;
      return l;
    }
    Edits e = edits ? *edits : Edits{};
    e.nudge = Nudge{snapshot, index, d};
    return m.forward(ids, 1, ForwardOptions{.record_snapshots = false, .record_patterns = false, .edits = &e}).loss.item();
  };
  out.loss_plus = loss_at(delta);
  out.loss_minus = loss_at(-delta);
  out.actual = (out.loss_plus - out.loss_minus) / 2;
  return out;
}

}  // namespace glass::nn
