// Issue 12's tools on every variant: attention pattern snapshots, the residual
// ledger (forward sum and gradient split), the logit lens, interventions and
// the gradient check; that each leaves the weights as they were, and that a
// bad request is refused with a message naming what exists.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "glass/glass.h"
#include "glass/nn/attention_summary.h"
#include "glass/nn/gradient_check.h"
#include "glass/nn/interventions.h"
#include "glass/nn/logit_lens.h"
#include "glass/nn/model.h"
#include "glass/nn/residual_ledger.h"
#include "glass/tensor/ops.h"
#include "weights_helpers.h"

namespace {

using namespace glass;
using glass_test::same_weights;
using glass_test::weights_of;
using nn::NormKind;
using nn::NormPlacement;

using glass_test::all_variants;
using glass_test::label;

nn::Config tiny(DType dtype = DType::f64) {
  nn::Config c;
  c.context = 12;
  c.d = 16;
  c.blocks = 2;
  c.heads = 2;
  c.hidden = 24;
  c.eps = 1e-5;
  c.dtype = dtype;
  return c;
}

// Weights large enough that attention is sharp and every nonlinearity bends:
// matrices ~ N(0, 0.3^2) (weights_helpers.h).
nn::Model make(const nn::Config& c, uint64_t seed = 7) {
  nn::Model m(c, seed);
  glass_test::randomise(m, seed, 0.3);
  return m;
}

const std::vector<int32_t> kHelloIds = {72, 101, 108, 108, 111, 44, 32, 119, 111, 114, 108, 100};

nn::Model::Output run(const nn::Model& m, bool patterns = false, const nn::Edits* edits = nullptr, bool backward = true) {
  nn::Model::Output out = m.forward(kHelloIds, 1, nn::ForwardOptions{.record_snapshots = true, .record_patterns = patterns, .edits = edits});
  if (backward) out.loss.backward();
  return out;
}

double max_abs(const Tensor& a, const Tensor& b) {
  const auto va = a.to_vector(), vb = b.to_vector();
  EXPECT_EQ(va.size(), vb.size());
  double m = 0;
  for (std::size_t i = 0; i < va.size(); ++i) m = std::max(m, std::fabs(va[i] - vb[i]));
  return m;
}

bool bitwise_equal(const Tensor& a, const Tensor& b) { return a.shape() == b.shape() && a.to_vector() == b.to_vector(); }

// ---------------------------------------------------------------- patterns

TEST(Patterns, RecordedOnlyWhenAskedFromTheModelsOwnSoftmax) {
  for (const nn::Config& c : all_variants(tiny())) {
    SCOPED_TRACE(label(c));
    nn::Model m = make(c);
    const auto plain = run(m, false);
    const auto with = run(m, true);
    for (const auto& [name, t] : plain.snapshots.items()) EXPECT_EQ(name.find("pattern"), std::string::npos) << name;
    // recording the patterns changes no number of the run
    EXPECT_TRUE(bitwise_equal(plain.logits, with.logits));
    EXPECT_EQ(plain.loss.item(), with.loss.item());
    for (std::size_t i = 0; i < m.blocks.size(); ++i) {
      const std::string p = "blocks." + std::to_string(i) + ".";
      const Tensor& pat = with.snapshots.get(p + "attn.pattern");
      EXPECT_EQ(pat.shape(), (Shape{1, c.heads, 12, 12}));
      EXPECT_TRUE(pat.grad().defined()) << "the pattern has a gradient like every snapshot";
      // the same weights Attention::parts computes on the branch's input
      const std::string in = c.norm == NormPlacement::pre ? p + "norm.attn" : (i == 0 ? "embed" : "blocks.0.norm.ffn");
      if (c.norm == NormPlacement::pre) {
        NoGradGuard ng;
        EXPECT_TRUE(bitwise_equal(pat, m.blocks[i].attn.parts(with.snapshots.get(in), m.rope()).weights));
      }
    }
    const nn::AttentionSummary s = nn::attention_summary(m, with);
    EXPECT_LE(s.row_sum_max_error, 1e-12);
    EXPECT_EQ(s.above_diagonal_max, 0.0);
    ASSERT_EQ(s.heads.size(), static_cast<std::size_t>(c.blocks * c.heads));
    for (const auto& h : s.heads) {
      EXPECT_GE(h.previous, 0.0);
      EXPECT_LE(h.previous + h.same, 1.0 + 1e-12);
      EXPECT_GE(h.mean_distance, 0.0);
      EXPECT_LE(h.mean_distance, 11.0);
    }
    EXPECT_THROW(nn::attention_summary(m, plain), Error);
  }
}

TEST(Patterns, HeadSummaryMatchesItsDefinition) {
  nn::Model m = make(tiny());
  const auto r = run(m, true, nullptr, false);
  const auto s = nn::attention_summary(m, r);
  const Tensor& p = r.snapshots.get("blocks.1.attn.pattern");  // (1, 2, 12, 12)
  double prev = 0, same = 0, first = 0, dist = 0;
  for (int64_t t = 1; t < 12; ++t) {
    prev += p.at({0, 1, t, t - 1});
    same += p.at({0, 1, t, t});
    first += p.at({0, 1, t, 0});
    for (int64_t j = 0; j <= t; ++j) dist += p.at({0, 1, t, j}) * static_cast<double>(t - j);
  }
  const nn::HeadSummary& h = s.heads[3];  // block 1, head 1
  EXPECT_EQ(h.block, 1);
  EXPECT_EQ(h.head, 1);
  EXPECT_NEAR(h.previous, prev / 11, 1e-15);
  EXPECT_NEAR(h.same, same / 11, 1e-15);
  EXPECT_NEAR(h.first, first / 11, 1e-15);
  EXPECT_NEAR(h.mean_distance, dist / 11, 1e-14);
}

// ---------------------------------------------------------------- ledger

TEST(Ledger, TheStreamIsTheSumOfItsContributionsAndSoIsTheGradient) {
  for (const nn::Config& c : all_variants(tiny())) {
    SCOPED_TRACE(label(c));
    nn::Model m = make(c);
    const auto r = run(m);
    if (auto why = nn::ledger_refusal(c)) {
      try {
        nn::residual_ledger(m, r);
        ADD_FAILURE() << "not refused";
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(c.residual ? "post-norm" : "residual connections"), std::string::npos) << e.what();
      }
      continue;
    }
    const nn::ResidualLedger L = nn::residual_ledger(m, r);
    EXPECT_EQ(L.total_name, "blocks.1.resid.ffn");
    ASSERT_EQ(L.terms.size(), 5u);  // embed, attn and ffn of 2 blocks
    EXPECT_EQ(L.terms[0].name, "embed");
    EXPECT_EQ(L.terms[4].name, "blocks.1.ffn");
    EXPECT_LE(L.max_abs_diff, 1e-12);
    for (std::size_t t = 0; t < 12; ++t) {
      double share = 0;
      for (const auto& term : L.terms) share += term.share[t];
      EXPECT_NEAR(share, 1.0, 1e-12);
    }
    double total_share = 0;
    for (const auto& term : L.terms) total_share += term.total_share;
    EXPECT_NEAR(total_share, 1.0, 1e-12);
    // backward: g_0 = g_K + sum_k J^T g_{k+1}, each term differentiated on its own
    ASSERT_TRUE(L.has_grad);
    ASSERT_EQ(L.grad_terms.size(), 5u);
    EXPECT_EQ(L.grad_terms[0].name, "residual path");
    double gscale = 0;
    for (double v : L.grad_total_norm) gscale = std::max(gscale, v);
    EXPECT_LE(L.grad_max_abs_diff, 1e-12 * gscale);
    EXPECT_GT(L.grad_terms[1].total_norm, 0.0);
    EXPECT_EQ(L.grad_through_identity.size(), 4u);
    // the residual path's term is the gradient at the last stream itself
    EXPECT_NEAR(L.grad_terms[0].total_norm, std::sqrt(sum(square(r.snapshots.get("blocks.1.resid.ffn").grad())).item()), 1e-12);
  }
}

