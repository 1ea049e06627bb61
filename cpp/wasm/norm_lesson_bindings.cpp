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
//                                       stream at step 0 with and without the scaling;
//   freshStream(session, scale, seed, text)
//                                       the same fresh model run forward on text, without
//                                       leaving the core: the stream's RMS by depth and the
//                                       std of the output projections (wo, w_down), in
//                                       float64 sums (fast enough for a lesson step's checks).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "glass/io/bytes.h"
#include "glass/io/model_weights.h"
#include "glass/nn/config.h"
#include "glass/nn/layernorm.h"
#include "glass/nn/model.h"
#include "glass/tensor/autograd.h"
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

nn::Model fresh_model(ModelSession& s, const std::string& init_scale, const val& seed, const char* op) {
  nn::Config cfg = model_of(s).config();
  cfg.init_scale = nn::parse_init_scale(init_scale);
  const double sd = number_from(op, seed);
  if (!(sd >= 0 && sd <= 9007199254740991.0 && sd == static_cast<double>(static_cast<int64_t>(sd))))
    throw Error(std::string(op) + ": the seed must be a whole number from 0 to 2^53 - 1");
  return nn::Model(cfg, static_cast<uint64_t>(sd));
}

double rms(const Tensor& t) {
  double sum = 0;
  const std::vector<double> v = t.to_vector();
  for (double x : v) sum += x * x;
  return std::sqrt(sum / static_cast<double>(v.size()));
}

val fresh_stream(ModelSession& s, std::string init_scale, val seed, std::string text) {
  nn::Model model = fresh_model(s, init_scale, seed, "freshStream seed");
  const std::vector<int32_t> ids = io::encode_bytes(text);
  if (ids.empty()) throw Error("freshStream: the text is empty; type at least one character");
  if (static_cast<int64_t>(ids.size()) > model.config().context)
    throw Error("freshStream: the text is " + std::to_string(ids.size()) + " bytes; the context holds " + std::to_string(model.config().context));
  val stream = val::array();
  {
    NoGradGuard no_grad;
    const nn::Model::Output out = model.forward(ids, 1, nn::Model::Record::stream);
    for (const std::string& name : out.snapshots.stream()) {
      val row = val::object();
      row.set("name", name);
      row.set("rms", rms(out.snapshots.get(name)));
      stream.call<void>("push", row);
    }
  }
  // the projections that write into the stream: every block's attention output and SwiGLU down
  double sum = 0, sum2 = 0, n = 0;
  for (const auto& [name, p] : model.named_parameters()) {
    const bool out = name.ends_with(".attn.wo.weight") || name.ends_with(".ffn.w_down.weight");
    if (!out) continue;
    for (double x : p.to_vector()) sum += x, sum2 += x * x, n += 1;
  }
  const double mean = sum / n;
  val result = val::object();
  result.set("stream", stream);
  result.set("outStd", std::sqrt(sum2 / n - mean * mean));
  return result;
}

val fresh_weights_like(ModelSession& s, std::string init_scale, val seed) {
  nn::Model model = fresh_model(s, init_scale, seed, "freshWeightsLike seed");
  const std::vector<uint8_t> bytes = io::save_weights(model);
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data()));
}

}  // namespace
}  // namespace glass::wasm

EMSCRIPTEN_BINDINGS(glass_norm_lesson) {
  using namespace glass::wasm;
  emscripten::function("layernormOf", guard<&layernorm_of>);
  emscripten::function("freshWeightsLike", guard<&fresh_weights_like>);
  emscripten::function("freshStream", guard<&fresh_stream>);
}
