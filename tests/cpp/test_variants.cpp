// The model's variants (Config: norm pre|post|none, norm kind rms|layer,
// residuals on|off, init scale, sizes): their snapshot and parameter names
// against docs/model.md ("Variants", written out here, not read from the
// code), forward and backward of every variant against central finite
// differences in float64, the config in safetensors metadata (round trip and
// refusals), the ranges validate() enforces, and the per-block gradient norms
// the trainer logs.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "glass/io/config_json.h"
#include "glass/io/model_weights.h"
#include "glass/io/safetensors.h"
#include "glass/nn/model.h"
#include "glass/train/trainer.h"
#include "gradcheck.h"
#include "weights_helpers.h"

namespace {

using namespace glass;
using glass_test::same_weights;
using glass_test::values_near;
using glass_test::weights_of;
using nn::NormKind;
using nn::NormPlacement;
using Bytes = std::vector<uint8_t>;

using glass_test::all_variants;
using glass_test::label;

// The tiny float64 model of the finite-difference checks: all 256 byte ids
// exist, a few are used.
nn::Config tiny(int64_t blocks = 2) {
  nn::Config c;
  c.context = 8;
  c.d = 16;
  c.blocks = blocks;
  c.heads = 2;
  c.hidden = 24;
  c.eps = 1e-5;
  c.dtype = DType::f64;
  return c;
}

// Matrices ~ N(0, 0.3^2) (weights_helpers.h).
void randomise_variant(nn::Model& model, uint64_t seed) { glass_test::randomise(model, seed, 0.3); }

const std::vector<int32_t> kVariantIds = {3, 65, 200, 17, 255, 65, 3, 117, 200, 0};  // two rows of 5

// ---------------------------------------------------------------- names (docs/model.md, "Variants")

std::vector<std::string> expected_snapshots(const nn::Config& c) {
  std::vector<std::string> names = {"embed"};
  for (int64_t i = 0; i < c.blocks; ++i) {
    const std::string b = "blocks." + std::to_string(i) + ".";
    for (const std::string s : {"attn", "ffn"}) {
      switch (c.norm) {
        case NormPlacement::pre:
          names.push_back(b + "norm." + s);
          names.push_back(b + s);
          if (c.residual) names.push_back(b + "resid." + s);
          break;
        case NormPlacement::post:
          names.push_back(b + s);
          if (c.residual) names.push_back(b + "sum." + s);
          names.push_back(b + "norm." + s);
          break;
        case NormPlacement::none:
          names.push_back(b + s);
          if (c.residual) names.push_back(b + "resid." + s);
          break;
      }
    }
  }
  if (c.norm == NormPlacement::pre) names.push_back("norm.final");
  names.push_back("logits");
  return names;
}

// The stream: what each sublayer hands to the next.
std::vector<std::string> expected_stream(const nn::Config& c) {
  std::vector<std::string> names = {"embed"};
  for (int64_t i = 0; i < c.blocks; ++i)
    for (const std::string s : {"attn", "ffn"}) {
      const std::string b = "blocks." + std::to_string(i) + ".";
      if (c.norm == NormPlacement::post) names.push_back(b + "norm." + s);
      else names.push_back(b + (c.residual ? "resid." : "") + s);
    }
  return names;
}

std::vector<std::pair<std::string, Shape>> expected_params(const nn::Config& c) {
  const int64_t d = c.d, h = c.hidden;
  std::vector<std::pair<std::string, Shape>> want = {{"tok_emb.weight", {c.vocab, d}}};
  auto norm = [&](const std::string& prefix) {
    if (c.norm == NormPlacement::none) return;
    want.push_back({prefix + "gamma", {d}});
    if (c.norm_kind == NormKind::layer) want.push_back({prefix + "beta", {d}});
  };
  for (int64_t i = 0; i < c.blocks; ++i) {
    const std::string b = "blocks." + std::to_string(i) + ".";
    norm(b + "norm_attn.");
    for (const char* w : {"wq", "wk", "wv", "wo"}) want.push_back({b + "attn." + w + ".weight", {d, d}});
    norm(b + "norm_ffn.");
    want.push_back({b + "ffn.w_gate.weight", {h, d}});
    want.push_back({b + "ffn.w_up.weight", {h, d}});
    want.push_back({b + "ffn.w_down.weight", {d, h}});
  }
  if (c.norm == NormPlacement::pre) norm("norm_final.");
  want.push_back({"head.weight", {c.vocab, d}});
  return want;
}

TEST(Variants, DefaultIsTodaysModel) {
  const nn::Config c;
  EXPECT_EQ(c.norm, NormPlacement::pre);
  EXPECT_EQ(c.norm_kind, NormKind::rms);
  EXPECT_TRUE(c.residual);
  EXPECT_EQ(c.init_scale, nn::InitScale::depth);
  EXPECT_EQ(expected_snapshots(c).size(), 27u);  // docs/model.md's list
  nn::Model model;
  const auto out = model.forward(std::vector<int32_t>{1, 2, 3}, 1, true);
  EXPECT_EQ(out.snapshots.stream(), (std::vector<std::string>{"embed", "blocks.0.resid.attn", "blocks.0.resid.ffn",
                                                              "blocks.1.resid.attn", "blocks.1.resid.ffn",
                                                              "blocks.2.resid.attn", "blocks.2.resid.ffn",
                                                              "blocks.3.resid.attn", "blocks.3.resid.ffn"}));
}

TEST(Variants, SnapshotAndParameterNamesFollowTheConfig) {
  for (int64_t blocks : {1, 3}) {
    for (const nn::Config& c : all_variants(tiny(blocks))) {
      SCOPED_TRACE(label(c) + ", " + std::to_string(blocks) + " blocks");
      nn::Model model(c, 1);
      const auto want = expected_params(c);
      const auto got = model.named_parameters();
      ASSERT_EQ(got.size(), want.size());
      int64_t total = 0, gammas = 0;
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i].first, want[i].first);
        EXPECT_EQ(got[i].second.shape(), want[i].second) << want[i].first;
        total += got[i].second.numel();
        gammas += want[i].first.ends_with(".gamma");
      }
      EXPECT_EQ(model.parameter_count(), total);
      EXPECT_EQ(model.norm_count(), gammas);

