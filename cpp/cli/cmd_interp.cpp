// glassllm interp --weights W --text T [--eps E] [--dtype f32|f64] [--intervene LIST]
//                 [--grad-check TARGET:INDEX[:DELTA]] [--json OUT]
// Issue 12's tools on one text: a forward and backward run with attention
// patterns recorded and the interventions in LIST applied (comma-separated text
// forms, glass/nn/interventions.h: "zero:blocks.2.ffn,ablateHead:1:2"). Prints the
// loss and next bytes before and after, which snapshots changed, the logit
// lens's loss by depth, the residual ledger's checks and each head's summary;
// --grad-check prints g * delta against the central difference in float32 and
// float64. --json writes the run like `inspect --json` (patterns included) plus
//   "lens": {"depths", "logits": {shape, data}, "mean_loss"}, "ledger": {...} or
//   {"refused": why}, "heads": [...], "interventions": [texts], "baseline_loss".
// tests/reference/compare_interp.py compares it with the PyTorch model.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/load_model.h"
#include "cli/tensor_json.h"
#include "cli/threads_flag.h"
#include "glass/io/bytes.h"
#include "glass/io/safetensors.h"
#include "glass/nn/attention_summary.h"
#include "glass/nn/gradient_check.h"
#include "glass/nn/interventions.h"
#include "glass/nn/logit_lens.h"
#include "glass/nn/residual_ledger.h"
#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"