TEST(Ledger, BreaksWhenTheSumIsWrong) {
  // the gradient check is not an identity: drop one branch's term and it fails
  nn::Model m = make(tiny());
  const auto r = run(m);
  const nn::ResidualLedger L = nn::residual_ledger(m, r);
  double without_last = 0;
  for (std::size_t i = 0; i + 1 < L.grad_terms.size(); ++i) without_last += L.grad_terms[i].total_share;
  EXPECT_GT(std::fabs(without_last - 1.0), 1e-6);
}

// ---------------------------------------------------------------- logit lens

TEST(LogitLens, EveryDepthAndTheLastIsTheModel) {
  for (DType dt : {DType::f64, DType::f32})
    for (const nn::Config& c : all_variants(tiny(dt))) {
      SCOPED_TRACE(label(c) + " " + std::string(dtype_name(dt)));
      nn::Model m = make(c);
      const auto r = run(m, false, nullptr, false);
      const nn::LogitLens lens = nn::logit_lens(m, r, kHelloIds);
      EXPECT_EQ(lens.depths, r.snapshots.stream());
      EXPECT_EQ(lens.logits.shape(), (Shape{5, 12, 256}));
      EXPECT_EQ(lens.last_depth_max_abs, 0.0);
      EXPECT_TRUE(bitwise_equal(slice(lens.logits, 0, 4, 5), r.logits));
      EXPECT_NEAR(lens.mean_loss.back(), r.loss.item(), dt == DType::f64 ? 1e-12 : 1e-5);
      ASSERT_EQ(lens.loss.size(), 5u);
      EXPECT_EQ(lens.loss[0].size(), 11u);
      // depth 0 reads the embedding through the same readout
      const Tensor e = m.readout(r.snapshots.get("embed"));
      EXPECT_TRUE(bitwise_equal(slice(lens.logits, 0, 0, 1), e));
    }
}

