// The trainer one step at a time (what the browser's trainer worker calls, with
// pauses between steps): train_step() gives exactly run()'s losses, a step whose
// loss or gradient is not finite is refused without changing anything and names
// what blew up, the residual stream's RMS by depth matches a direct computation
// on every variant, and seeded text sampling.
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "glass/io/safetensors.h"
#include "glass/nn/model.h"
#include "glass/tensor/ops.h"
#include "glass/train/sample.h"
#include "glass/train/trainer.h"
#include "gradcheck.h"
#include "weights_helpers.h"

namespace {

using namespace glass;
using glass_test::same_weights;
using glass_test::weights_of;

std::string corpus_text() {
  std::string s;
  for (int i = 0; i < 20; ++i) s += "the quick brown fox jumps over the dog. ";  // 800 bytes
  return s;
}

nn::Config small_config(int64_t blocks = 2) {
  nn::Config c;
  c.d = 16;
  c.blocks = blocks;
  c.heads = 2;
  c.hidden = 32;
  c.context = 16;
  return c;
}

train::TrainOptions options(int64_t steps, uint64_t seed, double lr = 1e-2) {
  train::TrainOptions o;
  o.steps = steps;
  o.batch = 4;
  o.lr = lr;
  o.warmup = 3;
  o.eval_every = 4;
  o.seed = seed;
  return o;
}

TEST(TrainStep, StepByStepGivesRunsLossesBitForBit) {
  const train::Corpus corpus(corpus_text(), 0.1, 16);
  nn::Model a(small_config(), 4), b(small_config(), 4);
  std::vector<train::Progress> by_run, by_step;
  {
    train::Trainer t(a, corpus, options(10, 4));
    t.run([&](const train::Progress& p) { by_run.push_back(p); }, nullptr);
  }
  train::Trainer t(b, corpus, options(10, 4));
  while (!t.done()) by_step.push_back(t.train_step());
  ASSERT_EQ(by_run.size(), 10u);
  ASSERT_EQ(by_step.size(), 10u);
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(by_step[i].step, static_cast<int64_t>(i + 1));
    EXPECT_EQ(by_step[i].loss, by_run[i].loss) << "step " << i + 1;  // bit for bit
    EXPECT_EQ(by_step[i].grad_norm, by_run[i].grad_norm);
    EXPECT_EQ(by_step[i].block_grad_norms, by_run[i].block_grad_norms);
    EXPECT_EQ(by_step[i].resid_rms, by_run[i].resid_rms);
    EXPECT_EQ(by_step[i].lr, by_run[i].lr);
    EXPECT_EQ(by_step[i].val_loss, by_run[i].val_loss);
    EXPECT_EQ(by_step[i].val_loss.has_value(), i == 3 || i == 7 || i == 9);
    EXPECT_GT(by_step[i].seconds, 0);
    EXPECT_EQ(by_step[i].resid_rms.size(), 3u);  // embed + 2 blocks
  }
  EXPECT_TRUE(same_weights(weights_of(a), weights_of(b)));
  EXPECT_GLASS_ERROR([&] { t.train_step(); }, {"finished", "10 steps"});
}

// Runs until a step diverges; checks that the refused step changed nothing
// (weights, moments, step, sampler: the checkpoint bytes are the same) and that
// trying again fails the same way.
train::Diverged diverge(train::Trainer& t, int64_t max_steps) {
  for (int64_t i = 0; i < max_steps; ++i) {
    const std::vector<uint8_t> before = t.checkpoint();
    try {
      t.train_step();
    } catch (const train::Diverged& d) {
      EXPECT_EQ(d.step(), t.step() + 1);
      // weights, moments, step and sampler as before the step (bytes: a NaN weight compares equal too)
      EXPECT_EQ(t.checkpoint(), before);
      try {
        t.train_step();
        ADD_FAILURE() << "the same step passed the second time";
      } catch (const train::Diverged& again) {
        EXPECT_EQ(again.step(), d.step());
        EXPECT_EQ(again.what_blew_up(), d.what_blew_up());
      }
      return d;
    }
  }
  throw std::runtime_error("never diverged");
}

