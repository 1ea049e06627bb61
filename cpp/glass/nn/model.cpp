#include "glass/nn/model.h"

#include <algorithm>

#include "glass/nn/norm_checks.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

namespace {
constexpr double kInitStd = 0.02;

const Config& validated(const Config& cfg) {
  cfg.validate();
  return cfg;
}

std::vector<Block> make_blocks(const Config& cfg, Generator& gen) {
  std::vector<Block> blocks;
  for (int64_t i = 0; i < cfg.blocks; ++i) blocks.emplace_back(cfg, gen);
  return blocks;
}
}  // namespace

// ---------------------------------------------------------------- Block

namespace {
std::optional<Norm> make_norm(const Config& cfg) {
  if (cfg.norm == NormPlacement::none) return std::nullopt;
  return Norm(cfg.norm_kind, cfg.d, cfg.eps, cfg.dtype);
}
}  // namespace

Block::Block(const Config& cfg, Generator& gen)
    : norm_attn(make_norm(cfg)),
      attn(cfg, gen),
      norm_ffn(make_norm(cfg)),
      ffn(cfg, gen),
      placement_(cfg.norm),
      residual_(cfg.residual) {}

void Block::visit(const std::string& prefix, const ParamVisitor& visit) {
  if (norm_attn) norm_attn->visit(prefix + "norm_attn.", visit);
  attn.visit(prefix + "attn.", visit);
  if (norm_ffn) norm_ffn->visit(prefix + "norm_ffn.", visit);
  ffn.visit(prefix + "ffn.", visit);
}

// Snapshots are named for what they hold (docs/model.md): "norm.s" is always
// a norm's output, "resid.s" a residual sum the next sublayer reads, "sum.s" a
// residual sum a post-norm normalises. The tensor the next sublayer reads is
// marked as the stream.
Tensor Block::operator()(const Tensor& x, const Rope& rope, Snapshots* snapshots, const std::string& prefix,
                         bool record_patterns, const Edits* edits, std::size_t index) const {
  const BlockEdits* be = edits ? edits->block(index) : nullptr;
  // a nudge (the gradient check) changes a snapshot before anything reads it
  auto snap = [&](const char* name, Tensor t, bool stream = false) {
    if (edits && edits->nudge) t = nudged(edits, prefix + name, t);
    if (snapshots) snapshots->add(prefix + name, t, stream);
    return t;
  };
  // the attention weights are seen only when asked for (or nudged): a plain run passes no edit
  AttentionEdit attn_edit;
  const bool see_weights =
      (record_patterns && snapshots) || (edits && edits->nudge && edits->nudge->name == prefix + "attn.pattern");
  if (see_weights) attn_edit.on_weights = [&](const Tensor& w) { return snap("attn.pattern", w); };
  if (be && !be->ablated_heads.empty()) attn_edit.ablated_heads = &be->ablated_heads;
  const bool edit_attn = see_weights || attn_edit.ablated_heads;
  const auto attn_branch = [&](const Tensor& in) { return edit_attn ? attn.parts(in, rope, &attn_edit).out : attn(in, rope); };
  const auto ffn_branch = [&](const Tensor& in) { return ffn(in); };
  auto norm_of = [&](const std::optional<Norm>& norm, const Tensor& in, const NormEdit* e) {
    return e && e->any() ? apply_norm(*norm, in, e) : (*norm)(in);
  };
  auto scaled = [](const Tensor& f, double scale) { return scale == 1.0 ? f : f * scale; };
  // one sublayer: x (B, n, d) -> the stream after it (B, n, d)
  auto sublayer = [&](const Tensor& in, const std::optional<Norm>& norm, const NormEdit* ne, double scale,
                      const auto& branch, const char* norm_name, const char* branch_name, const char* sum_name) -> Tensor {
    switch (placement_) {
      case NormPlacement::pre: {
        const Tensor f = snap(branch_name, scaled(branch(snap(norm_name, norm_of(norm, in, ne))), scale), !residual_);
        return residual_ ? snap(sum_name, in + f, true) : f;
      }
      case NormPlacement::post: {
        const Tensor f = snap(branch_name, scaled(branch(in), scale));
        const Tensor s = residual_ ? snap(sum_name, in + f) : f;
        return snap(norm_name, norm_of(norm, s, ne), true);
      }
      case NormPlacement::none: {
        const Tensor f = snap(branch_name, scaled(branch(in), scale), !residual_);
        return residual_ ? snap(sum_name, in + f, true) : f;
      }
    }
    throw Error("model: unknown norm placement");
  };
  const bool post = placement_ == NormPlacement::post;
  const Tensor h = sublayer(x, norm_attn, be ? &be->norm_attn : nullptr, be ? be->attn_scale : 1.0, attn_branch,
                            "norm.attn", "attn", post ? "sum.attn" : "resid.attn");
  return sublayer(h, norm_ffn, be ? &be->norm_ffn : nullptr, be ? be->ffn_scale : 1.0, ffn_branch, "norm.ffn", "ffn",
                  post ? "sum.ffn" : "resid.ffn");
}

