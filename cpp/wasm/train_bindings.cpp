// Embind bindings for training in the browser: one TrainSession per run owns
// its model, its text (split into a training part and the held-out 5%) and
// the trainer the CLI uses (cpp/glass/train). The trainer worker
// (web/src/worker/trainer/) calls step() in a loop with pauses between steps.
// Thin marshalling and argument checks only; the work is in cpp/glass.
//
// Ownership: a TrainSession is an Embind handle JS must .delete(). Everything
// its methods return is plain JS data (numbers, arrays, Uint8Array copies).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "glass/glass.h"
#include "glass/io/bytes.h"
#include "glass/io/config_json.h"
#include "glass/io/model_weights.h"
#include "glass/nn/model.h"
#include "glass/train/sample.h"
#include "glass/train/trainer.h"
#include "marshal.h"

namespace glass::wasm {
namespace {

constexpr double kValFraction = 0.05;  // the held-out part, as the CLI's
// What one training step may hold at once in the wasm heap (capped at 2 GiB):
// a rough upper estimate of the activations a step keeps for backward.
constexpr double kStepBudgetBytes = 1536.0 * 1024 * 1024;

struct TrainSession {
  std::unique_ptr<nn::Model> model;
  std::unique_ptr<train::Corpus> corpus;
  std::unique_ptr<train::Trainer> trainer;
};

// ---- JS -> C++ ----

val field(const val& obj, const char* name, const char* where) {
  if (obj.isUndefined() || obj.isNull() || obj.typeOf().as<std::string>() != "object")
    throw Error(std::string(where) + ": expected an object");
  const val v = obj[name];
  if (v.isUndefined() || v.isNull()) throw Error(std::string(where) + ": \"" + name + "\" is missing");
  return v;
}

double number_field(const val& obj, const char* name, const char* where) {
  const val v = field(obj, name, where);
  if (v.typeOf().as<std::string>() != "number")
    throw Error(std::string(where) + ": \"" + name + "\" must be a number");
  const double d = v.as<double>();
  if (!std::isfinite(d)) throw Error(std::string(where) + ": \"" + name + "\" must be finite");
  return d;
}

int64_t whole_field(const val& obj, const char* name, const char* where, int64_t lo, int64_t hi) {
  const double d = number_field(obj, name, where);
  if (d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi))
    throw Error(std::string(where) + ": " + name + " must be a whole number from " + std::to_string(lo) + " to " +
                std::to_string(hi) + ", got " + format_scalar(d));
  return static_cast<int64_t>(d);
}

double real_field(const val& obj, const char* name, const char* where, double lo, double hi, bool lo_open = false) {
  const double d = number_field(obj, name, where);
  if (d < lo || d > hi || (lo_open && d == lo))
    throw Error(std::string(where) + ": " + name + " must be " + (lo_open ? "above " : "from ") + format_scalar(lo) +
                (lo_open ? " and at most " : " to ") + format_scalar(hi) + ", got " + format_scalar(d));
  return d;
}

std::string word_field(const val& obj, const char* name, const char* where) {
  const val v = field(obj, name, where);
  if (v.typeOf().as<std::string>() != "string") throw Error(std::string(where) + ": \"" + name + "\" must be a string");
  return v.as<std::string>();
}

bool bool_field(const val& obj, const char* name, const char* where) {
  const val v = field(obj, name, where);
  if (v.typeOf().as<std::string>() != "boolean") throw Error(std::string(where) + ": \"" + name + "\" must be true or false");
  return v.as<bool>();
}

// The JS names of protocol/train.ts ModelConfigInput -> Config (hidden = 3 d, as the CLI's).
nn::Config config_from(const val& c) {
  const char* where = "model settings";
  nn::Config cfg;
  cfg.blocks = whole_field(c, "blocks", where, nn::kBlocksRange.min, nn::kBlocksRange.max);
  cfg.d = whole_field(c, "d", where, nn::kDRange.min, nn::kDRange.max);
  cfg.heads = whole_field(c, "heads", where, 1, cfg.d);
  cfg.context = whole_field(c, "ctx", where, nn::kContextRange.min, nn::kContextRange.max);
  cfg.hidden = 3 * cfg.d;
  cfg.norm = nn::parse_placement(word_field(c, "norm", where));
  cfg.norm_kind = nn::parse_norm_kind(word_field(c, "normKind", where));
  cfg.residual = bool_field(c, "residual", where);
  cfg.eps = real_field(c, "eps", where, 0, 1e6);
  cfg.init_scale = nn::parse_init_scale(word_field(c, "initScale", where));
  cfg.dtype = parse_dtype(word_field(c, "dtype", where));
  cfg.validate();  // names the field (heads that do not divide d, an odd head width, ...)
  return cfg;
}

// The trainer's options (protocol/train.ts TrainSettings; the CLI's ranges).
train::TrainOptions options_from(const val& o) {
  const char* where = "training settings";
  train::TrainOptions opt;
  opt.steps = whole_field(o, "steps", where, 1, 10000000);
  opt.batch = whole_field(o, "batch", where, 1, 4096);
  opt.lr = real_field(o, "lr", where, 0, 1, /*lo_open=*/true);
  opt.warmup = whole_field(o, "warmup", where, 0, 10000000);
  opt.clip = real_field(o, "clip", where, 0, 1e6);
  opt.weight_decay = real_field(o, "weightDecay", where, 0, 1);
  opt.seed = static_cast<uint64_t>(whole_field(o, "seed", where, 0, 9007199254740991));
  opt.eval_every = whole_field(o, "evalEvery", where, 0, 10000000);
  const val windows = o["evalWindows"];  // optional: held-out windows per evaluation (0: all)
  if (!windows.isUndefined()) opt.eval_windows = whole_field(o, "evalWindows", where, 0, 10000000);
  return opt;
}

// Refuses a batch x context whose step would not fit the wasm heap, before
// anything is allocated. Per token and block: the norms, q, k, v, the
// attention output, the sums (about 14 d), the scores and their softmax and
// gradients (3 heads x context), the SwiGLU activations (5 hidden).
void check_step_memory(const nn::Config& c, int64_t batch) {
  const double per_token = static_cast<double>(c.blocks) * (14.0 * c.d + 3.0 * c.heads * c.context + 5.0 * c.hidden) +
                           4.0 * c.vocab + 2.0 * c.d;
  const double bytes = per_token * static_cast<double>(batch) * static_cast<double>(c.context) * dtype_size(c.dtype);
  if (bytes > kStepBudgetBytes)
    throw Error("training settings: a step of batch " + std::to_string(batch) + " x context " +
                std::to_string(c.context) + " would hold about " + std::to_string(static_cast<int64_t>(bytes / 1048576)) +
                " MB, more than the browser's " + std::to_string(static_cast<int64_t>(kStepBudgetBytes / 1048576)) +
                " MB; lower the batch, the context, the blocks or d");
}

std::unique_ptr<train::Corpus> corpus_from(std::string text, int64_t ctx) {
  const auto n = static_cast<int64_t>(text.size());
  const int64_t need = train::Corpus::min_bytes(kValFraction, ctx);
  if (n < need)
    throw Error("the text is " + std::to_string(n) + " bytes; with a context of " + std::to_string(ctx) +
                " bytes training needs at least " + std::to_string(need) +
                " (5% is held out for the validation loss and must hold one whole window)");
  return std::make_unique<train::Corpus>(std::move(text), kValFraction, ctx);
}

TrainSession* finish(std::unique_ptr<nn::Model> model, const val& options, std::string text) {
  const train::TrainOptions opt = options_from(options);
  check_step_memory(model->config(), opt.batch);
  auto s = std::make_unique<TrainSession>();
  s->corpus = corpus_from(std::move(text), model->config().context);
  s->model = std::move(model);
  s->trainer = std::make_unique<train::Trainer>(*s->model, *s->corpus, opt);
  return s.release();
}

// A model from a config and seed (options.seed), as `glassllm train` makes it.
TrainSession* make_session(val config, val options, std::string text) {
  const nn::Config cfg = config_from(config);
  options_from(options);  // every setting checked before the model is built
  return finish(std::make_unique<nn::Model>(cfg, static_cast<uint64_t>(whole_field(options, "seed", "training settings", 0, 9007199254740991))),
                options, std::move(text));
}

// Fine-tuning: the weights of a safetensors file (its own config wins).
TrainSession* from_weights(val bytes, val options, std::string text) {
  const std::vector<uint8_t> data = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
  const nn::Config cfg = io::config_from_weights(data);
  options_from(options);
  auto model = std::make_unique<nn::Model>(cfg);
  io::load_weights(*model, data);
  return finish(std::move(model), options, std::move(text));
}

// ---- C++ -> JS ----

val js_bytes(const std::vector<uint8_t>& bytes) {
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data()));
}