TEST(LogitLens, ReadsWithTheRunsOwnFinalNorm) {
  nn::Model m = make(tiny());
  const nn::Intervention iv = nn::parse_intervention("identityNorm:norm_final");
  const nn::Edits e = nn::compile_interventions(m, std::span(&iv, 1));
  const auto r = run(m, false, &e, false);
  EXPECT_EQ(nn::logit_lens(m, r, kHelloIds).last_depth_max_abs, 0.0);
}

// ---------------------------------------------------------------- interventions

nn::Model::Output intervened(const nn::Model& m, const std::string& text, bool patterns = false) {
  const nn::Intervention iv = nn::parse_intervention(text);
  const nn::Edits e = nn::compile_interventions(m, std::span(&iv, 1));
  return run(m, patterns, &e);
}

TEST(Interventions, EachDoesWhatItSaysAndLeavesTheWeights) {
  for (const nn::Config& c : all_variants(tiny())) {
    SCOPED_TRACE(label(c));
    nn::Model m = make(c);
    const auto before = weights_of(m);
    const auto plain = run(m, true);
    const double plain_loss = plain.loss.item();
    const auto changes_of = [&](const nn::Model::Output& r) { return nn::compare_snapshots(plain.snapshots, r.snapshots); };

    // zero: the branch's output is 0, what came before it is untouched, the loss moves
    const auto z = intervened(m, "zero:blocks.1.ffn", true);
    for (double v : z.snapshots.get("blocks.1.ffn").to_vector()) ASSERT_EQ(v, 0.0);
    for (const auto& ch : changes_of(z)) {
      if (ch.name.starts_with("blocks.0.") || ch.name == "embed" || ch.name.starts_with("blocks.1.norm.attn") ||
          ch.name.starts_with("blocks.1.attn") || ch.name == "blocks.1.resid.attn" || ch.name == "blocks.1.sum.attn") {
        EXPECT_FALSE(ch.changed) << ch.name;
      }
      if (ch.name == "logits") {
        EXPECT_TRUE(ch.changed);
      }
    }
    EXPECT_NE(z.loss.item(), plain_loss);

    // scale: exactly the factor times the branch's own output
    const auto s = intervened(m, "scale:blocks.0.attn:0.5");
    EXPECT_LE(max_abs(s.snapshots.get("blocks.0.attn"), plain.snapshots.get("blocks.0.attn") * 0.5), 0.0);

    // ablate a head: the pattern stays, the output is wo applied to the heads with head 1 at 0
    const auto a = intervened(m, "ablateHead:1:1", true);
    EXPECT_TRUE(bitwise_equal(a.snapshots.get("blocks.1.attn.pattern"), plain.snapshots.get("blocks.1.attn.pattern")));
    {
      NoGradGuard ng;
      const std::string in = c.norm == NormPlacement::pre ? "blocks.1.norm.attn" : c.norm == NormPlacement::post ? "blocks.0.norm.ffn"
                             : c.residual ? "blocks.0.resid.ffn" : "blocks.0.ffn";
      const nn::AttentionParts p = m.blocks[1].attn.parts(plain.snapshots.get(in), m.rope());
      const Tensor keep = Tensor::from_vector(std::vector<double>{1.0, 0.0}, {1, 2, 1, 1}, DType::f64);
      const Tensor expect = m.blocks[1].attn.wo(reshape(permute(p.heads * keep, {0, 2, 1, 3}), {1, 12, 16}));
      EXPECT_LE(max_abs(a.snapshots.get("blocks.1.attn"), expect), 1e-15);
      EXPECT_GT(max_abs(a.snapshots.get("blocks.1.attn"), plain.snapshots.get("blocks.1.attn")), 1e-6);
    }

    if (c.norm != NormPlacement::none) {
      // eps, unit gamma, identity on one norm
      const auto ep = intervened(m, "eps:blocks.0.norm_ffn:0.5");
      const auto ug = intervened(m, "unitGamma:blocks.0.norm_attn");
      for (const auto& r : {&ep, &ug}) EXPECT_NE(r->loss.item(), plain_loss);
      if (c.norm == NormPlacement::pre) {
        nn::Norm n = *m.blocks[0].norm_ffn;  // shares gamma (and beta)
        n.set_eps(0.5);
        {
          NoGradGuard ng;
          EXPECT_LE(max_abs(ep.snapshots.get("blocks.0.norm.ffn"), n(ep.snapshots.get(c.residual ? "blocks.0.resid.attn" : "blocks.0.attn"))), 1e-15);
        }
        const auto id = intervened(m, "identityNorm:norm_final");
        EXPECT_TRUE(bitwise_equal(id.snapshots.get("norm.final"), id.snapshots.get(id.snapshots.stream().back())));
      }
      const auto idb = intervened(m, "identityNorm:blocks.1.norm_ffn");
      EXPECT_NE(idb.loss.item(), plain_loss);
    }
    // nothing above changed a weight, and a plain run afterwards is the same run bit for bit
    EXPECT_TRUE(same_weights(before, weights_of(m)));
    const auto again = run(m, true);
    EXPECT_EQ(again.loss.item(), plain_loss);
    EXPECT_TRUE(bitwise_equal(again.logits, plain.logits));
  }
}

