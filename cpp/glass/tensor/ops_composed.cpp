// Ops composed from primitives and fused kernels. They have no backward rule
// of their own: autograd differentiates what they are made of.
// (softmax and log_softmax are primitives, in ops_softmax.cpp: attention runs
// them on (B, h, n, n) scores, where one fused pass matters.)
#include <string>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass {

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
  // log p[target] at each position, averaged and negated
  return mean(pick(log_softmax(logits, -1), targets)) * -1.0;
}

}  // namespace glass
