#include "glass/nn/config.h"

#include <cmath>

#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"

namespace glass::nn {

void Config::validate() const {
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw Error("Config: " + what);
  };
  need(vocab > 0, "vocab must be positive, got " + std::to_string(vocab));
  need(context > 1, "context must be at least 2, got " + std::to_string(context));
  need(d > 0, "d must be positive, got " + std::to_string(d));
  need(blocks > 0, "blocks must be positive, got " + std::to_string(blocks));
  need(heads > 0 && d % heads == 0, "heads must divide d: d = " + std::to_string(d) + ", heads = " + std::to_string(heads));
  need(head_dim() % 2 == 0, "head width d / heads must be even for RoPE, got " + std::to_string(head_dim()));
  need(hidden > 0, "hidden must be positive, got " + std::to_string(hidden));
  need(std::isfinite(eps) && eps >= 0, "eps must be finite and >= 0");
  need(std::isfinite(rope_base) && rope_base > 1, "rope_base must be finite and > 1");
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