TEST(Interventions, CombineAndCompareRuns) {
  nn::Model m = make(tiny());
  std::vector<nn::Intervention> ivs = {nn::parse_intervention("scale:blocks.0.ffn:0.5"), nn::parse_intervention("scale:blocks.0.ffn:0.5"),
                                       nn::parse_intervention("ablateHead:0:0"), nn::parse_intervention("ablateHead:0:1")};
  const nn::Edits e = nn::compile_interventions(m, ivs);
  EXPECT_EQ(e.blocks[0].ffn_scale, 0.25);
  const auto r = run(m, false, &e);
  // both heads ablated: block 0's attention adds nothing
  for (double v : r.snapshots.get("blocks.0.attn").to_vector()) ASSERT_EQ(v, 0.0);
  const auto plain = run(m);
  const auto ch = nn::compare_snapshots(plain.snapshots, r.snapshots);
  ASSERT_EQ(ch.size(), plain.snapshots.items().size());
  EXPECT_FALSE(ch[0].changed);  // embed
  EXPECT_TRUE(ch.back().changed);
  EXPECT_GT(ch.back().rel_norm, 0.0);
  const auto top = nn::top_next(r.logits, 11, 5);
  ASSERT_EQ(top.size(), 5u);
  EXPECT_GE(top[0].prob, top[4].prob);
  for (const nn::Intervention& iv : ivs) EXPECT_EQ(nn::to_text(nn::parse_intervention(nn::to_text(iv))), nn::to_text(iv));
}

