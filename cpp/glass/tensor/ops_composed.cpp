// Ops composed from primitives. They have no backward rule of their own:
// autograd differentiates the primitives they are made of.
#include <string>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass {

namespace {
// max along the axis, as a constant: subtracting it leaves softmax unchanged
// (so its gradient is not needed) but keeps every exponent <= 0.
Tensor stabilizer(const Tensor& x, int axis) {
  NoGradGuard no_grad;
  return max(x, axis, true);
}
}  // namespace

Tensor log_softmax(const Tensor& x, int axis) {
  normalize_axis("log_softmax", axis, x.shape());  // name this op, not the max inside it
  const Tensor shifted = x - stabilizer(x, axis);
  return shifted - log(sum(exp(shifted), axis, true));
}

Tensor softmax(const Tensor& x, int axis) {
  normalize_axis("softmax", axis, x.shape());
  const Tensor e = exp(x - stabilizer(x, axis));
  return e / sum(e, axis, true);
}

Tensor cross_entropy(const Tensor& logits, std::span<const int32_t> targets) {
  if (logits.ndim() < 1 || logits.numel() == 0)
    throw Error("cross_entropy: logits must be (..., V) with at least one position, got shape " +
                to_string(logits.shape()));
  const int64_t vocab = logits.shape().back();
  const Shape positions(logits.shape().begin(), logits.shape().end() - 1);
  if (static_cast<int64_t>(targets.size()) != numel(positions))
    throw Error("cross_entropy: " + std::to_string(targets.size()) + " targets for logits of shape " +
                to_string(logits.shape()) + " (expected one per position: " + std::to_string(numel(positions)) + ")");
  for (std::size_t i = 0; i < targets.size(); ++i)
    if (targets[i] < 0 || targets[i] >= vocab)
      throw Error("cross_entropy: target " + std::to_string(targets[i]) + " at position " + std::to_string(i) +
                  " is out of range for " + std::to_string(vocab) + " classes (logits shape " +
                  to_string(logits.shape()) + ")");
  // picks log p[target] at each position by a one-hot product
  const Tensor picked = log_softmax(logits, -1) * one_hot(targets, positions, vocab, logits.dtype());
  return sum(picked) * (-1.0 / static_cast<double>(targets.size()));
}

}  // namespace glass
