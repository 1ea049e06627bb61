// Embind bindings for issue 12's tools on the page's ModelSession
// (model_session.h): runs with attention patterns and interventions, the logit
// lens, the residual ledger, the heads' summaries and the gradient check.
// Thin marshalling only; the work is in cpp/glass/nn. Each is a free function
// taking the session, so model_bindings.cpp's class stays as it is.
//
// Interventions travel as their text forms (glass/nn/interventions.h:
// "zero:blocks.2.ffn"); web/src/core/interp.ts turns the console's objects into them.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <string>
#include <vector>

#include "glass/glass.h"
#include "glass/io/bytes.h"
#include "glass/nn/attention_summary.h"
#include "glass/nn/gradient_check.h"
#include "glass/nn/interventions.h"
#include "glass/nn/logit_lens.h"
#include "glass/nn/residual_ledger.h"
#include "marshal.h"
#include "model_session.h"

namespace glass::wasm {
namespace {

// NaN and infinity as null (what JSON and the page can show as "none").
val number(double v) { return std::isfinite(v) ? val(v) : val::null(); }

val numbers(const std::vector<double>& xs) {
  val out = val::array();
  for (std::size_t i = 0; i < xs.size(); ++i) out.set(i, number(xs[i]));
  return out;
}

val strings(const std::vector<std::string>& xs) {
  val out = val::array();
  for (std::size_t i = 0; i < xs.size(); ++i) out.set(i, xs[i]);
  return out;
}

val predictions(const std::vector<nn::NextByte>& top) {
  val out = val::array();
  for (const nn::NextByte& b : top) {
    val row = val::object();
    row.set("byte", b.byte);
    row.set("label", io::display_byte(b.byte));
    row.set("prob", b.prob);
    out.call<void>("push", row);
  }
  return out;
}

std::vector<nn::Intervention> interventions_from(const val& texts) {
  std::vector<nn::Intervention> out;
  const auto n = texts["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) out.push_back(nn::parse_intervention(texts[i].as<std::string>()));
  return out;
}

std::vector<int32_t> ids_of(const nn::Model& m, const std::string& text) {
  std::vector<int32_t> ids = io::encode_bytes(text);
  if (ids.empty()) throw Error("model: the text is empty; type at least one character");
  if (static_cast<int64_t>(ids.size()) > m.config().context)
    throw Error("model: the text is " + std::to_string(ids.size()) + " bytes; the context holds " +
                std::to_string(m.config().context) + " (truncate it first)");
  return ids;
}

const nn::Model::Output& last_run(ModelSession& s) {
  if (!s.last.logits.defined()) throw Error("model: nothing has run yet");
  return s.last;
}

struct Compiled {
  std::vector<nn::Intervention> list;
  nn::Edits edits;
};

Compiled compile(nn::Model& m, const val& texts) {
  Compiled c;
  c.list = interventions_from(texts);
  c.edits = nn::compile_interventions(m, c.list);  // refuses bad names before anything runs
  return c;
}

// Forward (+ backward) kept in the session like ModelSession's compute, with
// patterns recorded if asked and the interventions (text forms) applied.
// Returns the loss (null for one byte).
val compute_with(ModelSession& s, std::string text, bool backward, bool patterns, val interventions) {
  nn::Model& m = model_of(s);
  const std::vector<int32_t> ids = ids_of(m, text);
  const Compiled c = compile(m, interventions);
  m.zero_grad();
  s.last = {};
  s.last_ids.clear();
  {
    std::unique_ptr<NoGradGuard> no_grad;
    if (!backward) no_grad = std::make_unique<NoGradGuard>();
    s.last = m.forward(ids, 1, nn::ForwardOptions{.record_snapshots = true, .record_patterns = patterns, .edits = &c.edits});
    if (backward && s.last.loss.defined()) s.last.loss.backward();
  }
  s.last_ids = ids;
  return s.last.loss.defined() ? val(s.last.loss.item()) : val::null();
}

// What the interventions did: the same text run without them (no backward,
// the session's run is not replaced) against the session's last run, which
// compute_with made with them: loss and top-k before and after, and how much
// every snapshot changed.
val intervention_report(ModelSession& s, double k_in) {
  nn::Model& m = model_of(s);
  const nn::Model::Output& after = last_run(s);
  const int64_t k = whole_from("top k", k_in);
  nn::Model::Output before;
  {
    NoGradGuard no_grad;
    const bool patterns = after.snapshots.has("blocks.0.attn.pattern");
    before = m.forward(s.last_ids, 1, nn::ForwardOptions{.record_snapshots = true, .record_patterns = patterns, .edits = nullptr});
  }
  const int64_t last = static_cast<int64_t>(s.last_ids.size()) - 1;
  auto outlook = [&](const nn::Model::Output& r) {
    val o = val::object();
    o.set("loss", r.loss.defined() ? number(r.loss.item()) : val::null());
    o.set("top", predictions(nn::top_next(r.logits, last, k)));
    return o;
  };
  val changes = val::array();
  for (const nn::SnapshotChange& c : nn::compare_snapshots(before.snapshots, after.snapshots)) {
    val row = val::object();
    row.set("name", c.name);
    row.set("changed", c.changed);
    row.set("maxAbs", number(c.max_abs));
    row.set("relNorm", number(c.rel_norm));
    changes.call<void>("push", row);
  }
  val out = val::object();
  out.set("before", outlook(before));
  out.set("after", outlook(after));
  out.set("changes", changes);
  return out;
}

// The logit lens on the last run: per depth and position, the top k next bytes
// and the loss of the true next byte; the lens logits themselves if asked.
val logit_lens(ModelSession& s, double k_in, bool with_logits) {
  nn::Model& m = model_of(s);
  const nn::LogitLens lens = nn::logit_lens(m, last_run(s), s.last_ids);
  const int64_t k = whole_from("top k", k_in);
  const int64_t depths = static_cast<int64_t>(lens.depths.size()), n = lens.logits.size(1);
  val top = val::array(), loss = val::array();
  for (int64_t d = 0; d < depths; ++d) {
    const Tensor one = slice(lens.logits, 0, d, d + 1);  // (1, n, V)
    val row = val::array();
    for (int64_t t = 0; t < n; ++t) row.set(static_cast<unsigned>(t), predictions(nn::top_next(one, t, k)));
    top.set(static_cast<unsigned>(d), row);
    loss.set(static_cast<unsigned>(d), numbers(lens.loss[static_cast<std::size_t>(d)]));
  }
  val out = val::object();
  out.set("depths", strings(lens.depths));
  out.set("top", top);
  out.set("loss", loss);
  out.set("meanLoss", numbers(lens.mean_loss));
  out.set("lastDepthMaxAbs", number(lens.last_depth_max_abs));
  if (with_logits) {
    val l = val::object();
    l.set("shape", js_numbers(lens.logits.shape()));
    l.set("data", js_values(lens.logits));
    out.set("logits", l);
  }
  return out;
}

val ledger_term(const nn::LedgerTerm& t) {
  val o = val::object();
  o.set("name", t.name);
  o.set("norm", numbers(t.norm));
  o.set("share", numbers(t.share));
  o.set("totalNorm", number(t.total_norm));
  o.set("totalShare", number(t.total_share));
  return o;
}

// The residual ledger of the last run, or {refused: why} for a variant whose stream is not a sum.
val residual_ledger(ModelSession& s) {
  nn::Model& m = model_of(s);
  const nn::Model::Output& run = last_run(s);
  val out = val::object();
  if (auto why = nn::ledger_refusal(m.config())) {
    out.set("refused", *why);
    return out;
  }
  const nn::ResidualLedger L = nn::residual_ledger(m, run);
  out.set("totalName", L.total_name);
  out.set("totalNorm", numbers(L.total_norm));
  val terms = val::array();
  for (const auto& t : L.terms) terms.call<void>("push", ledger_term(t));
  out.set("terms", terms);
  out.set("maxAbsDiff", number(L.max_abs_diff));
  if (L.has_grad) {
    val g = val::object();
    g.set("totalNorm", numbers(L.grad_total_norm));
    val gt = val::array();
    for (const auto& t : L.grad_terms) gt.call<void>("push", ledger_term(t));
    g.set("terms", gt);
    g.set("throughIdentity", numbers(L.grad_through_identity));
    g.set("maxAbsDiff", number(L.grad_max_abs_diff));
    out.set("grad", g);
  } else {
    out.set("grad", val::null());
  }
  return out;
}

// Every head's summary and the patterns' own checks (the last run must have recorded patterns).
val attention_summary(ModelSession& s) {
  const nn::AttentionSummary a = nn::attention_summary(model_of(s), last_run(s));
  val heads = val::array();
  for (const nn::HeadSummary& h : a.heads) {
    val o = val::object();
    o.set("block", static_cast<double>(h.block));
    o.set("head", static_cast<double>(h.head));
    o.set("previous", number(h.previous));
    o.set("same", number(h.same));
    o.set("first", number(h.first));
    o.set("meanDistance", number(h.mean_distance));
    heads.call<void>("push", o);
  }
  val out = val::object();
  out.set("heads", heads);
  out.set("rowSumMaxError", number(a.row_sum_max_error));
  out.set("aboveDiagonalMax", number(a.above_diagonal_max));
  return out;
}

val check_of(const nn::GradientCheck& g) {
  val o = val::object();
  o.set("dtype", std::string(dtype_name(g.dtype)));
  o.set("delta", g.delta);
  o.set("appliedDelta", number(g.applied_delta));
  o.set("value", number(g.value));
  o.set("grad", number(g.grad));
  o.set("predicted", number(g.predicted));
  o.set("actual", number(g.actual));
  o.set("loss", number(g.loss));
  o.set("lossPlus", number(g.loss_plus));
  o.set("lossMinus", number(g.loss_minus));
  return o;
}

// g * delta against the central difference for element `index` of a snapshot or
// parameter, on the last run's text with its interventions, in float32 (delta32)
// and float64 (delta64), each on its own copy of the model.
val gradient_check(ModelSession& s, std::string target, double index, double delta32, double delta64) {
  nn::Model& m = model_of(s);
  const nn::Model::Output& run = last_run(s);
  const int64_t i = whole_from("element index", index);
  val out = val::object();
  out.set("target", target);
  out.set("parameter", false);
  out.set("index", static_cast<double>(i));
  const nn::GradientCheck f32 = nn::gradient_check(m, s.last_ids, target, i, delta32, DType::f32, &run.edits);
  const nn::GradientCheck f64 = nn::gradient_check(m, s.last_ids, target, i, delta64, DType::f64, &run.edits);
  out.set("parameter", f32.parameter);
  out.set("float32", check_of(f32));
  out.set("float64", check_of(f64));
  return out;
}

// The interventions' text forms after parsing (what an address or the PyTorch script
// would name), refusing bad ones against the loaded model.
val check_interventions(ModelSession& s, val texts) {
  const Compiled c = compile(model_of(s), texts);
  std::vector<std::string> out;
  for (const nn::Intervention& iv : c.list) out.push_back(nn::to_text(iv));
  return strings(out);
}

val pattern(ModelSession& s, double block) {
  nn::Model& m = model_of(s);
  const int64_t last = static_cast<int64_t>(m.blocks.size()) - 1;
  const int64_t i = whole_from("block", block);
  if (i < 0 || i > last) throw Error("block must be a whole number from 0 to " + std::to_string(last));
  return batchless(last_run(s).snapshots.get("blocks." + std::to_string(i) + ".attn.pattern"));
}

}  // namespace

EMSCRIPTEN_BINDINGS(glass_interp) {
  using namespace emscripten;
  function("interpCompute", guard<&compute_with>);
  function("interpReport", guard<&intervention_report>);
  function("interpLens", guard<&logit_lens>);
  function("interpLedger", guard<&residual_ledger>);
  function("interpHeads", guard<&attention_summary>);
  function("interpPattern", guard<&pattern>);
  function("interpGradCheck", guard<&gradient_check>);
  function("interpCheck", guard<&check_interventions>);
}

}  // namespace glass::wasm