val progress_to_js(const train::Progress& p) {
  val out = val::object();
  out.set("step", static_cast<double>(p.step));
  out.set("total", static_cast<double>(p.total));
  out.set("loss", p.loss);
  out.set("lr", p.lr);
  out.set("gradNorm", p.grad_norm);
  out.set("blockGradNorms", js_numbers(p.block_grad_norms));
  out.set("residRms", js_numbers(p.resid_rms));
  out.set("seconds", p.seconds);
  out.set("valLoss", p.val_loss ? val(*p.val_loss) : val::null());
  out.set("diverged", val::null());
  return out;
}

// One step. A step whose loss or gradient is not finite comes back as
// {diverged: {step, what, message}} with the run unchanged (the last good state).
val train_step(TrainSession& s) {
  try {
    return progress_to_js(s.trainer->train_step());
  } catch (const train::Diverged& d) {
    val out = val::object();
    val info = val::object();
    info.set("step", static_cast<double>(d.step()));
    info.set("what", d.what_blew_up());
    info.set("message", std::string(d.what()));
    out.set("diverged", info);
    return out;
  }
}

double validation_loss(TrainSession& s) { return s.trainer->validation_loss(); }

// `length` bytes after the UTF-8 bytes of prompt, sampled at `temperature`
// with a generator seeded by `seed`: the new bytes (not always whole UTF-8).
val sample_text(TrainSession& s, std::string prompt, double length, double seed, double temperature) {
  const int64_t n = whole_from("sample length", length);
  if (n < 0 || n > 4096) throw Error("sample length must be from 0 to 4096, got " + std::to_string(n));
  const int64_t sd = whole_from("sample seed", seed);
  if (sd < 0) throw Error("sample seed must be >= 0");
  Generator gen(static_cast<uint64_t>(sd));
  const std::vector<int32_t> out = train::sample_bytes(*s.model, io::encode_bytes(prompt), n, temperature, gen);
  return js_bytes(std::vector<uint8_t>(out.begin(), out.end()));
}

