// libFuzzer target: a weights file's bytes, read the way every loader reads
// them (glass/io/safetensors.h, model_weights.h): the header JSON, the
// __metadata__ and its glassllm.config, shapes, offsets and dtypes, then the
// config checked against the tensors, a model built from the file, and the
// file loaded into an existing model. Seeds: tests/fuzz/corpus/fuzz_safetensors/
// (written by tests/fuzz/make_safetensors_seeds.py); tokens: fuzz_safetensors.dict.
//
// The oracle, step by step:
// - parse_safetensors either throws a glass::Error starting "safetensors: " or
//   returns tensors whose byte sizes fit the file; writing them back and
//   reading that again gives the same names, dtypes, shapes, bytes and metadata;
// - config_of either throws one starting "weights: " or returns a config
//   validate() accepts, whose sizes the file's tensors carry;
// - load_model (when the model is small) either throws "weights: " or returns
//   a model holding exactly the file's values, and non_finite_parameters
//   names exactly the parameters this target finds NaN or infinity in;
// - load_weights into a fixed tiny model either throws "safetensors: " or
//   "weights: " and leaves the model's values untouched, or loads the file's values.
// Anything else (another exception, a sanitizer report, a wrong value) aborts.
#include <cstring>
#include <map>
#include <set>

#include "fuzz_common.h"
#include "glass/io/config_json.h"
#include "glass/io/model_weights.h"
#include "glass/io/safetensors.h"

namespace {

using namespace fuzz;
using glass::io::NamedTensors;

// Runs f; a glass::Error must start with one of `prefixes`. True if f returned.
template <class F>
bool refused_or_ran(std::initializer_list<const char*> prefixes, const char* step, F&& f) {
  try {
    f();
    return true;
  } catch (const glass::Error& e) {
    const std::string msg = e.what();
    bool named = false;
    for (const char* p : prefixes) named = named || msg.rfind(p, 0) == 0;
    FUZZ_REQUIRE(named, std::string(step) + ": the message does not say what was refused: " + msg);
    return false;
  }
}

std::vector<uint8_t> bytes_of(const Tensor& t) {
  const Tensor c = t.contiguous();
  std::vector<uint8_t> out(static_cast<std::size_t>(c.numel()) * glass::dtype_size(c.dtype()));
  glass::dispatch(c.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (!out.empty()) std::memcpy(out.data(), c.template data<T>(), out.size());
  });
  return out;
}

// The parameters' values as doubles, by name.
std::map<std::string, std::vector<double>> values_of(glass::nn::Model& m) {
  std::map<std::string, std::vector<double>> out;
  m.visit([&](const std::string& name, Tensor& p) { out[name] = p.to_vector(); });
  return out;
}

bool same_values(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return false;
  return true;
}

// A model of at most this many parameters is built from the file (a config's
// ranges allow 25 M; building those for every input would be all the fuzzer did).
constexpr int64_t kMaxParams = int64_t{1} << 18;

int64_t parameter_bound(const glass::nn::Config& c) {
  return 2 * c.vocab * c.d + c.blocks * (4 * c.d * c.d + 3 * c.hidden * c.d + 4 * c.d) + 2 * c.d;
}

// The model weights are loaded into: the smallest the ranges allow, in float32.
glass::nn::Model& tiny_model() {
  static glass::nn::Model* model = [] {
    glass::nn::Config c;
    c.vocab = 2;
    c.context = 2;
    c.d = 16;
    c.blocks = 1;
    c.heads = 2;
    c.hidden = 1;
    return new glass::nn::Model(c, 1);
  }();
  return *model;
}

