#include "glass/nn/attention.h"

#include <cmath>

#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

namespace {
// GPT-2's initialisation: 0.02, and the projections that write into the
// residual stream scaled down by sqrt(2 * blocks) so the stream's variance
// does not grow with depth (InitScale::flat leaves them at 0.02).
constexpr double kInitStd = 0.02;
double residual_std(const Config& cfg) {
  if (cfg.init_scale == InitScale::flat) return kInitStd;
  return kInitStd / std::sqrt(2.0 * static_cast<double>(cfg.blocks));
}

// q (B, h, n, k) / sqrt(k): scaling q before the product equals scaling the
// scores after it, on n/k times fewer numbers
Tensor scaled(const Tensor& q) { return q * (1.0 / std::sqrt(static_cast<double>(q.size(3)))); }

}  // namespace

Attention::Attention(const Config& cfg, Generator& gen)
    : wq(cfg.d, cfg.d, kInitStd, gen, cfg.dtype),
      wk(cfg.d, cfg.d, kInitStd, gen, cfg.dtype),
      wv(cfg.d, cfg.d, kInitStd, gen, cfg.dtype),
      wo(cfg.d, cfg.d, residual_std(cfg), gen, cfg.dtype),
      heads_(cfg.heads) {}

void Attention::visit(const std::string& prefix, const ParamVisitor& visit) {
  wq.visit(prefix + "wq.", visit);
  wk.visit(prefix + "wk.", visit);
  wv.visit(prefix + "wv.", visit);
  wo.visit(prefix + "wo.", visit);
}

// The same as parts(x, rope).out, bit for bit, as one op from q, k, v to the
// heads (causal_attention): no (B, h, n, n) matrix but the weights, which the
// backward needs, is stored. Training step 16 x 128: see causal_attention.cpp.
Tensor Attention::operator()(const Tensor& x, const Rope& rope) const {
  AttentionParts p = projections(x, rope);
  p.heads = causal_attention(scaled(p.q), p.k, p.v);  // (B, h, n, k)
  return merge_heads(p.heads);
}

AttentionParts Attention::projections(const Tensor& x, const Rope& rope) const {
  const int64_t B = x.size(0), n = x.size(1), d = x.size(2), k = d / heads_;
  // (B, n, d) -> (B, h, n, k): head h takes columns h*k .. h*k+k-1
  auto split_heads = [&](const Tensor& t) { return permute(reshape(t, {B, n, heads_, k}), {0, 2, 1, 3}); };
  AttentionParts p;
  p.q = rope(split_heads(wq(x)));  // (B, h, n, k)
  p.k = rope(split_heads(wk(x)));  // (B, h, n, k)
  p.v = split_heads(wv(x));        // (B, h, n, k)
  return p;
}

// (B, h, n, k) -> concat heads in order (B, n, d) -> wo
Tensor Attention::merge_heads(const Tensor& heads) const {
  const int64_t B = heads.size(0), n = heads.size(2), d = heads.size(1) * heads.size(3);
  return wo(reshape(permute(heads, {0, 2, 1, 3}), {B, n, d}));  // (B, n, d)
}

AttentionParts Attention::parts(const Tensor& x, const Rope& rope, const AttentionEdit* edit) const {
  AttentionParts p = projections(x, rope);
  // position i attends to j <= i only: scores above the diagonal are never computed (0),
  // weights there are exactly 0, and the products skip that half
  p.scores = causal_scores(scaled(p.q), p.k);  // (B, h, n, n)
  p.weights = causal_softmax(p.scores);                                            // (B, h, n, n), rows sum to 1
  if (edit && edit->on_weights) p.weights = edit->on_weights(p.weights);
  p.heads = causal_mix(p.weights, p.v);  // (B, h, n, k)
  if (edit && edit->ablated_heads && !edit->ablated_heads->empty()) {
    if (static_cast<int64_t>(edit->ablated_heads->size()) != heads_)
      throw Error("attention: " + std::to_string(edit->ablated_heads->size()) + " head flags for " +
                  std::to_string(heads_) + " heads");
    // a (1, h, 1, 1) mask of ones with 0 at each ablated head: their outputs become exactly 0
    std::vector<double> keep(static_cast<std::size_t>(heads_));
    for (int64_t h = 0; h < heads_; ++h) keep[h] = (*edit->ablated_heads)[h] ? 0.0 : 1.0;
    p.heads = p.heads * Tensor::from_vector(keep, {1, heads_, 1, 1}, p.heads.dtype());
  }
  p.out = merge_heads(p.heads);  // (B, n, d)
  return p;
}

SwiGLU::SwiGLU(const Config& cfg, Generator& gen)
    : w_gate(cfg.d, cfg.hidden, kInitStd, gen, cfg.dtype),
      w_up(cfg.d, cfg.hidden, kInitStd, gen, cfg.dtype),
      w_down(cfg.hidden, cfg.d, residual_std(cfg), gen, cfg.dtype) {}

void SwiGLU::visit(const std::string& prefix, const ParamVisitor& visit) {
  w_gate.visit(prefix + "w_gate.", visit);
  w_up.visit(prefix + "w_up.", visit);
  w_down.visit(prefix + "w_down.", visit);
}

// silu(gate) * up as one op: silu(gate) is never stored (swiglu in fused.h)
Tensor SwiGLU::operator()(const Tensor& x) const { return w_down(swiglu(w_gate(x), w_up(x))); }  // (B, n, d)

SwiGLUParts SwiGLU::parts(const Tensor& x) const {
  SwiGLUParts p;
  p.gate = w_gate(x);                // (B, n, hidden)
  p.up = w_up(x);                    // (B, n, hidden)
  p.act = silu(p.gate);              // (B, n, hidden), for display: hidden does not read it
  p.hidden = swiglu(p.gate, p.up);   // (B, n, hidden), act * up bit for bit
  p.out = w_down(p.hidden);          // (B, n, d)
  return p;
}

}  // namespace glass::nn
