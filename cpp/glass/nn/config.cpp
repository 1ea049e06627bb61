#include "glass/nn/config.h"

#include <cmath>

#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"
#include "glass/tensor/shape.h"

namespace glass::nn {

std::string_view placement_name(NormPlacement p) {
  return p == NormPlacement::pre ? "pre" : p == NormPlacement::post ? "post" : "none";
}
std::string_view norm_kind_name(NormKind k) { return k == NormKind::rms ? "rms" : "layer"; }
std::string_view init_scale_name(InitScale s) { return s == InitScale::depth ? "depth" : "flat"; }

namespace {
[[noreturn]] void unknown(const char* what, std::string_view name, const char* allowed) {
  throw Error(std::string("Config: unknown ") + what + " \"" + std::string(name) + "\" (allowed: " + allowed + ")");
}
}  // namespace

NormPlacement parse_placement(std::string_view name) {
  if (name == "pre") return NormPlacement::pre;
  if (name == "post") return NormPlacement::post;
  if (name == "none") return NormPlacement::none;
  unknown("norm placement", name, "pre, post, none");
}

NormKind parse_norm_kind(std::string_view name) {
  if (name == "rms") return NormKind::rms;
  if (name == "layer") return NormKind::layer;
  unknown("norm kind", name, "rms, layer");
}

InitScale parse_init_scale(std::string_view name) {
  if (name == "depth") return InitScale::depth;
  if (name == "flat") return InitScale::flat;
  unknown("init scale", name, "depth, flat");
}

void Config::validate() const {
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw Error("Config: " + what);
  };
  auto in = [&](const char* field, int64_t v, Range r) {
    need(v >= r.min && v <= r.max, std::string(field) + " must be between " + std::to_string(r.min) + " and " +
                                       std::to_string(r.max) + ", got " + std::to_string(v));
  };
  in("vocab", vocab, kVocabRange);
  in("context", context, kContextRange);
  in("d", d, kDRange);
  in("blocks", blocks, kBlocksRange);
  need(heads > 0 && d % heads == 0, "heads must divide d: d = " + std::to_string(d) + ", heads = " + std::to_string(heads));
  need(head_dim() % 2 == 0, "head width d / heads must be even for RoPE, got " + std::to_string(head_dim()));
  in("hidden", hidden, kHiddenRange);
  need(std::isfinite(eps) && eps >= 0, "eps must be finite and >= 0, got " + format_scalar(eps));
  need(std::isfinite(rope_base) && rope_base > 1, "rope_base must be finite and > 1, got " + format_scalar(rope_base));
  // The sizes the model derives from these, checked so that building it (or
  // one full-context row through it) can neither overflow nor outgrow the
  // core's size limit (tensor/checked.h): an Error naming the size, never a
  // wrapped count.
  auto mul = [](int64_t a, int64_t b, const char* what) { return checked_mul("Config", a, b, what); };
  auto add = [](int64_t a, int64_t b, const char* what) { return checked_add("Config", a, b, what); };
  const int64_t table = mul(vocab, d, "the embedding (vocab x d)");
  const int64_t square = mul(d, d, "an attention weight (d x d)");
  const int64_t ffn = mul(d, hidden, "a SwiGLU weight (d x hidden)");
  mul(context, head_dim(), "the RoPE tables (context x head width)");
  mul(mul(heads, context, "the attention scores of one row (heads x context x context)"), context,
      "the attention scores of one row (heads x context x context)");
  mul(context, vocab, "the logits of one row (context x vocab)");
  mul(context, hidden, "the SwiGLU activations of one row (context x hidden)");
  // parameters: embedding and head, per block 4 d x d + 3 d x hidden + 2 d (norms), the final norm's d
  const int64_t per_block = add(add(mul(4, square, "a block's attention weights (4 x d x d)"),
                                    mul(3, ffn, "a block's SwiGLU weights (3 x d x hidden)"), "a block's weights"),
                                mul(2, d, "a block's norms (2 x d)"), "a block's parameters");
  add(add(mul(2, table, "the embedding and head (2 x vocab x d)"), mul(blocks, per_block, "the blocks' parameters"),
          "the parameter count"),
      d, "the parameter count");
}

}  // namespace glass::nn