void check_loaded(glass::nn::Model& m, const NamedTensors& tensors, const char* step) {
  std::map<std::string, std::vector<double>> want;
  for (const auto& [name, t] : tensors) {
    std::vector<double> v = t.to_vector();
    for (double& x : v) x = stored(x, m.config().dtype);
    want[name] = v;
  }
  std::set<std::string> bad;
  m.visit([&](const std::string& name, Tensor& p) {
    FUZZ_REQUIRE(want.count(name), std::string(step) + ": loaded a parameter the file lacks: " + name);
    FUZZ_REQUIRE(same_values(p.to_vector(), want[name]), std::string(step) + ": wrong values in " + name);
    for (double x : want[name])
      if (!std::isfinite(x)) bad.insert(name);
  });
  std::set<std::string> reported;
  for (const auto& f : glass::io::non_finite_parameters(m)) reported.insert(f.name);
  FUZZ_REQUIRE(reported == bad, std::string(step) + ": non_finite_parameters named other parameters");
  FUZZ_REQUIRE(glass::io::non_finite_warning(glass::io::non_finite_parameters(m)).empty() == bad.empty(),
               std::string(step) + ": a warning without a non-finite value, or none with one");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  glass::io::SafetensorsFile file;
  if (!refused_or_ran({"safetensors: "}, "parse", [&] { file = glass::io::parse_safetensors(bytes); })) return 0;

  // what was read fits the file, and reads back the same after writing it out
  uint64_t total = 0;
  for (const auto& [name, t] : file.tensors) total += bytes_of(t).size();
  FUZZ_REQUIRE(total <= size, "tensors hold more bytes than the file");
  const std::vector<uint8_t> written = glass::io::serialize_safetensors(file.tensors, file.metadata);
  const glass::io::SafetensorsFile again = glass::io::parse_safetensors(written);
  FUZZ_REQUIRE(again.metadata == file.metadata, "metadata changed on a round trip");
  FUZZ_REQUIRE(again.tensors.size() == file.tensors.size(), "tensor count changed on a round trip");
  for (std::size_t i = 0; i < file.tensors.size(); ++i) {
    const auto& [name, t] = file.tensors[i];
    const auto& [name2, t2] = again.tensors[i];
    FUZZ_REQUIRE(name == name2 && t.dtype() == t2.dtype() && t.shape() == t2.shape(), "tensor " + name + " changed on a round trip");
    FUZZ_REQUIRE(bytes_of(t) == bytes_of(t2), "tensor " + name + "'s bytes changed on a round trip");
  }

  // the config, checked against the tensors
  glass::nn::Config cfg;
  if (refused_or_ran({"weights: "}, "config_of", [&] { cfg = glass::io::config_of(file); })) {
    cfg.validate();  // must not throw: config_of returned it
    std::map<std::string, Shape> shapes;
    for (const auto& [name, t] : file.tensors) shapes[name] = t.shape();
    FUZZ_REQUIRE((shapes["tok_emb.weight"] == Shape{cfg.vocab, cfg.d}), "config_of: vocab and d are not tok_emb's");
    FUZZ_REQUIRE((shapes["blocks.0.ffn.w_gate.weight"] == Shape{cfg.hidden, cfg.d}), "config_of: hidden is not w_gate's");
    if (parameter_bound(cfg) <= kMaxParams) {
      std::unique_ptr<glass::nn::Model> model;
      if (refused_or_ran({"weights: "}, "load_model", [&] { model = glass::io::load_model(bytes, cfg.dtype); })) {
        FUZZ_REQUIRE(model != nullptr, "load_model returned no model");
        FUZZ_REQUIRE(glass::io::config_difference(model->config(), cfg, glass::io::ConfigFields::all).empty(),
                     "load_model built another config than config_of read");
        check_loaded(*model, file.tensors, "load_model");
      }
    }
  }

  // into an existing model: all or nothing
  glass::nn::Model& tiny = tiny_model();
  const auto before = values_of(tiny);
  if (refused_or_ran({"safetensors: ", "weights: "}, "load_weights", [&] { glass::io::load_weights(tiny, bytes); })) {
    check_loaded(tiny, file.tensors, "load_weights");
    // put the model back for the next input
    NamedTensors back;
    for (auto& [name, t] : tiny.named_parameters()) back.emplace_back(name, Tensor::from_vector(before.at(name), t.shape(), t.dtype()));
    glass::io::load_weights(tiny, back);
  } else {
    const auto after = values_of(tiny);
    for (const auto& [name, v] : before)
      FUZZ_REQUIRE(same_values(v, after.at(name)), "a refused file changed " + name);
  }
  glass::release_cached_storage();
  return 0;
}