      const auto out = model.forward(kVariantIds, 2, true);
      std::vector<std::string> names;
      for (const auto& [name, t] : out.snapshots.items()) {
        names.push_back(name);
        EXPECT_EQ(t.shape(), name == "logits" ? Shape({2, 5, 256}) : Shape({2, 5, 16})) << name;
      }
      EXPECT_EQ(names, expected_snapshots(c));
      EXPECT_EQ(out.snapshots.stream(), expected_stream(c));
      out.loss.backward();
      for (const auto& [name, t] : out.snapshots.items()) EXPECT_TRUE(t.grad().defined()) << name;
      for (const auto& [name, p] : model.named_parameters()) EXPECT_TRUE(p.grad().defined()) << name;
    }
  }
}

TEST(Variants, TransformerLensAliasesFollowTheStream) {
  nn::Config c = tiny(2);
  c.norm = NormPlacement::post;
  nn::Model model(c, 2);
  const auto out = model.forward(kVariantIds, 2, true);
  const nn::Snapshots& s = out.snapshots;
  EXPECT_EQ(s.resolve("blocks.0.hook_resid_pre"), "embed");
  EXPECT_EQ(s.resolve("blocks.0.hook_resid_mid"), "blocks.0.norm.attn");
  EXPECT_EQ(s.resolve("blocks.1.hook_resid_pre"), "blocks.0.norm.ffn");
  EXPECT_EQ(s.resolve("blocks.1.hook_resid_post"), "blocks.1.norm.ffn");
  EXPECT_EQ(s.get("blocks.1.hook_resid_mid").impl(), s.get("blocks.1.norm.attn").impl());
  EXPECT_FALSE(s.has("blocks.2.hook_resid_mid"));
  EXPECT_GLASS_ERROR([&] { s.get("blocks.2.hook_resid_post"); }, {"does not exist"});
}

