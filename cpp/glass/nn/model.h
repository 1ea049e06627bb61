#pragma once
// The learner's model: a decoder over bytes, pre-norm by default.
//
//   X  = tok_emb(ids)                                  (B, n, d)   "embed"
//   for each block i:
//     H  = X + Attention(RMSNorm1(X))                             "blocks.i.resid.attn"
//     X' = H + SwiGLU(RMSNorm2(H))                                "blocks.i.resid.ffn"
//   logits = head(RMSNorm_final(X))                    (B, n, V)   "logits"
//   loss   = mean next-byte cross-entropy over the n - 1 predictions of each row
//
// The Config's variants (post-norm, no norms, LayerNorm, no residuals) change
// the block's formula and its snapshot and parameter names: docs/model.md,
// "Variants".
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "glass/nn/attention.h"
#include "glass/nn/config.h"
#include "glass/nn/norm.h"
#include "glass/nn/snapshots.h"

namespace glass::nn {

class Block {
 public:
  Block(const Config& cfg, Generator& gen);
  // x (B, n, d) -> (B, n, d). Records this block's snapshots under `prefix`
  // ("blocks.i.") if snapshots is not null.
  Tensor operator()(const Tensor& x, const Rope& rope, Snapshots* snapshots, const std::string& prefix) const;
  void visit(const std::string& prefix, const ParamVisitor& visit);

  std::optional<Norm> norm_attn;  // none when the config has no norms
  Attention attn;
  std::optional<Norm> norm_ffn;
  SwiGLU ffn;

 private:
  NormPlacement placement_;
  bool residual_;
};

// One row of the parameter table: computed by walking the model, never typed in.
struct ParamGroup {
  std::string kind;  // "embedding", "norm", "attention", "ffn" or "head"
  int64_t tensors = 0;
  int64_t params = 0;
};

class Model {
 public:
  explicit Model(const Config& cfg = {}, uint64_t seed = 0);

  struct Output {
    Tensor logits;  // (B, n, V)
    Tensor loss;    // () — undefined when n < 2 (nothing to predict)
    Snapshots snapshots;
  };
  // ids: B rows of n bytes each, row-major; 1 <= n <= context.
  Output forward(std::span<const int32_t> ids, int64_t batch, bool record_snapshots = false) const;
  // Which snapshots a run keeps: none, all (each retaining its gradient), or
  // only the residual stream's (Snapshots::stream(), no gradients: cheap
  // enough for every training step).
  enum class Record { none, all, stream };
  Output forward(std::span<const int32_t> ids, int64_t batch, Record record) const;

  // Parameters in docs/model.md's order and names.
  void visit(const ParamVisitor& visit);
  std::vector<std::pair<std::string, Tensor>> named_parameters();
  std::vector<ParamGroup> parameter_table();  // by kind, in the order each kind first appears in visit()
  int64_t parameter_count();
  int64_t block_parameter_count(int64_t block);
  int64_t norm_count();  // norms in the model (pre-norm: 2 per block + the final one)

  // eps of all norms at once (the page's model-wide slider).
  void set_eps(double eps);
  double eps() const { return cfg_.eps; }
  // Casts every parameter (float32 <-> float64); the same model in another dtype.
  void to(DType dtype);
  const Config& config() const { return cfg_; }
  // RoPE's tables for this model's head width, context and base (what every block uses).
  const Rope& rope() const { return rope_; }
  void zero_grad();

  Embedding tok_emb;
  std::vector<Block> blocks;
  std::optional<Norm> norm_final;  // pre-norm only: post-norm blocks end normalised
  Linear head;

 private:
  Model(const Config& cfg, Generator&& gen);

  Config cfg_;
  Rope rope_;
};

}  // namespace glass::nn
