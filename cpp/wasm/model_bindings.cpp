// Embind bindings for the model: one ModelSession per page holds the loaded
// model and its last run, so the inspector can ask for one tensor at a time
// without re-running. Thin marshalling only; the work is in cpp/glass.
//
// Ownership: a ModelSession is an Embind handle JS must .delete(). Everything
// run() returns is plain JS data (numbers, arrays, typed-array copies).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

#include "glass/glass.h"
#include "glass/io/bytes.h"
#include "glass/io/model_weights.h"
#include "glass/nn/model.h"
#include "marshal.h"
#include "model_session.h"

namespace glass::wasm {
namespace {

// Weights from the bytes of a safetensors file, replacing any model loaded before
// only if the file is accepted.
void load_weights(ModelSession& s, val bytes) {
  const std::vector<uint8_t> data = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
  const nn::Config cfg = io::config_from_weights(data);
  auto model = std::make_unique<nn::Model>(cfg);
  io::load_weights(*model, data);
  s.non_finite = io::non_finite_parameters(*model);
  s.model = std::move(model);
  s.last = {};
  s.last_ids.clear();
}

val config_of(ModelSession& s) {
  nn::Model& m = model_of(s);
  const nn::Config& c = m.config();
  val out = val::object();
  out.set("vocab", static_cast<double>(c.vocab));
  out.set("context", static_cast<double>(c.context));
  out.set("d", static_cast<double>(c.d));
  out.set("blocks", static_cast<double>(c.blocks));
  out.set("heads", static_cast<double>(c.heads));
  out.set("headDim", static_cast<double>(c.head_dim()));
  out.set("hidden", static_cast<double>(c.hidden));
  out.set("eps", c.eps);
  out.set("ropeBase", c.rope_base);
  out.set("dtype", std::string(dtype_name(c.dtype)));
  out.set("norm", std::string(nn::placement_name(c.norm)));
  out.set("normKind", std::string(nn::norm_kind_name(c.norm_kind)));
  out.set("residual", c.residual);
  out.set("initScale", std::string(nn::init_scale_name(c.init_scale)));
  // counted from the live model, never typed in
  val kinds = val::array();
  for (const nn::ParamGroup& g : m.parameter_table()) {
    val row = val::object();
    row.set("kind", g.kind);
    row.set("tensors", static_cast<double>(g.tensors));
    row.set("params", static_cast<double>(g.params));
    kinds.call<void>("push", row);
  }
  out.set("parameterTable", kinds);
  out.set("parameters", static_cast<double>(m.parameter_count()));
  out.set("norms", static_cast<double>(m.norm_count()));
  val per_block = val::array();
  for (int64_t i = 0; i < c.blocks; ++i) per_block.call<void>("push", static_cast<double>(m.block_parameter_count(i)));
  out.set("perBlock", per_block);
  val non_finite = val::array();
  for (const io::NonFinite& f : s.non_finite) {
    val row = val::object();
    row.set("name", f.name);
    row.set("count", static_cast<double>(f.count));
    row.set("numel", static_cast<double>(f.numel));
    non_finite.call<void>("push", row);
  }
  out.set("nonFinite", non_finite);
  out.set("warning", io::non_finite_warning(s.non_finite));
  return out;
}

void set_eps(ModelSession& s, double eps) { model_of(s).set_eps(eps); }
void set_dtype(ModelSession& s, std::string dtype) { model_of(s).to(parse_dtype(dtype)); }

double l2(const Tensor& t) {
  double s = 0;
  for (double x : t.to_vector()) s += x * x;
  return std::sqrt(s);
}

// One forward (and, if asked, backward of the mean next-byte loss) on the
// UTF-8 bytes of `text`, kept in the session; returns the loss (null for 1 byte)
// and copies nothing out. run() and the inspector's one-tensor getters build on it.
val compute(ModelSession& s, std::string text, bool backward) {
  nn::Model& m = model_of(s);
  std::vector<int32_t> ids = io::encode_bytes(text);
  if (ids.empty()) throw Error("model: the text is empty; type at least one character");
  if (static_cast<int64_t>(ids.size()) > m.config().context)
    throw Error("model: the text is " + std::to_string(ids.size()) + " bytes; the context holds " +
                std::to_string(m.config().context) + " (truncate it first)");
  m.zero_grad();
  s.last = {};
  s.last_ids.clear();
  {
    std::unique_ptr<NoGradGuard> no_grad;
    if (!backward) no_grad = std::make_unique<NoGradGuard>();
    s.last = m.forward(ids, 1, /*record_snapshots=*/true);
    if (backward && s.last.loss.defined()) s.last.loss.backward();
  }
  s.last_ids = ids;
  return s.last.loss.defined() ? val(s.last.loss.item()) : val::null();
}

// Parameter name -> L2 norm of its gradient from the last backward (docs/model.md order).
val param_grad_norms(ModelSession& s) {
  val norms = val::object();
  for (const auto& [name, p] : model_of(s).named_parameters())
    if (p.grad().defined()) norms.set(name, l2(p.grad()));
  return norms;
}

// compute(), then everything as plain data: {loss, ids, snapshots, grads,
// paramGradNorms}; grads and paramGradNorms only after backward.
val run(ModelSession& s, std::string text, bool backward) {
  const val loss = compute(s, text, backward);
  val out = val::object();
  out.set("loss", loss);
  out.set("ids", js_numbers(s.last_ids));
  val snaps = val::object(), grads = val::object();
  bool have_grads = false;
  for (const auto& [name, t] : s.last.snapshots.items()) {
    snaps.set(name, batchless(t));
    if (t.grad().defined()) {
      grads.set(name, batchless(t.grad()));
      have_grads = true;
    }
  }
  out.set("snapshots", snaps);
  out.set("grads", have_grads ? grads : val::null());
  out.set("paramGradNorms", have_grads ? param_grad_norms(s) : val::null());
  return out;
}

// ---- one tensor of the last run at a time (the inspector) ----

// A snapshot of the last run (docs/model.md name or TransformerLens alias), or its gradient.
Tensor last_tensor(ModelSession& s, const std::string& name, bool grad) {
  if (!s.last.logits.defined()) throw Error("model: nothing has run yet");
  const Tensor& t = s.last.snapshots.get(name);  // resolves the TransformerLens aliases of every variant
  if (!grad) return t;
  if (!t.grad().defined()) throw Error("model: \"" + name + "\" has no gradient (run with backward first)");
  return t.grad();
}

val snapshot(ModelSession& s, std::string name, bool grad) { return batchless(last_tensor(s, name, grad)); }

val snapshot_names(ModelSession& s) {
  val out = val::array();
  for (const auto& [name, t] : s.last.snapshots.items()) out.call<void>("push", name);
  return out;
}

// Per-position RMS, sqrt(mean(t^2, last axis)): (1, n, d) -> (n,), by core ops.
val row_rms(ModelSession& s, std::string name, bool grad) {
  NoGradGuard no_grad;
  return batchless(sqrt(mean(square(last_tensor(s, name, grad)), -1)))["data"];
}

// b - a, elementwise (same shape), by the core's sub.
val difference(ModelSession& s, std::string a, std::string b, bool grad) {
  NoGradGuard no_grad;
  return batchless(sub(last_tensor(s, b, grad), last_tensor(s, a, grad)));
}

// The L2 norm sqrt(sum(t^2)) of a snapshot or its gradient, by core ops.
double tensor_norm(ModelSession& s, std::string name, bool grad) {
  NoGradGuard no_grad;
  return sqrt(sum(square(last_tensor(s, name, grad)))).item();
}

// A parameter's values (for lessons that compute with the weights), as {shape, data}.
val param(ModelSession& s, std::string name) {
  for (const auto& [n, p] : model_of(s).named_parameters()) {
    if (n != name) continue;
    val out = val::object();
    out.set("shape", js_numbers(p.shape()));
    out.set("data", js_values(p));
    return out;
  }
  throw Error("model: no parameter named \"" + name + "\"");
}

// A parameter's gradient from the last backward, as {shape, data} (not batch-trimmed).
val param_grad(ModelSession& s, std::string name) {
  for (const auto& [n, p] : model_of(s).named_parameters()) {
    if (n != name) continue;
    if (!p.grad().defined()) throw Error("model: \"" + name + "\" has no gradient (run with backward first)");
    val out = val::object();
    out.set("shape", js_numbers(p.shape()));
    out.set("data", js_values(p.grad()));
    return out;
  }
  throw Error("model: no parameter named \"" + name + "\"");
}

// The k most likely next bytes after the last run's final position, with
// probabilities (softmax of the logits, computed by the core).
val top_next(ModelSession& s, double k_in) {
  if (!s.last.logits.defined()) throw Error("model: nothing has run yet");
  const int64_t k = whole_from("top_next k", k_in);
  const Tensor& logits = s.last.logits;  // (1, n, V)
  const int64_t n = logits.size(1), vocab = logits.size(2);
  if (k < 1 || k > vocab) throw Error("model: top_next k must be between 1 and " + std::to_string(vocab));
  std::vector<double> p;
  {
    NoGradGuard no_grad;
    p = softmax(slice(logits, 1, n - 1, n), -1).to_vector();  // (V,)
  }
  std::vector<int32_t> order(static_cast<std::size_t>(vocab));
  for (int32_t i = 0; i < vocab; ++i) order[i] = i;
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int32_t a, int32_t b) { return p[a] > p[b]; });
  val out = val::array();
  for (int64_t i = 0; i < k; ++i) {
    val row = val::object();
    row.set("byte", order[i]);
    row.set("label", io::display_byte(order[i]));
    row.set("prob", p[order[i]]);
    out.call<void>("push", row);
  }
  return out;
}

