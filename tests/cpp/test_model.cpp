// The learner's model (nn::Model): parameter counts against figures derived
// here from docs/model.md's shapes, snapshot names and shapes, TransformerLens
// aliases, a whole-model gradient check in float64 against central finite
// differences (every parameter element and the residual-stream snapshots),
// causality, eps, dtype, seeding, the initial loss, and the parts of a block
// the lessons show.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "glass/io/bytes.h"
#include "glass/nn/model.h"
#include "gradcheck.h"
#include "weights_helpers.h"

namespace {

using namespace glass;
using glass_test::values_near;

// The tiny float64 configuration the gradient checks use.
nn::Config grad_config(int64_t blocks = 1) {
  nn::Config c;
  c.vocab = 11;
  c.context = 6;
  c.d = 16;  // the smallest width a Config allows
  c.blocks = blocks;
  c.heads = 2;
  c.hidden = 12;
  c.eps = 1e-5;
  c.dtype = DType::f64;
  return c;
}

// Matrices ~ N(0, 0.5^2) (weights_helpers.h).
void randomise_wide(nn::Model& model, uint64_t seed) { glass_test::randomise(model, seed, 0.5); }

std::vector<int32_t> random_ids(Generator& gen, size_t n, int64_t vocab) {
  std::vector<int32_t> ids(n);
  for (auto& x : ids) x = static_cast<int32_t>(gen.next_u64() % static_cast<uint64_t>(vocab));
  return ids;
}

using glass_test::same_weights;
using glass_test::weights_of;

// ---------------------------------------------------------------- parameter counts

TEST(Model, DefaultConfigurationIsTheDocumentedModel) {
  const nn::Config c;
  EXPECT_EQ(c.vocab, 256);
  EXPECT_EQ(c.context, 128);
  EXPECT_EQ(c.d, 128);
  EXPECT_EQ(c.blocks, 4);
  EXPECT_EQ(c.heads, 4);
  EXPECT_EQ(c.head_dim(), 32);
  EXPECT_EQ(c.hidden, 384);
  EXPECT_EQ(c.eps, 1e-6);
  EXPECT_EQ(c.rope_base, 10000.0);
  EXPECT_EQ(c.dtype, DType::f32);
}

TEST(Model, ParameterCountsOfTheDefaultModel) {
  nn::Model model;
  const int64_t V = 256, d = 128, hidden = 384, blocks = 4;
  // Figures derived from docs/model.md's shapes, not read back from the model:
  const int64_t norms_per_block = 2 * d;                  // norm_attn, norm_ffn gammas (d,)
  const int64_t attn_per_block = 4 * d * d;               // wq wk wv wo (d, d)
  const int64_t ffn_per_block = 2 * hidden * d + d * hidden;  // w_gate, w_up (hidden, d); w_down (d, hidden)
  const int64_t per_block = norms_per_block + attn_per_block + ffn_per_block;
  const int64_t embedding = V * d, head = V * d, final_norm = d;
  const int64_t total = embedding + blocks * per_block + final_norm + head;
  EXPECT_EQ(per_block, 213248);
  EXPECT_EQ(total, 918656);

  EXPECT_EQ(model.norm_count(), 9);
  EXPECT_EQ(model.parameter_count(), total);
  EXPECT_EQ(model.parameter_count(), 918656);
  for (int64_t i = 0; i < blocks; ++i) EXPECT_EQ(model.block_parameter_count(i), per_block) << "block " << i;
  EXPECT_EQ(model.block_parameter_count(4), 0);  // no such block

  std::map<std::string, nn::ParamGroup> by_kind;
  int64_t sum = 0;
  for (const nn::ParamGroup& g : model.parameter_table()) {
    EXPECT_TRUE(by_kind.emplace(g.kind, g).second) << "kind " << g.kind << " listed twice";
    sum += g.params;
  }
  EXPECT_EQ(sum, total);
  ASSERT_EQ(by_kind.size(), 5u);
  EXPECT_EQ(by_kind["norm"].tensors, 9);
  EXPECT_EQ(by_kind["norm"].params, 1152);
  EXPECT_EQ(by_kind["norm"].params, (2 * blocks + 1) * d);
  EXPECT_EQ(by_kind["embedding"].tensors, 1);
  EXPECT_EQ(by_kind["embedding"].params, embedding);
  EXPECT_EQ(by_kind["attention"].tensors, 4 * blocks);
  EXPECT_EQ(by_kind["attention"].params, blocks * attn_per_block);
  EXPECT_EQ(by_kind["ffn"].tensors, 3 * blocks);
  EXPECT_EQ(by_kind["ffn"].params, blocks * ffn_per_block);
  EXPECT_EQ(by_kind["head"].tensors, 1);
  EXPECT_EQ(by_kind["head"].params, head);
}

TEST(Model, ParameterCountsFollowTheConfig) {
  // Counts come from the live model: change the config and they change with it.
  for (const nn::Config& c : {grad_config(1), grad_config(3)}) {
    nn::Model model(c);
    const int64_t per_block = 2 * c.d + 4 * c.d * c.d + 3 * c.d * c.hidden;
    EXPECT_EQ(model.norm_count(), 2 * c.blocks + 1);
    EXPECT_EQ(model.parameter_count(), 2 * c.vocab * c.d + c.blocks * per_block + c.d);
    for (int64_t i = 0; i < c.blocks; ++i) EXPECT_EQ(model.block_parameter_count(i), per_block);
  }
}

TEST(Model, ParameterNamesShapesAndOrder) {
  nn::Config c = grad_config(2);
  nn::Model model(c);
  std::vector<std::pair<std::string, Shape>> want = {{"tok_emb.weight", {11, 16}}};
  for (int i = 0; i < 2; ++i) {
    const std::string b = "blocks." + std::to_string(i) + ".";
    want.push_back({b + "norm_attn.gamma", {16}});
    for (const char* w : {"wq", "wk", "wv", "wo"}) want.push_back({b + "attn." + w + ".weight", {16, 16}});
    want.push_back({b + "norm_ffn.gamma", {16}});
    want.push_back({b + "ffn.w_gate.weight", {12, 16}});
    want.push_back({b + "ffn.w_up.weight", {12, 16}});
    want.push_back({b + "ffn.w_down.weight", {16, 12}});
  }
  want.push_back({"norm_final.gamma", {16}});
  want.push_back({"head.weight", {11, 16}});
  const auto params = model.named_parameters();
  ASSERT_EQ(params.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(params[i].first, want[i].first);
    EXPECT_EQ(params[i].second.shape(), want[i].second) << want[i].first;
    EXPECT_EQ(params[i].second.dtype(), DType::f64) << want[i].first;
    EXPECT_TRUE(params[i].second.requires_grad()) << want[i].first;
    if (params[i].first.ends_with(".gamma")) {
      EXPECT_EQ(params[i].second.to_vector(), std::vector<double>(16, 1.0)) << "gamma starts at 1";
    }
  }
}

TEST(Model, ConfigIsValidated) {
  nn::Config c = grad_config();
  c.heads = 3;  // does not divide d = 16
  EXPECT_GLASS_ERROR([&] { nn::Model m(c); }, {"heads"});
  c = grad_config();
  c.heads = 16;  // head width 1: RoPE needs an even width
  EXPECT_GLASS_ERROR([&] { nn::Model m(c); }, {"even"});
  c = grad_config();
  c.blocks = 0;
  EXPECT_GLASS_ERROR([&] { nn::Model m(c); }, {"blocks"});
}

// ---------------------------------------------------------------- snapshots

std::vector<std::string> snapshot_names(int64_t blocks) {
  std::vector<std::string> names = {"embed"};
  for (int64_t i = 0; i < blocks; ++i)
    for (const char* s : {"norm.attn", "attn", "resid.attn", "norm.ffn", "ffn", "resid.ffn"})
      names.push_back("blocks." + std::to_string(i) + "." + s);
  names.push_back("norm.final");
  names.push_back("logits");
  return names;
}

TEST(Model, EverySnapshotNameShapeAndGradient) {
  nn::Model model;  // the default model, float32
  const std::string text = "Glass: caf\xC3\xA9 \xF0\x9F\x99\x82!";  // 18 bytes, multi-byte UTF-8
  const std::vector<int32_t> ids = io::encode_bytes(text);
  const int64_t n = static_cast<int64_t>(ids.size());
  ASSERT_EQ(n, 18);
  auto out = model.forward(ids, 1, /*record_snapshots=*/true);
  const std::vector<std::string> want = snapshot_names(4);
  ASSERT_EQ(want.size(), 27u);
  ASSERT_EQ(out.snapshots.items().size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const auto& [name, t] = out.snapshots.items()[i];
    EXPECT_EQ(name, want[i]);
    const Shape shape = name == "logits" ? Shape{1, n, 256} : Shape{1, n, 128};
    EXPECT_EQ(t.shape(), shape) << name;
    EXPECT_EQ(t.dtype(), DType::f32) << name;
    EXPECT_TRUE(out.snapshots.has(name));
    EXPECT_EQ(out.snapshots.get(name).impl(), t.impl());
  }
  EXPECT_EQ(out.logits.impl(), out.snapshots.get("logits").impl());
  ASSERT_TRUE(out.loss.defined());
  EXPECT_EQ(out.loss.shape(), Shape{});

  out.loss.backward();
  for (const auto& [name, t] : out.snapshots.items()) {
    const Tensor g = t.grad();
    ASSERT_TRUE(g.defined()) << "no gradient for snapshot " << name;
    EXPECT_EQ(g.shape(), t.shape()) << name;
    EXPECT_EQ(g.dtype(), t.dtype()) << name;
  }
  int64_t params = 0;
  for (const auto& [name, p] : model.named_parameters()) {
    const Tensor g = p.grad();
    ASSERT_TRUE(g.defined()) << "no gradient for parameter " << name;
    EXPECT_EQ(g.shape(), p.shape()) << name;
    EXPECT_EQ(g.dtype(), p.dtype()) << name;
    ++params;
  }
  EXPECT_EQ(params, 1 + 4 * 9 + 2);
  // The last position predicts nothing, so its logits get no gradient: all zeros there.
  const std::vector<double> gl = out.snapshots.get("logits").grad().to_vector();
  for (int64_t v = 0; v < 256; ++v) EXPECT_EQ(gl[static_cast<size_t>((n - 1) * 256 + v)], 0.0);
}

TEST(Model, SnapshotsOfABatchAndWithoutRecording) {
  nn::Model model(grad_config(2), 3);
  Generator gen(1);
  const std::vector<int32_t> ids = random_ids(gen, 3 * 5, 11);
  auto out = model.forward(ids, 3, true);
  for (const auto& [name, t] : out.snapshots.items())
    EXPECT_EQ(t.shape(), name == "logits" ? Shape({3, 5, 11}) : Shape({3, 5, 16})) << name;
  EXPECT_EQ(out.snapshots.items().size(), snapshot_names(2).size());
  auto plain = model.forward(ids, 3);
  EXPECT_TRUE(plain.snapshots.items().empty());
  EXPECT_EQ(plain.logits.to_vector(), out.logits.to_vector());
  EXPECT_EQ(plain.loss.item(), out.loss.item());
}

TEST(Model, ForwardRefusesBadInput) {
  nn::Model model(grad_config(), 3);
  const std::vector<int32_t> seven(7, 1), six(6, 1);
  EXPECT_GLASS_ERROR([&] { model.forward(seven, 1); }, {"context"});  // context 6
  EXPECT_GLASS_ERROR([&] { model.forward(six, 4); }, {"rows"});       // 6 ids cannot form 4 rows
  EXPECT_GLASS_ERROR([&] { model.forward(std::vector<int32_t>{}, 1); }, {"rows"});
  // One byte: logits but nothing to predict, so no loss.
  auto one = model.forward(std::vector<int32_t>{3}, 1);
  EXPECT_EQ(one.logits.shape(), Shape({1, 1, 11}));
  EXPECT_FALSE(one.loss.defined());
}

TEST(Model, TransformerLensAliases) {
  EXPECT_EQ(nn::resolve_alias("blocks.0.hook_resid_pre"), "embed");
  EXPECT_EQ(nn::resolve_alias("blocks.3.hook_resid_pre"), "blocks.2.resid.ffn");
  EXPECT_EQ(nn::resolve_alias("blocks.12.hook_resid_pre"), "blocks.11.resid.ffn");
  EXPECT_EQ(nn::resolve_alias("blocks.2.hook_resid_mid"), "blocks.2.resid.attn");
  EXPECT_EQ(nn::resolve_alias("blocks.2.hook_resid_post"), "blocks.2.resid.ffn");
  EXPECT_EQ(nn::resolve_alias("blocks.2.attn"), "blocks.2.attn");  // not an alias: unchanged
  EXPECT_EQ(nn::resolve_alias("logits"), "logits");

  nn::Model model(grad_config(2), 3);
  const std::vector<int32_t> ids = {1, 2, 3, 4};
  auto out = model.forward(ids, 1, true);
  const nn::Snapshots& s = out.snapshots;
  EXPECT_EQ(s.get("blocks.0.hook_resid_pre").impl(), s.get("embed").impl());
  for (int i = 0; i < 2; ++i) {
    const std::string b = "blocks." + std::to_string(i) + ".";
    if (i > 0) {
      EXPECT_EQ(s.get(b + "hook_resid_pre").impl(), s.get("blocks." + std::to_string(i - 1) + ".resid.ffn").impl());
    }
    EXPECT_EQ(s.get(b + "hook_resid_mid").impl(), s.get(b + "resid.attn").impl());
    EXPECT_EQ(s.get(b + "hook_resid_post").impl(), s.get(b + "resid.ffn").impl());
    EXPECT_TRUE(s.has(b + "hook_resid_mid"));
  }
  EXPECT_FALSE(s.has("blocks.5.resid.ffn"));
  EXPECT_GLASS_ERROR([&] { s.get("blocks.7.hook_resid_post"); }, {"blocks.7.hook_resid_post", "does not exist", "embed"});
}

// ---------------------------------------------------------------- whole-model gradient check

// Central difference of the model's loss with respect to one number that `poke`
// can write (a parameter element), evaluated without recording a graph.
template <class Poke>
double numeric_derivative(const nn::Model& model, const std::vector<int32_t>& ids, int64_t batch, double h, Poke poke) {
  NoGradGuard no_grad;
  poke(+h);
  const double up = model.forward(ids, batch).loss.item();
  poke(-2 * h);
  const double down = model.forward(ids, batch).loss.item();
  poke(+h);
  return (up - down) / (2 * h);
}

TEST(ModelGradcheck, EveryParameterElementAgainstFiniteDifferences) {
  nn::Model model(grad_config(1), 11);
  randomise_wide(model, 12);
  Generator gen(13);
  const int64_t batch = 2;
  const std::vector<int32_t> ids = random_ids(gen, 2 * 6, 11);  // two full-context rows
  model.zero_grad();
  const auto out = model.forward(ids, batch);
  out.loss.backward();

  int64_t checked = 0;
  for (auto& [name, p] : model.named_parameters()) {
    ASSERT_TRUE(p.grad().defined()) << name;
    const std::vector<double> analytic = p.grad().to_vector();
    std::vector<double> numeric(analytic.size());
    double* w = p.mutable_data<double>();
    for (size_t j = 0; j < numeric.size(); ++j) {
      numeric[j] = numeric_derivative(model, ids, batch, 1e-5, [&](double delta) { w[j] += delta; });
      ++checked;
    }
    EXPECT_TRUE(values_near(analytic, numeric, 1e-8, 1e-5)) << name;
  }
  EXPECT_EQ(checked, model.parameter_count());
  EXPECT_EQ(checked, 176 + 3 * 16 + 4 * 256 + 3 * 192 + 176);
}

// The loss as a function of the residual stream entering block `from`
// (or, with mid = true, of block from's resid.attn): the rest of the model,
// composed from its public modules.
Tensor rest_of_model(const nn::Model& model, const nn::Rope& rope, const Tensor& x, size_t from, bool mid,
                     const std::vector<int32_t>& ids, int64_t batch) {
  Tensor h = x;
  if (mid) {
    const nn::Block& b = model.blocks[from];
    h = h + b.ffn((*b.norm_ffn)(h));
    ++from;
  }
  for (size_t i = from; i < model.blocks.size(); ++i) h = model.blocks[i](h, rope, nullptr, "");
  const Tensor logits = model.head((*model.norm_final)(h));
  const int64_t n = static_cast<int64_t>(ids.size()) / batch;
  std::vector<int32_t> targets;
  for (int64_t b = 0; b < batch; ++b) targets.insert(targets.end(), ids.begin() + b * n + 1, ids.begin() + (b + 1) * n);
  return cross_entropy(slice(logits, 1, 0, n - 1), targets);
}

// A snapshot's gradient is the total derivative of the loss: perturb the
// recorded tensor, run the rest of the model, compare with snapshot.grad().
void check_snapshot_gradient(const nn::Model& model, const nn::Model::Output& out, const std::string& name, size_t from,
                             bool mid, const std::vector<int32_t>& ids, int64_t batch) {
  const nn::Config& c = model.config();
  const nn::Rope rope(c.head_dim(), c.context, c.rope_base, c.dtype);
  const Tensor snap = out.snapshots.get(name);
  ASSERT_TRUE(snap.grad().defined()) << name;
  const std::vector<double> base = snap.to_vector();
  NoGradGuard no_grad;
  auto loss_at = [&](const std::vector<double>& v) {
    return rest_of_model(model, rope, Tensor::from_f64(v, snap.shape()), from, mid, ids, batch).item();
  };
  // The composition really is the rest of the model.
  ASSERT_NEAR(loss_at(base), out.loss.item(), 1e-12) << name;
  std::vector<double> numeric(base.size());
  const double h = 1e-5;
  for (size_t j = 0; j < base.size(); ++j) {
    std::vector<double> v = base;
    v[j] = base[j] + h;
    const double up = loss_at(v);
    v[j] = base[j] - h;
    numeric[j] = (up - loss_at(v)) / (2 * h);
  }
  EXPECT_TRUE(values_near(snap.grad().to_vector(), numeric, 1e-8, 1e-5)) << name;
}

TEST(ModelGradcheck, SnapshotGradientsAreTotalDerivatives) {
  // Two blocks: blocks.0.resid.ffn feeds block 1's norm AND its residual, and
  // blocks.0.resid.attn feeds block 0's ffn norm AND the residual; a gradient
  // that misses either use fails here.
  nn::Model model(grad_config(2), 21);
  randomise_wide(model, 22);
  Generator gen(23);
  const int64_t batch = 2;
  const std::vector<int32_t> ids = random_ids(gen, 2 * 6, 11);
  const auto out = model.forward(ids, batch, true);
  out.loss.backward();
  check_snapshot_gradient(model, out, "embed", 0, false, ids, batch);
  check_snapshot_gradient(model, out, "blocks.0.resid.attn", 0, true, ids, batch);
  check_snapshot_gradient(model, out, "blocks.0.resid.ffn", 1, false, ids, batch);
  check_snapshot_gradient(model, out, "blocks.1.resid.attn", 1, true, ids, batch);
  check_snapshot_gradient(model, out, "blocks.1.resid.ffn", 2, false, ids, batch);
}

TEST(ModelGradcheck, EmbedGradientIsTheEmbeddingRowsGradient) {
  // With distinct bytes in one row, d loss / d embed[t] is exactly the
  // gradient of tok_emb's row for byte t.
  nn::Model model(grad_config(1), 31);
  randomise_wide(model, 32);
  const std::vector<int32_t> ids = {4, 0, 9, 2, 7, 10};
  const auto out = model.forward(ids, 1, true);
  out.loss.backward();
  const std::vector<double> ge = out.snapshots.get("embed").grad().to_vector();
  const std::vector<double> gw = model.tok_emb.weight.grad().to_vector();
  for (size_t t = 0; t < ids.size(); ++t)
    for (size_t k = 0; k < 16; ++k) EXPECT_NEAR(ge[t * 16 + k], gw[static_cast<size_t>(ids[t]) * 16 + k], 1e-15);
  // unused bytes get a zero row
  for (int32_t v : {1, 3, 5, 6, 8})
    for (size_t k = 0; k < 16; ++k) EXPECT_EQ(gw[static_cast<size_t>(v) * 16 + k], 0.0);
}

// ---------------------------------------------------------------- behaviour

// Max |a - b| over positions [lo, hi) of (1, n, V) logits.
double max_diff(const std::vector<double>& a, const std::vector<double>& b, int64_t V, int64_t lo, int64_t hi) {
  double m = 0;
  for (int64_t i = lo * V; i < hi * V; ++i) m = std::max(m, std::fabs(a[static_cast<size_t>(i)] - b[static_cast<size_t>(i)]));
  return m;
}

TEST(Model, CausalChangingByteTChangesNoEarlierLogits) {
  nn::Config c = grad_config(2);
  c.context = 16;
  nn::Model model(c, 41);
  randomise_wide(model, 42);
  Generator gen(43);
  const std::vector<int32_t> ids = random_ids(gen, 16, 11);
  const std::vector<double> base = model.forward(ids, 1).logits.to_vector();
  for (int64_t t : {0, 1, 7, 15}) {
    std::vector<int32_t> changed = ids;
    changed[static_cast<size_t>(t)] = (ids[static_cast<size_t>(t)] + 1) % 11;
    const std::vector<double> now = model.forward(changed, 1).logits.to_vector();
    EXPECT_LE(max_diff(base, now, 11, 0, t), 1e-13) << "logits before position " << t << " changed";
    EXPECT_GT(max_diff(base, now, 11, t, t + 1), 1e-6) << "position " << t << " did not change";
  }
}

TEST(Model, CausalDefaultModel) {
  nn::Model model({}, 44);
  Generator gen(45);
  const std::vector<int32_t> ids = random_ids(gen, 40, 256);
  const std::vector<double> base = model.forward(ids, 1).logits.to_vector();
  std::vector<int32_t> changed = ids;
  changed[20] = (ids[20] + 77) % 256;
  const std::vector<double> now = model.forward(changed, 1).logits.to_vector();
  EXPECT_LE(max_diff(base, now, 256, 0, 20), 1e-6);
  EXPECT_GT(max_diff(base, now, 256, 20, 21), 1e-3);
  EXPECT_GT(max_diff(base, now, 256, 21, 40), 1e-4);  // later positions attend to it
}

TEST(Model, SetEpsChangesAllNineNormsAndTheOutput) {
  nn::Model model({}, 51);
  const std::vector<int32_t> ids = io::encode_bytes("RMSNorm eps, all nine at once.");
  const std::vector<double> before = model.forward(ids, 1).logits.to_vector();
  EXPECT_EQ(model.eps(), 1e-6);
  model.set_eps(0.5);
  EXPECT_EQ(model.eps(), 0.5);
  int norms = 0;
  for (const nn::Block& b : model.blocks) {
    EXPECT_EQ(b.norm_attn->eps(), 0.5);
    EXPECT_EQ(b.norm_ffn->eps(), 0.5);
    norms += 2;
  }
  EXPECT_EQ(model.norm_final->eps(), 0.5);
  EXPECT_EQ(norms + 1, 9);
  const std::vector<double> after = model.forward(ids, 1).logits.to_vector();
  EXPECT_GT(max_diff(before, after, 256, 0, static_cast<int64_t>(ids.size())), 1e-3);

  EXPECT_GLASS_ERROR([&] { model.set_eps(-1); }, {"eps"});
  EXPECT_GLASS_ERROR([&] { model.set_eps(std::nan("")); }, {"eps"});
  EXPECT_EQ(model.eps(), 0.5);  // a refused value changes nothing
  EXPECT_EQ(model.blocks[2].norm_ffn->eps(), 0.5);
}

TEST(Model, SetEpsIsTheSameAsBuildingWithThatEps) {
  nn::Config c = grad_config(2);
  nn::Model a(c, 52);
  randomise_wide(a, 53);
  c.eps = 0.25;
  nn::Model b(c, 52);
  randomise_wide(b, 53);
  a.set_eps(0.25);
  const std::vector<int32_t> ids = {1, 5, 3, 9, 0, 2};
  EXPECT_EQ(a.forward(ids, 1).logits.to_vector(), b.forward(ids, 1).logits.to_vector());
  // and each norm matters: changing only the last one changes the output
  const std::vector<double> base = a.forward(ids, 1).logits.to_vector();
  a.norm_final->set_eps(2.0);
  EXPECT_GT(max_diff(base, a.forward(ids, 1).logits.to_vector(), 11, 0, 6), 1e-6);
}

TEST(Model, ToFloat64GivesTheSameLogits) {
  nn::Model model({}, 61);
  const std::vector<int32_t> ids = io::encode_bytes("float32 and float64: the same model, twice.");
  const auto weights32 = weights_of(model);
  const Tensor l32 = model.forward(ids, 1).logits;
  ASSERT_EQ(l32.dtype(), DType::f32);
  model.to(DType::f64);
  EXPECT_EQ(model.config().dtype, DType::f64);
  for (const auto& [name, p] : model.named_parameters()) {
    EXPECT_EQ(p.dtype(), DType::f64) << name;
    EXPECT_TRUE(p.requires_grad()) << name;
  }
  const auto out64 = model.forward(ids, 1);
  ASSERT_EQ(out64.logits.dtype(), DType::f64);
  EXPECT_TRUE(values_near(out64.logits.to_vector(), l32.to_vector(), 1e-5));
  out64.loss.backward();  // float64 parameters train too
  EXPECT_EQ(model.head.weight.grad().dtype(), DType::f64);
  model.to(DType::f32);
  EXPECT_TRUE(same_weights(weights_of(model), weights32));  // f32 -> f64 -> f32 is exact
}

TEST(Model, SameSeedSameWeightsDifferentSeedDifferentWeights) {
  nn::Model a({}, 7), b({}, 7), c({}, 8);
  const auto wa = weights_of(a), wb = weights_of(b), wc = weights_of(c);
  EXPECT_TRUE(same_weights(wa, wb));
  for (const auto& [name, v] : wa) {
    if (name.ends_with(".gamma")) continue;  // all ones for every seed
    EXPECT_NE(v, wc.at(name)) << name;
  }
  // The initialisation is the documented std 0.02 (roughly).
  const std::vector<double>& e = wa.at("tok_emb.weight");
  double ss = 0;
  for (double x : e) ss += x * x;
  EXPECT_NEAR(std::sqrt(ss / static_cast<double>(e.size())), 0.02, 0.002);
}

TEST(Model, FreshModelLossIsLn256) {
  nn::Model model({}, 71);
  Generator gen(72);
  const std::vector<int32_t> ids = random_ids(gen, 2 * 128, 256);
  const double loss = model.forward(ids, 2).loss.item();
  EXPECT_NEAR(loss, std::log(256.0), 0.05);
  const double text_loss = model.forward(io::encode_bytes("In the beginning was the byte, and the byte was UTF-8."), 1).loss.item();
  EXPECT_NEAR(text_loss, std::log(256.0), 0.05);
}

// ---------------------------------------------------------------- the parts the lessons show
// (nn::AttentionParts, nn::SwiGLUParts) and RoPE at an offset: the forward pass's own
// computation, so the parts' output is the model's snapshot to the bit, and each
// intermediate is checked against its definition with plain ops.

const std::vector<int32_t> kModelIds = {3, 1, 4, 1, 5, 9};

TEST(ModelParts, AttentionPartsAreTheForwardPassOwnComputation) {
  nn::Model model(grad_config(2), 7);
  randomise_wide(model, 11);
  const auto run = model.forward(kModelIds, 1, /*record_snapshots=*/true);
  NoGradGuard no_grad;
  const int64_t n = 6, h = model.config().heads, k = model.config().head_dim();
  for (int b = 0; b < 2; ++b) {
    const std::string prefix = "blocks." + std::to_string(b) + ".";
    const nn::AttentionParts p = model.blocks[b].attn.parts(run.snapshots.get(prefix + "norm.attn"), model.rope());
    // the output is the snapshot the forward pass recorded, bit for bit
    EXPECT_EQ(p.out.to_vector(), run.snapshots.get(prefix + "attn").to_vector()) << b;
    EXPECT_EQ(p.q.shape(), Shape({1, h, n, k}));
    EXPECT_EQ(p.weights.shape(), Shape({1, h, n, n}));
    EXPECT_EQ(p.heads.shape(), Shape({1, h, n, k}));
    // scores: q.k / sqrt(k) on and below the diagonal, 0 above; weights: softmax rows, 0 above
    const std::vector<double> full = (matmul(p.q, transpose(p.k)) * (1.0 / std::sqrt(static_cast<double>(k)))).to_vector();
    const std::vector<double> scores = p.scores.to_vector(), weights = p.weights.to_vector();
    for (int64_t hh = 0; hh < h; ++hh)
      for (int64_t i = 0; i < n; ++i) {
        double row = 0;
        for (int64_t j = 0; j < n; ++j) {
          const size_t at = static_cast<size_t>((hh * n + i) * n + j);
          if (j > i) {
            EXPECT_EQ(scores[at], 0.0);
            EXPECT_EQ(weights[at], 0.0);
          } else {
            EXPECT_NEAR(scores[at], full[at], 1e-12);
          }
          row += weights[at];
        }
        EXPECT_NEAR(row, 1.0, 1e-12);
      }
    // each head's output is its weights times v
    EXPECT_TRUE(values_near(p.heads.to_vector(), matmul(p.weights, p.v).to_vector(), 1e-12, 1e-12));
  }
}

// A plain run takes attention's fused op (causal_attention), a run that
// records the attention patterns the three ops whose weights the inspector
// shows: the default float32 model must give the same loss and every
// parameter the same gradient, bit for bit.
TEST(ModelParts, RunsWithAndWithoutAttentionPatternsGiveTheSameBits) {
  nn::Model model({}, 5);
  Generator gen(6);
  const std::vector<int32_t> ids = random_ids(gen, 2 * 128, 256);
  std::vector<std::vector<double>> grads[2];
  double loss[2];
  for (int recorded = 0; recorded < 2; ++recorded) {
    model.zero_grad();
    const auto out = model.forward(ids, 2, nn::ForwardOptions{.record_snapshots = recorded == 1, .record_patterns = recorded == 1});
    if (recorded == 1) EXPECT_TRUE(out.snapshots.has("blocks.0.attn.pattern"));
    out.loss.backward();
    loss[recorded] = out.loss.item();
    for (auto& [name, p] : model.named_parameters()) grads[recorded].push_back(p.grad().to_vector());
  }
  EXPECT_EQ(loss[0], loss[1]);
  ASSERT_EQ(grads[0].size(), grads[1].size());
  for (std::size_t i = 0; i < grads[0].size(); ++i) EXPECT_EQ(grads[0][i], grads[1][i]) << model.named_parameters()[i].first;
}

TEST(ModelParts, SwiGLUPartsAreTheForwardPassOwnComputation) {
  nn::Model model(grad_config(2), 7);
  randomise_wide(model, 12);
  const auto run = model.forward(kModelIds, 1, true);
  NoGradGuard no_grad;
  for (int b = 0; b < 2; ++b) {
    const std::string prefix = "blocks." + std::to_string(b) + ".";
    const nn::SwiGLUParts p = model.blocks[b].ffn.parts(run.snapshots.get(prefix + "norm.ffn"));
    EXPECT_EQ(p.out.to_vector(), run.snapshots.get(prefix + "ffn").to_vector()) << b;
    EXPECT_EQ(p.gate.shape(), Shape({1, 6, 12}));
    EXPECT_EQ(p.act.to_vector(), silu(p.gate).to_vector());
    EXPECT_EQ(p.hidden.to_vector(), (p.act * p.up).to_vector());
  }
}

TEST(ModelParts, RopeAtAnOffsetIsRopeOfThoseRows) {
  const nn::Config c = grad_config();
  const nn::Rope rope(c.head_dim(), c.context, c.rope_base, DType::f64);
  Generator gen(5);
  const int64_t k = c.head_dim();
  const Tensor x = Tensor::randn({2, 6, k}, gen, DType::f64);  // (h, n, k)
  const std::vector<double> whole = rope(x).to_vector();
  for (int64_t offset : {0, 1, 3}) {
    const std::vector<double> part = rope(slice(x, 1, offset, 6), offset).to_vector();  // rows offset..5
    size_t at = 0;
    for (int64_t hh = 0; hh < 2; ++hh)
      for (int64_t row = offset; row < 6; ++row)
        for (int64_t j = 0; j < k; ++j) EXPECT_EQ(part[at++], whole[static_cast<size_t>((hh * 6 + row) * k + j)]) << offset;
  }
  EXPECT_THROW(rope(slice(x, 1, 0, 2), 5), Error);   // positions 5 and 6: past the context of 6
  EXPECT_THROW(rope(x, -1), Error);
  EXPECT_THROW(rope(Tensor::randn({4}, gen, DType::f64)), Error);  // one axis: no positions
}

}  // namespace