TEST(TrainStep, AnAbsurdLearningRateDivergesAndKeepsTheLastGoodState) {
  const train::Corpus corpus(corpus_text(), 0.1, 16);
  nn::Config cfg = small_config();
  cfg.norm = nn::NormPlacement::none;  // nothing rescales the stream: the weights blow it up
  nn::Model model(cfg, 2);
  train::TrainOptions o = options(50, 2, /*lr=*/1e30);
  o.warmup = 0;
  o.clip = 0;
  train::Trainer t(model, corpus, o);
  const train::Diverged d = diverge(t, 50);
  EXPECT_GE(d.step(), 2);  // the first step's loss is ln 256 and its gradient finite
  EXPECT_FALSE(d.what_blew_up().empty());
  EXPECT_NE(std::string(d.what()).find("step " + std::to_string(d.step()) + ": "), std::string::npos) << d.what();
  EXPECT_NE(std::string(d.what()).find("not applied"), std::string::npos) << d.what();
  std::printf("absurd lr: %s\n", d.what());
}

TEST(TrainStep, ANaNWeightIsANonFiniteLoss) {
  const train::Corpus corpus(corpus_text(), 0.1, 16);
  nn::Model model(small_config(), 3);
  train::Trainer t(model, corpus, options(5, 3));
  t.train_step();
  t.train_step();
  for (auto& [name, p] : model.named_parameters())
    if (name == "blocks.1.ffn.w_down.weight") p.mutable_data<float>()[0] = std::numeric_limits<float>::quiet_NaN();
  const train::Diverged d = diverge(t, 1);
  EXPECT_EQ(d.step(), 3);
  EXPECT_EQ(d.what_blew_up(), "loss");
  EXPECT_NE(std::string(d.what()).find("step 3: the loss is NaN"), std::string::npos) << d.what();
}