std::string display_byte(double b) { return io::display_byte(static_cast<int32_t>(whole_from("byte", b))); }

// ---- a block's parts, computed by the model's own code (the lessons show them) ----

int64_t block_index(const nn::Model& m, double block) {
  const int64_t last = static_cast<int64_t>(m.blocks.size()) - 1;
  if (!std::isfinite(block) || block != std::floor(block) || block < 0 || block > static_cast<double>(last))
    throw Error("block must be a whole number from 0 to " + std::to_string(last));
  return static_cast<int64_t>(block);
}

// {name: {shape, data}} for each named part, batch axis removed.
val named_parts(std::initializer_list<std::pair<const char*, const Tensor*>> parts) {
  val out = val::object();
  for (const auto& [name, t] : parts) out.set(name, batchless(*t));
  return out;
}

// The input block i's branch read in the last run (blocks.i.norm.attn or .norm.ffn).
Tensor block_input(ModelSession& s, int64_t block, const char* norm) {
  return last_tensor(s, "blocks." + std::to_string(block) + "." + norm, false);
}

// Block i's attention run again on its input in the last run by the same
// Attention::parts the forward pass ran, with every intermediate:
// {q, k, v, scores, weights, heads, out} (heads first).
val attention_parts(ModelSession& s, double block) {
  nn::Model& m = model_of(s);
  const int64_t i = block_index(m, block);
  NoGradGuard no_grad;
  const nn::AttentionParts p = m.blocks[i].attn.parts(block_input(s, i, "norm.attn"), m.rope());
  return named_parts({{"q", &p.q}, {"k", &p.k}, {"v", &p.v}, {"scores", &p.scores}, {"weights", &p.weights}, {"heads", &p.heads}, {"out", &p.out}});
}

