// causal_softmax: softmax along the last axis of (..., n, n) scores where row
// i sees only columns 0..i. Equals softmax(masked_fill(scores, above, -inf), -1)
// (fused.h), but never computes the masked half: no mask tensor, no fill pass,
// no exponentials of -inf, and a backward that skips the half too. The
// forward and backward passes are softmax's own (ops_softmax.cpp), told how
// much of each row takes part:
//   forward   y[i, j] = exp(s[i, j] - max) / sum over j' <= i,  0 for j > i
//   backward  ds[i, j] = y[i, j] * (g[i, j] - sum over j' <= i of g * y),  0 for j > i
#include "glass/tensor/error.h"
#include "glass/tensor/fused/fused.h"
#include "glass/tensor/softmax_kernel.h"

namespace glass {

Tensor causal_softmax(const Tensor& scores) {
  const Shape& s = scores.shape();
  if (s.size() < 2 || s[s.size() - 1] != s[s.size() - 2] || s.back() == 0)
    throw Error("causal_softmax: scores must end in two equal, non-empty axes (..., n, n), not " + to_string(s));
  return detail::softmax_recorded("causal_softmax", scores, -1, /*log=*/false, /*causal=*/true);
}

}  // namespace glass
