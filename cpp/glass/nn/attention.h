#pragma once
// Causal multi-head self-attention with RoPE on q and k and no biases.
// Head h uses rows h*k .. h*k+k-1 of wq/wk/wv's output; head outputs are
// concatenated in head order before wo.
#include <functional>
#include <string>
#include <vector>

#include "glass/nn/config.h"
#include "glass/nn/linear.h"
#include "glass/nn/rope.h"

namespace glass::nn {

// Every intermediate of one attention layer. The forward pass is parts().out,
// so what a lesson shows of attention is the model's own computation.
struct AttentionParts {
  Tensor q;        // (B, h, n, k) rope(x wq^T), head h in row h
  Tensor k;        // (B, h, n, k) rope(x wk^T)
  Tensor v;        // (B, h, n, k) x wv^T
  Tensor scores;   // (B, h, n, n) q.k / sqrt(k) on and below the diagonal; 0 above (never computed)
  Tensor weights;  // (B, h, n, n) causal softmax of each row: exactly 0 above the diagonal
  Tensor heads;    // (B, h, n, k) weights @ v, each head's output
  Tensor out;      // (B, n, d) the heads concatenated in head order, through wo
};

// What a run may change inside one attention layer (null: nothing).
struct AttentionEdit {
  const std::vector<bool>* ablated_heads = nullptr;  // heads whose output (before wo) is set to zero
  // Sees the softmax weights (B, h, n, n) and returns what the layer mixes v with:
  // how the model records them as a snapshot (and nudges them) without recomputing.
  std::function<Tensor(const Tensor&)> on_weights;
};

class Attention {
 public:
  Attention(const Config& cfg, Generator& gen);
  // x (B, n, d) -> (B, n, d): parts(x, rope).out bit for bit, in one op from
  // q, k, v to the heads that stores none of the (B, h, n, n) matrices but the weights
  Tensor operator()(const Tensor& x, const Rope& rope) const;
  AttentionParts parts(const Tensor& x, const Rope& rope, const AttentionEdit* edit = nullptr) const;
  void visit(const std::string& prefix, const ParamVisitor& visit);

  Linear wq, wk, wv, wo;  // each (d, d)

 private:
  AttentionParts projections(const Tensor& x, const Rope& rope) const;  // q, k, v only
  Tensor merge_heads(const Tensor& heads) const;
  int64_t heads_;
};

// Every intermediate of one feed-forward branch (the forward pass, operator(), stores only gate and up).
struct SwiGLUParts {
  Tensor gate;    // (B, n, hidden) x w_gate^T
  Tensor up;      // (B, n, hidden) x w_up^T
  Tensor act;     // (B, n, hidden) silu(gate)
  Tensor hidden;  // (B, n, hidden) act * up
  Tensor out;     // (B, n, d) hidden w_down^T
};

class SwiGLU {
 public:
  SwiGLU(const Config& cfg, Generator& gen);
  // w_down(silu(w_gate x) * w_up x): (B, n, d) -> (B, n, d) through hidden width; parts(x).out bit for bit
  Tensor operator()(const Tensor& x) const;
  SwiGLUParts parts(const Tensor& x) const;
  void visit(const std::string& prefix, const ParamVisitor& visit);

  Linear w_gate, w_up;  // (hidden, d)
  Linear w_down;        // (d, hidden)
};

}  // namespace glass::nn
