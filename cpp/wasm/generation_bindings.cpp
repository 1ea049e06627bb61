// Embind bindings for producing text (glass/train/sample.h) on the page's
// ModelSession (model_session.h): one step with everything the generation
// lesson shows (the model's logits, the distribution after temperature and
// top-k, the draw and the byte), a whole sample, and the next-byte loss — each
// from the loaded weights or from a freshly initialised model of the same
// config (initSeed >= 0), so a lesson can set a trained model's samples beside
// an untrained one's. Free functions taking the session, like interp_bindings.cpp.
//
// Texts travel as byte arrays, not strings: a sample can stop in the middle of
// a UTF-8 character, and the next step must see exactly those bytes.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "glass/glass.h"
#include "glass/train/sample.h"
#include "marshal.h"
#include "model_session.h"

namespace glass::wasm {
namespace {

std::vector<int32_t> bytes_from(const val& ids) {
  if (!ids.isArray()) throw Error("generate: the text must be an array of bytes");
  const auto n = ids["length"].as<unsigned>();
  if (n == 0) throw Error("generate: the text is empty; give at least one byte");
  std::vector<int32_t> out(n);
  for (unsigned i = 0; i < n; ++i) {
    const int64_t b = int64_from("generate byte", ids[i]);
    if (b < 0 || b > 255) throw Error("generate: a byte must be from 0 to 255, got " + std::to_string(b));
    out[i] = static_cast<int32_t>(b);
  }
  return out;
}

uint64_t seed_from(const char* what, double seed) {
  const int64_t s = whole_from(what, seed);
  if (s < 0) throw Error(std::string(what) + " must be 0 or more, got " + std::to_string(s));
  return static_cast<uint64_t>(s);
}

// The model a call samples from: the loaded weights (initSeed < 0) or a fresh
// model of their config initialised with initSeed (the last one is kept: a
// lesson step asks for the same one several times).
const nn::Model& model_for(ModelSession& s, double init_seed) {
  const nn::Model& loaded = model_of(s);
  if (init_seed < 0) return loaded;
  static std::unique_ptr<nn::Model> fresh;
  static uint64_t fresh_seed = 0;
  const uint64_t seed = seed_from("generate initSeed", init_seed);
  nn::Config cfg = loaded.config();
  cfg.dtype = DType::f32;
  if (!fresh || fresh_seed != seed || !(fresh->config() == cfg)) {
    fresh = std::make_unique<nn::Model>(cfg, seed);
    fresh_seed = seed;
  }
  return *fresh;
}

train::SampleOptions options_from(double temperature, double top_k) {
  return {.temperature = temperature, .top_k = whole_from("generate topK", top_k)};
}

val f64_array(const std::vector<double>& xs) {
  return val::global("Float64Array").new_(emscripten::typed_memory_view(xs.size(), xs.data()));
}

// One step after `ids` with a generator seeded by `seed`: { logits, probs, u, byte }
// (u is null at temperature 0, where nothing is drawn).
val step(ModelSession& s, val ids, double temperature, double top_k, double seed, double init_seed) {
  const std::vector<int32_t> bytes = bytes_from(ids);
  Generator gen(seed_from("generate seed", seed));
  const train::SampleStep st = train::sample_step(model_for(s, init_seed), bytes, options_from(temperature, top_k), gen);
  val out = val::object();
  out.set("logits", f64_array(st.logits));
  out.set("probs", f64_array(st.probs));
  out.set("u", std::isnan(st.u) ? val::null() : val(st.u));
  out.set("byte", st.byte);
  return out;
}

// `length` bytes after `ids` (0 to 4096): the new bytes only.
val sample(ModelSession& s, val ids, double length, double temperature, double top_k, double seed, double init_seed) {
  const int64_t n = whole_from("generate length", length);
  if (n < 0 || n > 4096) throw Error("generate: the length must be from 0 to 4096 bytes, got " + std::to_string(n));
  Generator gen(seed_from("generate seed", seed));
  const std::vector<int32_t> out =
      train::sample_bytes(model_for(s, init_seed), bytes_from(ids), n, options_from(temperature, top_k), gen);
  return js_numbers(out);
}

// The mean next-byte loss (nats) over `ids` (2 bytes up to the context).
double loss(ModelSession& s, val ids, double init_seed) {
  const nn::Model& m = model_for(s, init_seed);
  const std::vector<int32_t> bytes = bytes_from(ids);
  if (bytes.size() < 2) throw Error("generate: a loss needs at least two bytes (one to predict)");
  if (static_cast<int64_t>(bytes.size()) > m.config().context)
    throw Error("generate: the text is " + std::to_string(bytes.size()) + " bytes; the context holds " +
                std::to_string(m.config().context));
  NoGradGuard no_grad;
  return m.forward(bytes, 1).loss.item();
}

}  // namespace

EMSCRIPTEN_BINDINGS(glass_generation) {
  using namespace emscripten;
  function("generateStep", guard<&step>);
  function("generateSample", guard<&sample>);
  function("generateLoss", guard<&loss>);
}

}  // namespace glass::wasm
