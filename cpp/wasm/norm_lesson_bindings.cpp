// Embind bindings the RMSNorm lesson needs and the rest of the page does not:
//   layernormOf(x, eps)                 the core's nn::LayerNorm (the "layer" variant's
//                                       norm, gamma = 1, beta = 0) applied to x, so the
//                                       lesson records its graph next to RMSNorm's and
//                                       counts their operations from the core;
//   freshWeightsLike(session, scale, seed)
//                                       a model just initialised (as `glassllm train`
//                                       does) with the loaded model's configuration but
//                                       the given init scale ("depth" or "flat"), as a
//                                       safetensors file, so the lesson can measure the
//                                       stream at step 0 with and without the scaling.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

#include "glass/io/model_weights.h"
#include "glass/nn/config.h"
#include "glass/nn/layernorm.h"
#include "glass/nn/model.h"
#include "glass/tensor/tensor.h"
#include "marshal.h"
#include "model_session.h"

namespace glass::wasm {
namespace {

using emscripten::val;

// The graph it returns holds gamma and beta as leaves, so they live as long as the result.
Tensor layernorm_of(const Tensor& x, val eps) {
  const double e = number_from("layernorm eps", eps);
  const int64_t d = x.ndim() == 0 ? 0 : x.shape().back();
  const nn::LayerNorm norm(d, e, x.dtype());
  return norm(x);
}

val fresh_weights_like(ModelSession& s, std::string init_scale, val seed) {
  nn::Config cfg = model_of(s).config();
  cfg.init_scale = nn::parse_init_scale(init_scale);
  const double sd = number_from("freshWeightsLike seed", seed);
  if (!(sd >= 0 && sd <= 9007199254740991.0 && sd == static_cast<double>(static_cast<int64_t>(sd))))
    throw Error("freshWeightsLike: the seed must be a whole number from 0 to 2^53 - 1");
  nn::Model model(cfg, static_cast<uint64_t>(sd));
  const std::vector<uint8_t> bytes = io::save_weights(model);
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data()));
}

}  // namespace
}  // namespace glass::wasm

EMSCRIPTEN_BINDINGS(glass_norm_lesson) {
  using namespace glass::wasm;
  emscripten::function("layernormOf", guard<&layernorm_of>);
  emscripten::function("freshWeightsLike", guard<&fresh_weights_like>);
}