TEST(Variants, TheFormulas) {
  // Each variant's block, rebuilt from the model's own modules and the
  // formulas of docs/model.md, gives the recorded snapshots bit for bit.
  for (const nn::Config& c : all_variants(tiny(1))) {
    SCOPED_TRACE(label(c));
    nn::Model model(c, 3);
    randomise_variant(model, 4);
    const auto out = model.forward(kVariantIds, 2, true);
    const nn::Snapshots& s = out.snapshots;
    const nn::Block& b = model.blocks[0];
    const nn::Rope rope(c.head_dim(), c.context, c.rope_base, c.dtype);
    const Tensor x = s.get("embed");
    auto norm_or_same = [](const std::optional<nn::Norm>& n, const Tensor& t) { return n ? (*n)(t) : t; };
    auto add_if = [&](const Tensor& a, const Tensor& f) { return c.residual ? a + f : f; };
    Tensor h, out_x;
    if (c.norm == NormPlacement::post) {
      h = (*b.norm_attn)(add_if(x, b.attn(x, rope)));                 // H = Norm(X + Attn(X))
      out_x = (*b.norm_ffn)(add_if(h, b.ffn(h)));                     // X' = Norm(H + FFN(H))
    } else {
      h = add_if(x, b.attn(norm_or_same(b.norm_attn, x), rope));      // H = X + Attn(Norm(X))
      out_x = add_if(h, b.ffn(norm_or_same(b.norm_ffn, h)));          // X' = H + FFN(Norm(H))
    }
    const auto stream = s.stream();
    EXPECT_EQ(s.get(stream[1]).to_vector(), h.to_vector());
    EXPECT_EQ(s.get(stream[2]).to_vector(), out_x.to_vector());
    const Tensor last = c.norm == NormPlacement::pre ? (*model.norm_final)(out_x) : out_x;
    EXPECT_EQ(out.logits.to_vector(), model.head(last).to_vector());
    EXPECT_EQ(model.norm_final.has_value(), c.norm == NormPlacement::pre);
  }
}

// ---------------------------------------------------------------- finite differences

// The loss from the stream entering block `from` on: the rest of the model,
// composed from its public modules (any variant).
Tensor rest_of_model(const nn::Model& model, const Tensor& x, size_t from, const std::vector<int32_t>& ids, int64_t batch) {
  const nn::Config& c = model.config();
  const nn::Rope rope(c.head_dim(), c.context, c.rope_base, c.dtype);
  Tensor h = x;
  for (size_t i = from; i < model.blocks.size(); ++i) h = model.blocks[i](h, rope, nullptr, "");
  if (model.norm_final) h = (*model.norm_final)(h);
  const Tensor logits = model.head(h);
  const int64_t n = static_cast<int64_t>(ids.size()) / batch;
  std::vector<int32_t> targets;
  for (int64_t b = 0; b < batch; ++b) targets.insert(targets.end(), ids.begin() + b * n + 1, ids.begin() + (b + 1) * n);
  return cross_entropy(slice(logits, 1, 0, n - 1), targets);
}

class VariantGradcheck : public ::testing::TestWithParam<nn::Config> {};