std::string refusal(const nn::Model& m, const std::string& text) {
  try {
    const nn::Intervention iv = nn::parse_intervention(text);
    nn::compile_interventions(m, std::span(&iv, 1));
  } catch (const Error& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Interventions, RefusedWithWhatExists) {
  nn::Model m = make(tiny());
  EXPECT_NE(refusal(m, "zero:blocks.2.ffn").find("branches are blocks.0.attn, blocks.0.ffn, blocks.1.attn, blocks.1.ffn"), std::string::npos);
  EXPECT_NE(refusal(m, "scale:blocks.0.mlp:2").find("no branch named \"blocks.0.mlp\""), std::string::npos);
  EXPECT_NE(refusal(m, "scale:blocks.0.attn:inf").find("finite"), std::string::npos);
  EXPECT_NE(refusal(m, "scale:blocks.0.attn:half").find("must be a number"), std::string::npos);
  EXPECT_NE(refusal(m, "ablateHead:2:0").find("blocks are 0 to 1"), std::string::npos);
  EXPECT_NE(refusal(m, "ablateHead:0:2").find("heads 0 to 1"), std::string::npos);
  EXPECT_NE(refusal(m, "ablateHead:0:1.5").find("whole number"), std::string::npos);
  EXPECT_NE(refusal(m, "eps:blocks.3.norm_ffn:1e-2").find("norms are blocks.0.norm_attn, blocks.0.norm_ffn, blocks.1.norm_attn, blocks.1.norm_ffn, norm_final"),
            std::string::npos);
  EXPECT_NE(refusal(m, "eps:norm_final:-1").find(">= 0"), std::string::npos);
  EXPECT_NE(refusal(m, "unitGamma:norm_final:3").find("expected unitGamma:NORM"), std::string::npos);
  EXPECT_NE(refusal(m, "flip:blocks.0.attn").find("the kinds are zero, scale, ablateHead, eps, identityNorm, unitGamma"), std::string::npos);
  EXPECT_EQ(refusal(m, "eps:blocks.1.norm.ffn:1e-2"), "(accepted)");  // the snapshot spelling
  EXPECT_EQ(refusal(m, "identityNorm:norm.final"), "(accepted)");
  nn::Config none = tiny();
  none.norm = NormPlacement::none;
  EXPECT_NE(refusal(nn::Model(none), "unitGamma:blocks.0.norm_attn").find("has no norms"), std::string::npos);
  nn::Config post = tiny();
  post.norm = NormPlacement::post;
  EXPECT_NE(refusal(nn::Model(post), "identityNorm:norm_final").find("norms are blocks.0.norm_attn"), std::string::npos);
}

// ---------------------------------------------------------------- gradient check

TEST(GradientCheck, PredictsTheCentralDifferenceAndTouchesNothing) {
  nn::Model m = make(tiny(DType::f32));
  const auto before = weights_of(m);
  const auto r = run(m);  // leaves gradients on the parameters, which the check must not change
  const std::vector<double> grad_before = m.blocks[0].attn.wq.weight.grad().to_vector();
  for (const std::string target : {"blocks.0.attn.wq.weight", "blocks.0.resid.attn", "blocks.1.attn.pattern", "embed", "norm_final.gamma",
                                   "blocks.1.hook_resid_mid"}) {
    SCOPED_TRACE(target);
    // element 5 of a pattern is above the diagonal (row 0): no gradient there; row 3, column 1 has one
    const int64_t index = std::string(target).ends_with("pattern") ? 3 * 12 + 1 : 5;
    const nn::GradientCheck g64 = nn::gradient_check(m, kHelloIds, target, index, 1e-5, DType::f64);
    EXPECT_EQ(g64.dtype, DType::f64);
    EXPECT_NE(g64.grad, 0.0);
    EXPECT_NEAR(g64.actual, g64.predicted, 1e-8 * std::fabs(g64.predicted) + 1e-15);
    EXPECT_NEAR(g64.applied_delta, 1e-5, 1e-15);
    const nn::GradientCheck g32 = nn::gradient_check(m, kHelloIds, target, index, 1e-2, DType::f32);
    EXPECT_NEAR(g32.actual, g32.predicted, 0.05 * std::fabs(g32.predicted) + 1e-6);
    EXPECT_NEAR(g32.grad, g64.grad, 1e-3 * std::fabs(g64.grad) + 1e-7);
  }
  EXPECT_TRUE(same_weights(before, weights_of(m)));
  EXPECT_EQ(m.blocks[0].attn.wq.weight.grad().to_vector(), grad_before);
  EXPECT_EQ(m.config().dtype, DType::f32);
  // refusals
  EXPECT_THROW(nn::gradient_check(m, kHelloIds, "blocks.9.attn", 0, 1e-3, DType::f32), Error);
  EXPECT_THROW(nn::gradient_check(m, kHelloIds, "embed", 12 * 16, 1e-3, DType::f32), Error);
  EXPECT_THROW(nn::gradient_check(m, kHelloIds, "embed", 0, 0, DType::f32), Error);
  EXPECT_THROW(nn::gradient_check(m, std::vector<int32_t>{3}, "embed", 0, 1e-3, DType::f32), Error);
  // above the diagonal a pattern has no effect: gradient 0 and no change at all
  const nn::GradientCheck above = nn::gradient_check(m, kHelloIds, "blocks.1.attn.pattern", 5, 1e-2, DType::f64);
  EXPECT_EQ(above.grad, 0.0);
  EXPECT_EQ(above.actual, 0.0);
  (void)r;
}

}  // namespace
