#include "glass/nn/config.h"

#include <cmath>

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
}

}  // namespace glass::nn