Tensor Block::branch(bool is_attn, const Tensor& x, const Rope& rope, const BlockEdits* be) const {
  if (placement_ == NormPlacement::post) throw Error("model: a post-norm block's branch is not a function of the stream alone");
  const std::optional<Norm>& norm = is_attn ? norm_attn : norm_ffn;
  const NormEdit* ne = be ? (is_attn ? &be->norm_attn : &be->norm_ffn) : nullptr;
  const Tensor in = norm ? (ne && ne->any() ? apply_norm(*norm, x, ne) : (*norm)(x)) : x;
  Tensor f;
  if (is_attn) {
    AttentionEdit e;
    if (be && !be->ablated_heads.empty()) e.ablated_heads = &be->ablated_heads;
    f = attn.parts(in, rope, &e).out;
  } else {
    f = ffn(in);
  }
  const double scale = be ? (is_attn ? be->attn_scale : be->ffn_scale) : 1.0;
  return scale == 1.0 ? f : f * scale;
}

// ---------------------------------------------------------------- Model

Model::Model(const Config& cfg, uint64_t seed) : Model(validated(cfg), Generator(seed)) {}

// Members initialise in declaration order, so one generator draws the
// embedding, then each block, then the head: the same seed, the same weights.
Model::Model(const Config& cfg, Generator&& gen)
    : tok_emb(cfg.vocab, cfg.d, kInitStd, gen, cfg.dtype),
      blocks(make_blocks(cfg, gen)),
      norm_final(cfg.norm == NormPlacement::pre ? make_norm(cfg) : std::nullopt),
      head(cfg.d, cfg.vocab, kInitStd, gen, cfg.dtype),
      cfg_(cfg),
      rope_(cfg.head_dim(), cfg.context, cfg.rope_base, cfg.dtype) {}

Model::Output Model::forward(std::span<const int32_t> ids, int64_t batch, bool record_snapshots) const {
  return forward(ids, batch, record_snapshots ? Record::all : Record::none);
}

Model::Output Model::forward(std::span<const int32_t> ids, int64_t batch, Record record) const {
  return forward(ids, batch,
                 ForwardOptions{.record_snapshots = record != Record::none, .record_patterns = false, .edits = nullptr,
                                .stream_only = record == Record::stream});
}

Tensor Model::readout(const Tensor& stream, const Edits* edits) const {
  if (!norm_final) return head(stream);
  const NormEdit* e = edits ? &edits->norm_final : nullptr;
  return head(e && e->any() ? apply_norm(*norm_final, stream, e) : (*norm_final)(stream));
}