// The weights as a safetensors file with the config in its metadata (what the
// inspector and `glassllm inspect` load).
val weights(TrainSession& s) {
  return js_bytes(io::save_weights(*s.model, {{"trained_steps", std::to_string(s.trainer->step())}}));
}

val checkpoint(TrainSession& s) { return js_bytes(s.trainer->checkpoint()); }

void restore(TrainSession& s, val bytes) {
  s.trainer->restore(emscripten::convertJSArrayToNumberVector<uint8_t>(bytes));
}

// The model's config in the JS names of protocol/train.ts ModelConfigInput.
val session_config(TrainSession& s) {
  const nn::Config& c = s.model->config();
  val out = val::object();
  out.set("blocks", static_cast<double>(c.blocks));
  out.set("d", static_cast<double>(c.d));
  out.set("heads", static_cast<double>(c.heads));
  out.set("ctx", static_cast<double>(c.context));
  out.set("norm", std::string(nn::placement_name(c.norm)));
  out.set("normKind", std::string(nn::norm_kind_name(c.norm_kind)));
  out.set("residual", c.residual);
  out.set("eps", c.eps);
  out.set("initScale", std::string(nn::init_scale_name(c.init_scale)));
  out.set("dtype", std::string(dtype_name(c.dtype)));
  return out;
}

// The snapshot each entry of StepReport.residRms measures: "embed", then the
// stream after each block, named as this variant names it (docs/model.md).
val depth_names(TrainSession& s) {
  NoGradGuard no_grad;
  const std::vector<int32_t> ids{0, 0};
  const nn::Model::Output out = s.model->forward(ids, 1, nn::Model::Record::stream);
  const auto& items = out.snapshots.items();
  val names = val::array();
  for (std::size_t depth = 0; depth <= s.model->blocks.size(); ++depth)
    names.call<void>("push", items[depth == 0 ? 0 : 2 * depth].first);
  return names;
}

double parameters(TrainSession& s) { return static_cast<double>(s.model->parameter_count()); }
double train_bytes(TrainSession& s) { return static_cast<double>(s.corpus->train_bytes()); }
double val_bytes(TrainSession& s) { return static_cast<double>(s.corpus->val_bytes()); }
double steps_done(TrainSession& s) { return static_cast<double>(s.trainer->step()); }
double total_steps(TrainSession& s) { return static_cast<double>(s.trainer->options().steps); }

}  // namespace

EMSCRIPTEN_BINDINGS(glass_train) {
  using namespace emscripten;
  class_<TrainSession>("TrainSession")
      .constructor(guard<&make_session>, allow_raw_pointers())
      .class_function("fromWeights", guard<&from_weights>, allow_raw_pointers())
      .function("step", guard<&train_step>)
      .function("validationLoss", guard<&validation_loss>)
      .function("sample", guard<&sample_text>)
      .function("weights", guard<&weights>)
      .function("checkpoint", guard<&checkpoint>)
      .function("restore", guard<&restore>)
      .function("config", guard<&session_config>)
      .function("depthNames", guard<&depth_names>)
      .function("parameters", guard<&parameters>)
      .function("trainBytes", guard<&train_bytes>)
      .function("valBytes", guard<&val_bytes>)
      .function("stepsDone", guard<&steps_done>)
      .function("totalSteps", guard<&total_steps>);
}

}  // namespace glass::wasm
