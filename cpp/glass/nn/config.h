#pragma once
// The model's configuration. The defaults are the model of docs/model.md; tests
// use tiny sizes (d = 16, one block, two heads) so finite differences stay fast.
// The variants (docs/model.md, "Variants") exist so a learner can test the
// lessons' claims about norms and residuals by training them side by side.
#include <cstdint>
#include <string>
#include <string_view>

#include "glass/tensor/dtype.h"

namespace glass::nn {

// Where each block's norms sit: before each branch (X + F(Norm(X)), today's
// model), after each residual sum (Norm(X + F(X)), the 2017 Transformer), or
// nowhere.
enum class NormPlacement { pre, post, none };
// RMSNorm (gamma) or LayerNorm (gamma and beta).
enum class NormKind { rms, layer };
// The init std of the projections that write into the stream (wo, w_down):
// 0.02 / sqrt(2 * blocks) (GPT-2's, "depth") or plain 0.02 ("flat").
enum class InitScale { depth, flat };

std::string_view placement_name(NormPlacement p);  // "pre", "post", "none"
std::string_view norm_kind_name(NormKind k);       // "rms", "layer"
std::string_view init_scale_name(InitScale s);     // "depth", "flat"
// Each refuses any other word with a glass::Error that quotes it and lists the allowed ones.
NormPlacement parse_placement(std::string_view name);
NormKind parse_norm_kind(std::string_view name);
InitScale parse_init_scale(std::string_view name);

// The allowed ranges (validate() and the CLI's flags both use them).
struct Range {
  int64_t min, max;
};
inline constexpr Range kVocabRange{2, 256};  // bytes; smaller only in tests
inline constexpr Range kContextRange{2, 256};
inline constexpr Range kDRange{16, 256};
inline constexpr Range kBlocksRange{1, 24};
inline constexpr Range kHiddenRange{1, 1024};

struct Config {
  int64_t vocab = 256;    // bytes
  int64_t context = 128;  // longest sequence the model accepts
  int64_t d = 128;        // residual stream width
  int64_t blocks = 4;
  int64_t heads = 4;      // head width k = d / heads
  int64_t hidden = 384;   // SwiGLU hidden width
  double eps = 1e-6;      // every norm
  double rope_base = 10000;
  NormPlacement norm = NormPlacement::pre;
  NormKind norm_kind = NormKind::rms;
  bool residual = true;
  InitScale init_scale = InitScale::depth;
  DType dtype = DType::f32;

  int64_t head_dim() const { return d / heads; }
  // Throws glass::Error naming the first field that is out of range and the
  // range it must be in.
  void validate() const;
  bool operator==(const Config&) const = default;
};

}  // namespace glass::nn