TEST(TrainStep, NonFiniteGradientNamesTheGroupNearestTheLoss) {
  nn::Model model(small_config(3), 1);
  EXPECT_EQ(train::non_finite_gradient(model), std::nullopt);  // no gradients at all
  // gradient = the values of g (a backward pass of sum(p * g))
  auto set_grad = [&](const std::string& which, double value) {
    for (auto& [name, p] : model.named_parameters())
      if (name == which) {
        std::vector<double> g(static_cast<size_t>(p.numel()), 0.5);
        g.back() = value;
        sum(p * Tensor::from_f64(g, p.shape()).to(p.dtype())).backward();
      }
  };
  set_grad("tok_emb.weight", 1.0);
  set_grad("head.weight", 1.0);
  EXPECT_EQ(train::non_finite_gradient(model), std::nullopt);
  set_grad("tok_emb.weight", std::numeric_limits<double>::infinity());
  EXPECT_EQ(train::non_finite_gradient(model), "tok_emb");
  set_grad("blocks.0.attn.wq.weight", std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(train::non_finite_gradient(model), "blocks.0");
  set_grad("blocks.2.norm_ffn.gamma", std::numeric_limits<double>::infinity());
  EXPECT_EQ(train::non_finite_gradient(model), "blocks.2");  // nearest the loss wins
  set_grad("norm_final.gamma", std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(train::non_finite_gradient(model), "norm_final");
}

// The snapshot the residual stream's RMS reports after each block, by variant (docs/model.md).
struct StreamCase {
  nn::NormPlacement norm;
  bool residual;
  const char* after_block;
};

TEST(TrainStep, ResidualRmsByDepthMatchesADirectComputation) {
  const train::Corpus corpus(corpus_text(), 0.1, 16);
  for (const StreamCase& c : {StreamCase{nn::NormPlacement::pre, true, "resid.ffn"},
                              StreamCase{nn::NormPlacement::post, true, "norm.ffn"},
                              StreamCase{nn::NormPlacement::none, true, "resid.ffn"},
                              StreamCase{nn::NormPlacement::pre, false, "ffn"},
                              StreamCase{nn::NormPlacement::post, false, "norm.ffn"}}) {
    for (DType dtype : {DType::f32, DType::f64}) {
      nn::Config cfg = small_config(3);
      cfg.norm = c.norm;
      cfg.residual = c.residual;
      cfg.dtype = dtype;
      nn::Model model(cfg, 7);
      train::Trainer t(model, corpus, options(3, 7));
      t.train_step();
      // the next batch, drawn from the sampler's state in the checkpoint, through the same weights
      const io::SafetensorsFile ckpt = io::parse_safetensors(t.checkpoint());
      Generator gen;
      gen.set_state(std::stoull(ckpt.metadata.at("sampler")));
      const std::vector<int32_t> ids = corpus.sample_batch(gen, 4);
      std::vector<double> want;
      {
        const nn::Model::Output out = model.forward(ids, 4, /*record_snapshots=*/true);
        NoGradGuard no_grad;
        want.push_back(sqrt(mean(square(out.snapshots.get("embed")))).item());
        for (int i = 0; i < 3; ++i)
          want.push_back(sqrt(mean(square(out.snapshots.get("blocks." + std::to_string(i) + "." + c.after_block)))).item());
      }
      const train::Progress p = t.train_step();
      const double tol = dtype == DType::f64 ? 1e-12 : 1e-5;
      SCOPED_TRACE(std::string(nn::placement_name(c.norm)) + (c.residual ? " residual " : " no residual ") +
                   std::string(dtype_name(dtype)));
      EXPECT_TRUE(glass_test::values_near(p.resid_rms, want, 0, tol));
    }
  }
}

TEST(Sample, SeededAndGreedy) {
  nn::Model model(small_config(), 5);
  const std::vector<int32_t> prompt{'t', 'h', 'e'};
  Generator g1(9), g2(9), g3(10);
  const auto a = train::sample_bytes(model, prompt, 40, 1.0, g1);
  const auto b = train::sample_bytes(model, prompt, 40, 1.0, g2);
  const auto c = train::sample_bytes(model, prompt, 40, 1.0, g3);
  ASSERT_EQ(a.size(), 40u);  // longer than the context of 16: the window slides
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (int32_t x : a) EXPECT_TRUE(x >= 0 && x < 256);
  // temperature 0: the argmax of the last position's logits, every time
  Generator unused(1);
  const auto greedy = train::sample_bytes(model, prompt, 1, 0.0, unused);
  const std::vector<double> logits = model.forward(prompt, 1).logits.to_vector();
  int32_t best = 0;
  for (int32_t v = 0; v < 256; ++v)
    if (logits[2 * 256 + v] > logits[2 * 256 + best]) best = v;
  EXPECT_EQ(greedy, std::vector<int32_t>{best});
  std::vector<int32_t> seen;
  train::sample_bytes(model, prompt, 5, 0.7, g1, [&](int32_t x) { seen.push_back(x); });
  EXPECT_EQ(seen.size(), 5u);
  EXPECT_GLASS_ERROR([&] { train::sample_bytes(model, {}, 5, 1.0, g1); }, {"empty"});
  EXPECT_GLASS_ERROR([&] { train::sample_bytes(model, prompt, 5, -1.0, g1); }, {"temperature"});
}

}  // namespace

namespace {

TEST(Corpus, MinBytesIsTheShortestTextTheSplitAccepts) {
  for (int64_t ctx : {2, 16, 32, 100, 128, 256})
    for (double f : {0.05, 0.1, 0.5}) {
      const int64_t n = glass::train::Corpus::min_bytes(f, ctx);
      EXPECT_NO_THROW(glass::train::Corpus(std::string(static_cast<size_t>(n), 'x'), f, ctx)) << ctx << " " << f;
      EXPECT_GLASS_ERROR([&] { glass::train::Corpus(std::string(static_cast<size_t>(n - 1), 'x'), f, ctx); },
                         {"too few", "at least " + std::to_string(n)});
    }
}

}  // namespace