Model::Output Model::forward(std::span<const int32_t> ids, int64_t batch, const ForwardOptions& options) const {
  const bool record_snapshots = options.record_snapshots;
  const Edits* edits = options.edits;
  if (batch <= 0 || ids.empty() || static_cast<int64_t>(ids.size()) % batch != 0)
    throw Error("model: " + std::to_string(ids.size()) + " ids cannot form " + std::to_string(batch) +
                " rows of equal length (need at least one byte per row)");
  const int64_t n = static_cast<int64_t>(ids.size()) / batch;
  if (n > cfg_.context)
    throw Error("model: rows of " + std::to_string(n) + " bytes exceed the context of " + std::to_string(cfg_.context) +
                " (truncate the text)");
  Output out;
  if (options.stream_only) out.snapshots = Snapshots(/*stream_only=*/true);
  Snapshots* snaps = record_snapshots ? &out.snapshots : nullptr;
  if (edits) out.edits = *edits;
  // a nudge of a model-level snapshot, before anything reads it
  auto edited = [&](const char* name, Tensor t) { return edits && edits->nudge ? nudged(edits, name, t) : t; };
  Tensor x = edited("embed", tok_emb(ids, {batch, n}));  // (B, n, d)
  if (snaps) snaps->add("embed", x, /*stream=*/true);
  for (std::size_t i = 0; i < blocks.size(); ++i)
    x = blocks[i](x, rope_, snaps, "blocks." + std::to_string(i) + ".", options.record_patterns, edits, i);
  if (norm_final) {
    const NormEdit* e = edits ? &edits->norm_final : nullptr;
    x = edited("norm.final", e && e->any() ? apply_norm(*norm_final, x, e) : (*norm_final)(x));  // (B, n, d)
    if (snaps) snaps->add("norm.final", x);
  }
  out.logits = edited("logits", head(x));  // (B, n, V)
  if (snaps) snaps->add("logits", out.logits);
  if (n >= 2) {
    // position t predicts byte t + 1: logits[:, :n-1] against ids[:, 1:]
    std::vector<int32_t> targets;
    targets.reserve(static_cast<std::size_t>(batch * (n - 1)));
    for (int64_t b = 0; b < batch; ++b)
      targets.insert(targets.end(), ids.begin() + b * n + 1, ids.begin() + (b + 1) * n);
    out.loss = cross_entropy(slice(out.logits, 1, 0, n - 1), targets);
  }
  return out;
}

void Model::visit(const ParamVisitor& visit) {
  tok_emb.visit("tok_emb.", visit);
  for (std::size_t i = 0; i < blocks.size(); ++i) blocks[i].visit("blocks." + std::to_string(i) + ".", visit);
  if (norm_final) norm_final->visit("norm_final.", visit);
  head.visit("head.", visit);
}

std::vector<std::pair<std::string, Tensor>> Model::named_parameters() {
  std::vector<std::pair<std::string, Tensor>> out;
  visit([&](const std::string& name, Tensor& p) { out.emplace_back(name, p); });
  return out;
}

namespace {
std::string kind_of(const std::string& name) {
  if (name.ends_with(".gamma") || name.ends_with(".beta")) return "norm";
  if (name.starts_with("tok_emb.")) return "embedding";
  if (name.find(".attn.") != std::string::npos) return "attention";
  if (name.find(".ffn.") != std::string::npos) return "ffn";
  if (name.starts_with("head.")) return "head";
  return "other";
}
}  // namespace

std::vector<ParamGroup> Model::parameter_table() {
  std::vector<ParamGroup> table;
  visit([&](const std::string& name, Tensor& p) {
    const std::string kind = kind_of(name);
    auto it = std::find_if(table.begin(), table.end(), [&](const ParamGroup& g) { return g.kind == kind; });
    if (it == table.end()) it = table.insert(table.end(), ParamGroup{kind, 0, 0});
    it->tensors += 1;
    it->params += p.numel();
  });
  return table;
}

int64_t Model::parameter_count() {
  int64_t total = 0;
  visit([&](const std::string&, Tensor& p) { total += p.numel(); });
  return total;
}

int64_t Model::block_parameter_count(int64_t block) {
  const std::string prefix = "blocks." + std::to_string(block) + ".";
  int64_t total = 0;
  visit([&](const std::string& name, Tensor& p) {
    if (name.starts_with(prefix)) total += p.numel();
  });
  return total;
}

int64_t Model::norm_count() {
  int64_t count = 0;
  visit([&](const std::string& name, Tensor&) { count += name.ends_with(".gamma"); });  // one gamma per norm
  return count;
}

void Model::set_eps(double eps) {
  check_eps("Model::set_eps", eps);
  for (Block& b : blocks) {
    if (b.norm_attn) b.norm_attn->set_eps(eps);
    if (b.norm_ffn) b.norm_ffn->set_eps(eps);
  }
  if (norm_final) norm_final->set_eps(eps);
  cfg_.eps = eps;
}

void Model::to(DType dtype) {
  if (dtype == cfg_.dtype) return;
  visit([&](const std::string&, Tensor& p) { p = p.detach().to(dtype).set_requires_grad(); });
  cfg_.dtype = dtype;
  rope_ = Rope(cfg_.head_dim(), cfg_.context, cfg_.rope_base, dtype);
}

void Model::zero_grad() {
  visit([](const std::string&, Tensor& p) { p.zero_grad(); });
}

}  // namespace glass::nn
