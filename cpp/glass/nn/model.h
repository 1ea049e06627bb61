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
#include "glass/nn/edits.h"
#include "glass/nn/norm.h"
#include "glass/nn/snapshots.h"

namespace glass::nn {

// How one forward pass runs beyond its input: which snapshots it records and
// what it changes for this run only (edits.h; never the weights).
struct ForwardOptions {
  bool record_snapshots = false;
  // Also record each block's attention weights as "blocks.i.attn.pattern" (B, h, n, n),
  // the softmax the layer mixes v with (needs record_snapshots).
  bool record_patterns = false;
  const Edits* edits = nullptr;
  // With record_snapshots: keep only the residual stream's snapshots
  // (Snapshots::stream(), no gradients), cheap enough for every training step.
  bool stream_only = false;
};

class Block {
 public:
  Block(const Config& cfg, Generator& gen);
  // x (B, n, d) -> (B, n, d). Records this block's snapshots under `prefix`
  // ("blocks.i.") if snapshots is not null; applies `edits` (this block's, and a
  // nudge of one of its snapshots) if not null.
  Tensor operator()(const Tensor& x, const Rope& rope, Snapshots* snapshots, const std::string& prefix,
                    bool record_patterns = false, const Edits* edits = nullptr, std::size_t index = 0) const;
  // The branch of sublayer `attn` (true) or the SwiGLU one (false) as a function of
  // the stream x entering it, norm and edits included, recording nothing:
  // F(Norm(x)) in a pre-norm block, F(x) without norms; its scale edit applied.
  // (The residual ledger differentiates it; post-norm blocks have no such branch.)
  Tensor branch(bool attn, const Tensor& x, const Rope& rope, const BlockEdits* edits) const;
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
    Edits edits;  // what the run changed (none for a plain run): the logit lens reads with the same
  };
  // ids: B rows of n bytes each, row-major; 1 <= n <= context.
  Output forward(std::span<const int32_t> ids, int64_t batch, bool record_snapshots = false) const;
  // Which snapshots a run keeps: none, all (each retaining its gradient), or
  // only the residual stream's (Snapshots::stream(), no gradients: cheap
  // enough for every training step).
  enum class Record { none, all, stream };
  Output forward(std::span<const int32_t> ids, int64_t batch, Record record) const;
  Output forward(std::span<const int32_t> ids, int64_t batch, const ForwardOptions& options) const;
  // What the model applies to the last stream to get logits: norm_final (pre-norm
  // only, with the edits' norm_final change) then the head. The logit lens applies
  // it to every depth.
  Tensor readout(const Tensor& stream, const Edits* edits = nullptr) const;

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