namespace glass::cli {

namespace {

// A number of the run's dtype, or null for NaN and infinity (JSON cannot spell them).
template <class Real>
Json<Real> num(double v) {
  return std::isfinite(v) ? Json<Real>(static_cast<Real>(v)) : Json<Real>(nullptr);
}

template <class Real>
std::string interp_json(nn::Model& model, const nn::Model::Output& out, const nn::LogitLens& lens,
                        const std::vector<std::string>& interventions, double baseline_loss) {
  Json<Real> snapshots = Json<Real>::object(), grads = Json<Real>::object();
  for (const auto& [name, t] : out.snapshots.items()) {
    snapshots[name] = tensor_json<Real>(t, true);
    if (t.grad().defined()) grads[name] = tensor_json<Real>(t.grad(), true);
  }
  for (const auto& [name, p] : model.named_parameters())
    if (p.grad().defined()) grads[name] = tensor_json<Real>(p.grad(), false);
  Json<Real> mean_loss = Json<Real>::array();
  for (double l : lens.mean_loss) mean_loss.push_back(num<Real>(l));
  Json<Real> ledger;
  if (auto why = nn::ledger_refusal(model.config())) {
    ledger = {{"refused", *why}};
  } else {
    const nn::ResidualLedger L = nn::residual_ledger(model, out);
    ledger = {{"max_abs_diff", num<Real>(L.max_abs_diff)}, {"grad_max_abs_diff", num<Real>(L.grad_max_abs_diff)}};
  }
  Json<Real> heads = Json<Real>::array();
  for (const nn::HeadSummary& h : nn::attention_summary(model, out).heads)
    heads.push_back({{"block", h.block}, {"head", h.head}, {"previous", num<Real>(h.previous)}, {"same", num<Real>(h.same)},
                     {"first", num<Real>(h.first)}, {"mean_distance", num<Real>(h.mean_distance)}});
  const Json<Real> doc = {{"loss", num<Real>(out.loss.item())},
                          {"baseline_loss", num<Real>(baseline_loss)},
                          {"interventions", interventions},
                          {"snapshots", std::move(snapshots)},
                          {"grads", std::move(grads)},
                          {"lens", {{"depths", lens.depths}, {"logits", tensor_json<Real>(lens.logits, false)}, {"mean_loss", mean_loss}}},
                          {"ledger", ledger},
                          {"heads", heads}};
  return doc.dump() + "\n";
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == ',') {
      if (i > start) out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

std::string next_bytes(const Tensor& logits, int64_t position) {
  std::string out;
  for (const nn::NextByte& b : nn::top_next(logits, position, 5)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s %.3f", out.empty() ? "" : ", ", io::display_byte(b.byte).c_str(), b.prob);
    out += buf;
  }
  return out;
}

void print_grad_check(const nn::Model& model, const std::vector<int32_t>& ids, const std::string& spec, const nn::Edits* edits) {
  // TARGET:INDEX[:DELTA]; without DELTA, 1e-3 in float32 and 1e-6 in float64
  const std::size_t a = spec.rfind(':');
  std::string target = spec.substr(0, a), index_text = spec.substr(a + 1);
  std::optional<double> delta;
  if (const std::size_t b = target.rfind(':'); b != std::string::npos && a != std::string::npos) {
    delta = std::stod(index_text);
    index_text = target.substr(b + 1);
    target = target.substr(0, b);
  }
  if (a == std::string::npos || target.empty()) throw UsageError{"--grad-check takes TARGET:INDEX[:DELTA], got \"" + spec + "\""};
  const int64_t index = std::stoll(index_text);
  std::printf("gradient check of %s element %lld:\n", target.c_str(), static_cast<long long>(index));
  for (DType dt : {DType::f32, DType::f64}) {
    const double d = delta.value_or(dt == DType::f32 ? 1e-3 : 1e-6);
    const nn::GradientCheck g = nn::gradient_check(model, ids, target, index, d, dt, edits);
    std::printf("  %-8s value %.17g  grad %.17g  delta %.3g  g*delta %.17g  central difference %.17g\n",
                std::string(dtype_name(dt)).c_str(), g.value, g.grad, g.delta, g.predicted, g.actual);
  }
}

}  // namespace

int run_interp(const Argv& argv) {
  const Args args(argv, with_threads_flag({"weights", "text", "eps", "dtype", "json", "intervene", "grad-check"}));
  apply_threads_flag(args);
  const DType dtype = args.dtype("dtype", DType::f32);
  auto model = load_model(args.text("weights"), dtype);
  if (args.text_or("eps")) model->set_eps(args.number("eps", 0, 0, 1e6));
  const std::vector<int32_t> ids = io::encode_bytes(args.text("text"));
  if (ids.size() < 2) throw UsageError{"--text needs at least 2 bytes (the loss predicts each next byte)"};
  if (static_cast<int64_t>(ids.size()) > model->config().context)
    throw UsageError{"--text is " + std::to_string(ids.size()) + " bytes; the model's context is " +
                     std::to_string(model->config().context)};
  std::vector<nn::Intervention> ivs;
  std::vector<std::string> texts;
  for (const std::string& t : split_list(args.text_or("intervene").value_or(""))) {
    ivs.push_back(nn::parse_intervention(t));
    texts.push_back(nn::to_text(ivs.back()));
  }
  const nn::Edits edits = nn::compile_interventions(*model, ivs);
  const int64_t last = static_cast<int64_t>(ids.size()) - 1;

  nn::Model::Output base;
  {
    NoGradGuard no_grad;
    base = model->forward(ids, 1, nn::ForwardOptions{.record_snapshots = true, .record_patterns = true, .edits = nullptr});
  }
  auto out = model->forward(ids, 1, nn::ForwardOptions{.record_snapshots = true, .record_patterns = true, .edits = &edits});
  out.loss.backward();
  std::printf("loss %.6f nats/byte (%s, eps %g); next after the text: %s\n", base.loss.item(),
              std::string(dtype_name(dtype)).c_str(), model->eps(), next_bytes(base.logits, last).c_str());
  if (!ivs.empty()) {
    std::string all;
    for (const std::string& t : texts) all += (all.empty() ? "" : ", ") + t;
    std::printf("with %s: loss %.6f; next: %s\n", all.c_str(), out.loss.item(), next_bytes(out.logits, last).c_str());
    std::printf("%-28s %12s %12s\n", "snapshot changed", "max |diff|", "rel norm");
    for (const nn::SnapshotChange& c : nn::compare_snapshots(base.snapshots, out.snapshots))
      if (c.changed) std::printf("%-28s %12.4g %12.4g\n", c.name.c_str(), c.max_abs, c.rel_norm);
  }
  const nn::LogitLens lens = nn::logit_lens(*model, out, ids);
  std::printf("logit lens (mean loss by depth; last depth == logits: max |diff| %g):\n", lens.last_depth_max_abs);
  for (std::size_t k = 0; k < lens.depths.size(); ++k) std::printf("  %-24s %.6f\n", lens.depths[k].c_str(), lens.mean_loss[k]);
  if (auto why = nn::ledger_refusal(model->config())) {
    std::printf("residual ledger: refused: %s\n", why->c_str());
  } else {
    const nn::ResidualLedger L = nn::residual_ledger(*model, out);
    std::printf("residual ledger: |embed + sum attn + sum ffn - %s| <= %g; gradient split <= %g\n", L.total_name.c_str(),
                L.max_abs_diff, L.grad_max_abs_diff);
    for (const nn::LedgerTerm& t : L.terms) std::printf("  %-16s norm %10.4f  share %8.4f\n", t.name.c_str(), t.total_norm, t.total_share);
    for (const nn::LedgerTerm& t : L.grad_terms)
      std::printf("  d/d embed via %-16s norm %10.4g  share %8.4f\n", t.name.c_str(), t.total_norm, t.total_share);
  }
  std::printf("%-6s %-5s %9s %9s %9s %9s\n", "block", "head", "previous", "same", "first", "distance");
  for (const nn::HeadSummary& h : nn::attention_summary(*model, out).heads)
    std::printf("%-6lld %-5lld %9.4f %9.4f %9.4f %9.3f\n", static_cast<long long>(h.block), static_cast<long long>(h.head), h.previous, h.same,
                h.first, h.mean_distance);
  if (auto spec = args.text_or("grad-check")) print_grad_check(*model, ids, *spec, &edits);

  if (auto path = args.text_or("json")) {
    const double bl = base.loss.item();
    const std::string json = dtype == DType::f32 ? interp_json<float>(*model, out, lens, texts, bl)
                                                 : interp_json<double>(*model, out, lens, texts, bl);
    io::write_file(*path, std::span(reinterpret_cast<const uint8_t*>(json.data()), json.size()));
    std::printf("wrote %s (%zu bytes)\n", path->c_str(), json.size());
  }
  return 0;
}

}  // namespace glass::cli
