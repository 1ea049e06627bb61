#pragma once
// Causal multi-head self-attention with RoPE on q and k and no biases.
// Head h uses rows h*k .. h*k+k-1 of wq/wk/wv's output; head outputs are
// concatenated in head order before wo.
#include <string>

#include "glass/nn/config.h"
#include "glass/nn/linear.h"
#include "glass/nn/rope.h"

namespace glass::nn {

class Attention {
 public:
  Attention(const Config& cfg, Generator& gen);
  // x (B, n, d) -> (B, n, d)
  Tensor operator()(const Tensor& x, const Rope& rope) const;
  void visit(const std::string& prefix, const ParamVisitor& visit);

  Linear wq, wk, wv, wo;  // each (d, d)

 private:
  int64_t heads_;
};

class SwiGLU {
 public:
  SwiGLU(const Config& cfg, Generator& gen);
  // w_down(silu(w_gate x) * w_up x): (B, n, d) -> (B, n, d) through hidden width
  Tensor operator()(const Tensor& x) const;
  void visit(const std::string& prefix, const ParamVisitor& visit);

  Linear w_gate, w_up;  // (hidden, d)
  Linear w_down;        // (d, hidden)
};

}  // namespace glass::nn