// Block i's feed-forward branch on its input in the last run, by SwiGLU::parts:
// {gate, up, act, hidden, out}.
val swiglu_parts(ModelSession& s, double block) {
  nn::Model& m = model_of(s);
  const int64_t i = block_index(m, block);
  NoGradGuard no_grad;
  const nn::SwiGLUParts p = m.blocks[i].ffn.parts(block_input(s, i, "norm.ffn"));
  return named_parts({{"gate", &p.gate}, {"up", &p.up}, {"act", &p.act}, {"hidden", &p.hidden}, {"out", &p.out}});
}

// x (..., n, headDim) rotated by the model's RoPE (its head width, context and
// base; x's dtype) as if its rows stood at positions offset .. offset+n-1.
Tensor rope_at(ModelSession& s, const Tensor& x, double offset) {
  const nn::Config& c = model_of(s).config();
  return nn::Rope(c.head_dim(), c.context, c.rope_base, x.dtype())(x, whole_from("rope offset", offset));
}

}  // namespace

EMSCRIPTEN_BINDINGS(glass_model) {
  using namespace emscripten;
  class_<ModelSession>("ModelSession")
      .constructor<>()
      .function("loadWeights", guard<&load_weights>)
      .function("config", guard<&config_of>)
      .function("setEps", guard<&set_eps>)
      .function("setDtype", guard<&set_dtype>)
      .function("compute", guard<&compute>)
      .function("run", guard<&run>)
      .function("paramGradNorms", guard<&param_grad_norms>)
      .function("snapshot", guard<&snapshot>)
      .function("snapshotNames", guard<&snapshot_names>)
      .function("rowRms", guard<&row_rms>)
      .function("difference", guard<&difference>)
      .function("tensorNorm", guard<&tensor_norm>)
      .function("param", guard<&param>)
      .function("paramGrad", guard<&param_grad>)
      .function("topNext", guard<&top_next>)
      .function("attentionParts", guard<&attention_parts>)
      .function("swigluParts", guard<&swiglu_parts>)
      .function("rope", guard<&rope_at>);
  function("displayByte", guard<&display_byte>);
}

}  // namespace glass::wasm