TEST_P(VariantGradcheck, LossGradientAgainstCentralDifferences) {
  const nn::Config c = GetParam();
  nn::Model model(c, 11);
  randomise_variant(model, 12);
  model.zero_grad();
  const auto out = model.forward(kVariantIds, 2, true);
  out.loss.backward();
  // post-norm LayerNorm without residuals curves sharply enough that h = 1e-5
  // leaves a truncation error of 1e-6 on the embedding (it shrinks as h^2);
  // rounding at 2e-6 is still below 1e-9
  const double h = 2e-6;

  // a sample of every parameter tensor's elements (all of each gamma and beta),
  // and every element of the used embedding rows
  Generator pick(13);
  int64_t checked = 0;
  for (auto& [name, p] : model.named_parameters()) {
    const std::vector<double> analytic = p.grad().to_vector();
    std::vector<size_t> at;
    if (name == "tok_emb.weight") {
      for (int32_t id : kVariantIds)
        for (size_t k = 0; k < 16; ++k) at.push_back(static_cast<size_t>(id) * 16 + k);
      std::sort(at.begin(), at.end());
      at.erase(std::unique(at.begin(), at.end()), at.end());
    } else if (p.ndim() == 1) {
      for (size_t j = 0; j < analytic.size(); ++j) at.push_back(j);
    } else {
      for (int k = 0; k < 12; ++k) at.push_back(static_cast<size_t>(pick.next_u64() % analytic.size()));
    }
    std::vector<double> a, numeric;
    double* w = p.mutable_data<double>();
    NoGradGuard no_grad;
    for (size_t j : at) {
      const double keep = w[j];
      w[j] = keep + h;
      const double up = model.forward(kVariantIds, 2).loss.item();
      w[j] = keep - h;
      const double down = model.forward(kVariantIds, 2).loss.item();
      w[j] = keep;
      a.push_back(analytic[j]);
      numeric.push_back((up - down) / (2 * h));
      ++checked;
    }
    EXPECT_TRUE(values_near(a, numeric, 1e-8, 1e-5)) << name;
  }
  EXPECT_GT(checked, 200);

  // the stream entering each block (the input embedding first): a snapshot's
  // gradient is the total derivative of the loss through every later use
  const auto stream = out.snapshots.stream();
  for (size_t block = 0; block < model.blocks.size(); ++block) {
    const std::string& name = stream[2 * block];
    const Tensor snap = out.snapshots.get(name);
    const std::vector<double> base = snap.to_vector();
    NoGradGuard no_grad;
    auto loss_at = [&](const std::vector<double>& v) {
      return rest_of_model(model, Tensor::from_f64(v, snap.shape()), block, kVariantIds, 2).item();
    };
    ASSERT_NEAR(loss_at(base), out.loss.item(), 1e-12) << name;
    std::vector<double> numeric(base.size());
    for (size_t j = 0; j < base.size(); ++j) {
      std::vector<double> v = base;
      v[j] = base[j] + h;
      const double up = loss_at(v);
      v[j] = base[j] - h;
      numeric[j] = (up - loss_at(v)) / (2 * h);
    }
    EXPECT_TRUE(values_near(snap.grad().to_vector(), numeric, 1e-8, 1e-5)) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryVariant, VariantGradcheck, ::testing::ValuesIn(all_variants(tiny(2))),
                         [](const ::testing::TestParamInfo<nn::Config>& info) {
                           std::string s = label(info.param);
                           std::replace(s.begin(), s.end(), '/', '_');
                           std::replace(s.begin(), s.end(), '-', '_');
                           return s;
                         });

// ---------------------------------------------------------------- init

TEST(Variants, OneSeedGivesEveryVariantTheSameMatrices) {
  // A and B runs of an experiment start from the same draws: norms draw nothing.
  nn::Config c = tiny(2);
  nn::Model base(c, 21);
  const auto wb = weights_of(base);
  for (const nn::Config& v : all_variants(c)) {
    nn::Model m(v, 21);
    for (const auto& [name, w] : weights_of(m))
      if (wb.count(name)) {
        EXPECT_EQ(w, wb.at(name)) << label(v) << " " << name;
      }
  }
}

TEST(Variants, InitScaleFlatLeavesTheOutputProjectionsAtTwoHundredths) {
  nn::Config c = tiny(4);
  nn::Model depth(c, 22);
  c.init_scale = nn::InitScale::flat;
  nn::Model flat(c, 22);
  const auto wd = weights_of(depth), wf = weights_of(flat);
  const double factor = std::sqrt(2.0 * 4);
  for (const auto& [name, v] : wd) {
    if (name.ends_with("wo.weight") || name.ends_with("w_down.weight")) {
      std::vector<double> scaled;
      for (double x : v) scaled.push_back(x * factor);
      EXPECT_TRUE(values_near(wf.at(name), scaled, 0, 1e-14)) << name;
    } else {
      EXPECT_EQ(wf.at(name), v) << name;
    }
  }
}

// ---------------------------------------------------------------- ranges

TEST(Variants, ValidateNamesTheFieldAndItsRange) {
  auto refused = [](auto change, std::initializer_list<std::string> fragments) {
    nn::Config c;
    change(c);
    return glass_test::throws_error([&] { c.validate(); }, fragments);
  };
  EXPECT_TRUE(refused([](nn::Config& c) { c.blocks = 0; }, {"blocks", "between 1 and 24", "got 0"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.blocks = 25; }, {"blocks", "between 1 and 24", "got 25"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.d = 8; }, {"d must be between 16 and 256", "got 8"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.d = 512; }, {"d must be between 16 and 256"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.context = 1; }, {"context", "between 2 and 256"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.context = 257; }, {"context", "between 2 and 256"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.heads = 3; }, {"heads must divide d", "d = 128, heads = 3"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.heads = 0; }, {"heads"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.heads = 128; }, {"even"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.vocab = 257; }, {"vocab", "between 2 and 256"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.hidden = 0; }, {"hidden", "between 1 and 1024"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.eps = -1e-9; }, {"eps", ">= 0"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.eps = INFINITY; }, {"eps", "finite"}));
  EXPECT_TRUE(refused([](nn::Config& c) { c.rope_base = 1; }, {"rope_base"}));
  nn::Config edge;
  edge.blocks = 24;
  edge.d = 256;
  edge.heads = 128;  // width 2, the narrowest RoPE head
  edge.context = 256;
  edge.hidden = 1024;
  EXPECT_NO_THROW(edge.validate());
  EXPECT_GLASS_ERROR([] { nn::parse_placement("middle"); }, {"\"middle\"", "pre, post, none"});
  EXPECT_GLASS_ERROR([] { nn::parse_norm_kind("batch"); }, {"\"batch\"", "rms, layer"});
  EXPECT_GLASS_ERROR([] { nn::parse_init_scale("deep"); }, {"\"deep\"", "depth, flat"});
}

// ---------------------------------------------------------------- config JSON

TEST(ConfigJson, RoundTripOfEveryVariant) {
  nn::Config odd = tiny(3);
  odd.eps = 0.1 + 0.2;  // not a short decimal: must come back to the same double
  odd.rope_base = 500.25;
  odd.init_scale = nn::InitScale::flat;
  odd.dtype = DType::f32;
  for (const nn::Config& c : all_variants(odd)) {
    const std::string text = io::config_to_json(c);
    EXPECT_EQ(io::config_from_json(text), c) << text;
  }
  EXPECT_EQ(io::config_to_json(nn::Config{}),
            R"({"vocab":256,"context":128,"d":128,"blocks":4,"heads":4,"hidden":384,"norm":"pre","norm_kind":"rms",)"
            R"("residual":true,"rope_base":10000.0,"eps":1e-06,"init_scale":"depth","dtype":"float32"})");
  // absent fields take their defaults
  nn::Config want;
  want.blocks = 12;
  want.norm = NormPlacement::post;
  EXPECT_EQ(io::config_from_json(R"({"blocks": 12, "norm": "post"})"), want);
  EXPECT_EQ(io::config_from_json("{}"), nn::Config{});
}

TEST(ConfigJson, RefusesNamingTheField) {
  auto bad = [](const std::string& text, std::initializer_list<std::string> fragments) {
    return glass_test::throws_error([&] { io::config_from_json(text); }, fragments);
  };
  EXPECT_TRUE(bad(R"({"blocks": 30})", {"config", "blocks must be between 1 and 24", "got 30"}));
  EXPECT_TRUE(bad(R"({"d": 8})", {"d must be between 16 and 256"}));
  EXPECT_TRUE(bad(R"({"heads": 3})", {"heads must divide d"}));
  EXPECT_TRUE(bad(R"({"blocks": 4.0})", {"field \"blocks\"", "whole number"}));
  EXPECT_TRUE(bad(R"({"blocks": -4})", {"field \"blocks\"", "whole number"}));
  EXPECT_TRUE(bad(R"({"blocks": "4"})", {"field \"blocks\"", "whole number"}));
  EXPECT_TRUE(bad(R"({"blocks": 99999999999999})", {"field \"blocks\"", "whole number"}));
  EXPECT_TRUE(bad(R"({"eps": "small"})", {"field \"eps\"", "number"}));
  EXPECT_TRUE(bad(R"({"eps": -1})", {"eps", ">= 0"}));
  EXPECT_TRUE(bad(R"({"norm": "middle"})", {"field \"norm\"", "\"middle\"", "pre, post, none"}));
  EXPECT_TRUE(bad(R"({"norm_kind": 1})", {"field \"norm_kind\"", "string"}));
  EXPECT_TRUE(bad(R"({"residual": "yes"})", {"field \"residual\"", "true or false"}));
  EXPECT_TRUE(bad(R"({"dtype": "bf16"})", {"field \"dtype\"", "bf16"}));
  EXPECT_TRUE(bad(R"({"init_scale": "deep"})", {"field \"init_scale\"", "depth, flat"}));
  EXPECT_TRUE(bad(R"({"layers": 4})", {"unknown field \"layers\"", "blocks"}));
  EXPECT_TRUE(bad(R"({"blocks": 4, "blocks": 5})", {"duplicate"}));
  EXPECT_TRUE(bad(R"({"blocks": {"n": 4}})", {"config"}));
  EXPECT_TRUE(bad(R"([4])", {"not a JSON object"}));
  EXPECT_TRUE(bad(R"({"blocks": 4)", {"config", "json"}));
}

// ---------------------------------------------------------------- safetensors

TEST(VariantWeights, SaveAndLoadGiveTheSameConfigAndBits) {
  nn::Config base = tiny(3);
  base.eps = 1e-3;
  base.context = 12;
  for (DType dtype : {DType::f32, DType::f64}) {
    base.dtype = dtype;
    for (const nn::Config& c : all_variants(base)) {
      SCOPED_TRACE(label(c) + " " + std::string(dtype_name(dtype)));
      nn::Model model(c, 31);
      randomise_variant(model, 32);
      const Bytes file = io::save_weights(model, {{"trained_steps", "7"}});
      const io::SafetensorsFile parsed = io::parse_safetensors(file);
      EXPECT_EQ(parsed.metadata.at("glassllm.config"), io::config_to_json(c));
      EXPECT_EQ(parsed.metadata.at("trained_steps"), "7");
      EXPECT_EQ(io::config_from_weights(file), c);
      const auto loaded = io::load_model(file, dtype);
      EXPECT_EQ(loaded->config(), c);
      EXPECT_TRUE(same_weights(weights_of(*loaded), weights_of(model)));
      const auto a = model.forward(kVariantIds, 2, true), b = loaded->forward(kVariantIds, 2, true);
      EXPECT_EQ(a.logits.to_vector(), b.logits.to_vector());
      EXPECT_EQ(a.loss.item(), b.loss.item());
      ASSERT_EQ(a.snapshots.items().size(), b.snapshots.items().size());
      for (size_t i = 0; i < a.snapshots.items().size(); ++i) {
        EXPECT_EQ(a.snapshots.items()[i].first, b.snapshots.items()[i].first);
        EXPECT_EQ(a.snapshots.items()[i].second.to_vector(), b.snapshots.items()[i].second.to_vector());
      }
      // and into a model built from the same config: in place
      nn::Model again(c, 99);
      io::load_weights(again, file);
      EXPECT_TRUE(same_weights(weights_of(again), weights_of(model)));
    }
  }
}

// The file with its "glassllm.config" replaced.
Bytes with_config(nn::Model& model, const std::string& config_json) {
  io::NamedTensors tensors = model.named_parameters();
  for (auto& named : tensors) named.second = named.second.detach();
  return io::serialize_safetensors(tensors, {{"glassllm.config", config_json}, {"format", "glassllm"}});
}

TEST(VariantWeights, RefusesAConfigThatDoesNotMatchTheTensors) {
  nn::Config c = tiny(2);
  c.dtype = DType::f32;
  nn::Model model(c, 41);
  auto from = [](const Bytes& file) { return [file] { io::config_from_weights(file); }; };
  auto json_with = [&](auto change) {
    nn::Config other = c;
    change(other);
    return io::config_to_json(other);
  };
  EXPECT_GLASS_ERROR(from(with_config(model, json_with([](nn::Config& o) { o.d = 32; }))),
                     {"config says vocab 256, d 32", "\"tok_emb.weight\"", "(256, 16)"});
  EXPECT_GLASS_ERROR(from(with_config(model, json_with([](nn::Config& o) { o.hidden = 48; }))),
                     {"config says hidden 48", "\"blocks.0.ffn.w_gate.weight\"", "(24, 16)"});
  EXPECT_GLASS_ERROR(from(with_config(model, json_with([](nn::Config& o) { o.blocks = 3; }))),
                     {"config says blocks 3", "2 blocks"});
  EXPECT_GLASS_ERROR(from(with_config(model, json_with([](nn::Config& o) { o.dtype = DType::f64; }))),
                     {"config says dtype float64", "is float32"});
  EXPECT_GLASS_ERROR(from(with_config(model, R"({"blocks": 30})")), {"weights", "blocks must be between 1 and 24"});
  EXPECT_GLASS_ERROR(from(with_config(model, "not json")), {"weights", "config"});
  // a variant whose names differ: refused by the walk, naming the tensor
  const Bytes says_layer = with_config(model, json_with([](nn::Config& o) { o.norm_kind = NormKind::layer; }));
  EXPECT_GLASS_ERROR([&] { io::load_model(says_layer, DType::f32); }, {"missing tensor \"blocks.0.norm_attn.beta\""});
  const Bytes says_none = with_config(model, json_with([](nn::Config& o) { o.norm = NormPlacement::none; }));
  EXPECT_GLASS_ERROR([&] { io::load_model(says_none, DType::f32); },
                     {"unexpected tensor \"blocks.0.norm_attn.gamma\"", "none-norm"});
  // older keys beside the config must agree with it
  io::NamedTensors tensors = model.named_parameters();
  for (auto& named : tensors) named.second = named.second.detach();
  EXPECT_GLASS_ERROR(from(io::serialize_safetensors(tensors, {{"glassllm.config", io::config_to_json(c)}, {"heads", "4"}})),
                     {"metadata \"heads\" is \"4\"", "heads 2"});
}

TEST(VariantWeights, LoadingIntoAnotherVariantIsRefusedAndChangesNothing) {
  nn::Config pre = tiny(2);
  nn::Config post = pre;
  post.norm = NormPlacement::post;
  nn::Config no_res = pre;
  no_res.residual = false;
  nn::Model a(pre, 51), b(post, 52), r(no_res, 53);
  const auto before_b = weights_of(b), before_r = weights_of(r);
  // same tensor names and shapes (pre/post RMSNorm differ only in norm_final): the config tells them apart
  EXPECT_GLASS_ERROR([&] { io::load_weights(r, io::save_weights(a)); }, {"differs", "residual: true vs false"});
  EXPECT_TRUE(same_weights(weights_of(r), before_r));
  EXPECT_GLASS_ERROR([&] { io::load_weights(b, io::save_weights(a)); }, {"differs", "norm: \"pre\" vs \"post\""});
  EXPECT_TRUE(same_weights(weights_of(b), before_b));
  // eps and dtype are settings, not architecture: a file loads into a model with another eps
  nn::Config other_eps = pre;
  other_eps.eps = 0.25;
  nn::Model e(other_eps, 54);
  io::load_weights(e, io::save_weights(a));
  EXPECT_TRUE(same_weights(weights_of(e), weights_of(a)));
  EXPECT_EQ(e.eps(), 0.25);
}

TEST(VariantWeights, AFileWithoutMetadataIsTheDefaultModel) {
  nn::Config c = tiny(2);
  c.dtype = DType::f32;
  nn::Model model(c, 61);
  io::NamedTensors tensors = model.named_parameters();
  for (auto& named : tensors) named.second = named.second.detach();
  const Bytes plain = io::serialize_safetensors(tensors);
  const nn::Config read = io::config_from_weights(plain);
  EXPECT_EQ(read.norm, NormPlacement::pre);
  EXPECT_EQ(read.norm_kind, NormKind::rms);
  EXPECT_TRUE(read.residual);
  EXPECT_EQ(read.init_scale, nn::InitScale::depth);
  EXPECT_EQ(read.eps, 1e-6);
  EXPECT_EQ(read.d, 16);  // sizes from the shapes
  EXPECT_EQ(read.blocks, 2);
  EXPECT_EQ(read.heads, 4);  // not in the shapes: the default
  // it loads into a default-architecture model, not into another variant
  io::load_weights(model, plain);
  nn::Config post = c;
  post.norm = NormPlacement::post;
  nn::Model p(post, 62);
  EXPECT_GLASS_ERROR([&] { io::load_weights(p, plain); }, {"norm: \"pre\" vs \"post\"", "without \"glassllm.config\" is the default model"});
}

// ---------------------------------------------------------------- trainer

TEST(VariantTraining, BlockGradNormsAreEachBlocksShareOfTheGlobalNorm) {
  nn::Config c = tiny(3);
  c.norm = NormPlacement::post;
  c.norm_kind = NormKind::layer;
  nn::Model model(c, 71);
  randomise_variant(model, 72);
  model.forward(kVariantIds, 2).loss.backward();
  const std::vector<double> norms = train::block_grad_norms(model);
  ASSERT_EQ(norms.size(), 3u);
  double rest = 0, all = 0;
  std::vector<double> by_block(3, 0.0);
  for (const auto& [name, p] : model.named_parameters()) {
    double s = 0;
    for (double g : p.grad().to_vector()) s += g * g;
    all += s;
    if (name.starts_with("blocks.")) by_block[static_cast<size_t>(name[7] - '0')] += s;
    else rest += s;
  }
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(norms[i], std::sqrt(by_block[i]), 1e-12 * std::sqrt(by_block[i]));
  double blocks = 0;
  for (double n : norms) blocks += n * n;
  EXPECT_NEAR(blocks + rest, all, 1e-12 * all);
  EXPECT_NEAR(std::sqrt(all), train::clip_grad_norm(model.named_parameters(), 0), 1e-12 * std::sqrt(all));
}

TEST(VariantTraining, ACheckpointResumesOnlyTheSameConfig) {
  std::string text;
  for (int i = 0; i < 40; ++i) text += "Pre-norm or post-norm: the run will tell. ";
  nn::Config c = tiny(2);
  c.norm = NormPlacement::post;
  const train::Corpus corpus(text, 0.1, 8);
  train::TrainOptions opt;
  opt.steps = 4;
  opt.batch = 2;
  opt.warmup = 1;
  opt.eval_every = 0;
  opt.eval_windows = 2;
  nn::Model model(c, 81);
  train::Trainer trainer(model, corpus, opt);
  std::vector<std::vector<double>> block_norms;
  trainer.run([&](const train::Progress& p) { block_norms.push_back(p.block_grad_norms); }, nullptr);
  ASSERT_EQ(block_norms.size(), 4u);
  for (const auto& n : block_norms) {
    ASSERT_EQ(n.size(), 2u);
    EXPECT_GT(n[0], 0);
    EXPECT_GT(n[1], 0);
  }
  const Bytes ckpt = trainer.checkpoint();
  EXPECT_EQ(io::config_from_json(io::parse_safetensors(ckpt).metadata.at("glassllm.config")), c);

  nn::Model same(c, 82);
  train::Trainer resumed(same, corpus, opt);
  resumed.restore(ckpt);
  EXPECT_EQ(resumed.step(), 4);
  EXPECT_TRUE(same_weights(weights_of(same), weights_of(model)));

  nn::Config other = c;
  other.eps = 1e-3;  // a setting, but a resumed run must be the run it continues
  nn::Model m2(other, 83);
  train::Trainer t2(m2, corpus, opt);
  const auto before = weights_of(m2);
  EXPECT_GLASS_ERROR([&] { t2.restore(ckpt); }, {"checkpoint", "another model", "eps: 1e-05 vs 0.001"});
  EXPECT_TRUE(same_weights(weights_of(m2), before));
  EXPECT_EQ(t2.step(), 0);
}

}  // namespace
