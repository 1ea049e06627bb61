// Training (glass::train): the learning-rate schedule, AdamW (decay on matrices
// only), global gradient clipping, the corpus split, and the Trainer: the loss
// falls on a tiny corpus, a seed fixes the run, and checkpoint + restore
// continues bit for bit as an uninterrupted run would.
#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "glass/io/safetensors.h"
#include "glass/nn/model.h"
#include "glass/train/adamw.h"
#include "glass/train/corpus.h"
#include "glass/train/schedule.h"
#include "glass/train/trainer.h"
#include "gradcheck.h"
#include "tiny_config.h"
#include "weights_helpers.h"

namespace {

using namespace glass;

// ---------------------------------------------------------------- schedule

TEST(Schedule, WarmupThenCosineToMinRatio) {
  const train::Schedule s{/*peak=*/1e-3, /*warmup=*/10, /*total=*/110, /*min_ratio=*/0.1};
  // linear warmup: step t (from 0) gets peak * (t + 1) / warmup
  EXPECT_NEAR(s.at(0), 1e-4, 1e-18);
  EXPECT_NEAR(s.at(4), 5e-4, 1e-18);
  EXPECT_NEAR(s.at(9), 1e-3, 1e-18);
  // cosine from peak at the end of warmup to min_ratio * peak at total
  EXPECT_NEAR(s.at(10), 1e-3, 1e-18);
  EXPECT_NEAR(s.at(60), 1e-3 * (0.1 + 0.9 * 0.5), 1e-15);  // halfway: cos(pi/2) = 0
  EXPECT_NEAR(s.at(35), 1e-3 * (0.1 + 0.9 * 0.5 * (1 + std::cos(std::numbers::pi * 0.25))), 1e-15);
  EXPECT_NEAR(s.at(110), 1e-4, 1e-15);
  EXPECT_NEAR(s.at(500), 1e-4, 1e-15);  // stays at the floor past the end
  for (int64_t t = 10; t < 110; ++t) EXPECT_GE(s.at(t), s.at(t + 1)) << "step " << t;
  for (int64_t t = 0; t < 9; ++t) EXPECT_LT(s.at(t), s.at(t + 1)) << "step " << t;
  const train::Schedule none{1e-3, 0, 100, 0.1};
  EXPECT_NEAR(none.at(0), 1e-3, 1e-18);  // no warmup: starts at peak
}

// ---------------------------------------------------------------- AdamW

// Sets p.grad() to g by a backward pass of sum(p * g).
void set_grad(Tensor& p, const std::vector<double>& g) {
  p.zero_grad();
  sum(p * Tensor::from_f64(g, p.shape())).backward();
}

TEST(AdamW, WeightDecayOnMatricesOnly) {
  Tensor vec = Tensor::from_f64(std::vector<double>{1.0, -2.0, 3.0}, {3}).set_requires_grad();
  Tensor mat = Tensor::from_f64(std::vector<double>{1.0, -2.0, 3.0, 4.0}, {2, 2}).set_requires_grad();
  const std::vector<double> v0 = vec.to_vector(), m0 = mat.to_vector();
  train::AdamW opt({{"vec", vec}, {"mat", mat}}, train::AdamWOptions{.weight_decay = 0.1});
  set_grad(vec, {0, 0, 0});
  set_grad(mat, {0, 0, 0, 0});
  opt.step(0.5);
  EXPECT_EQ(opt.steps(), 1);
  EXPECT_EQ(vec.to_vector(), v0);  // a 1-d parameter with a zero gradient does not move
  const std::vector<double> m1 = mat.to_vector();
  for (size_t i = 0; i < m0.size(); ++i) EXPECT_NEAR(m1[i], m0[i] * (1 - 0.5 * 0.1), 1e-15) << i;  // shrinks
}

TEST(AdamW, FirstStepMovesByLrTimesSignAndSkipsParamsWithoutGrad) {
  Tensor a = Tensor::from_f64(std::vector<double>{0.5, 0.5, 0.5}, {3}).set_requires_grad();
  Tensor b = Tensor::from_f64(std::vector<double>{7.0, 8.0}, {2}).set_requires_grad();
  train::AdamW opt({{"a", a}, {"b", b}}, train::AdamWOptions{.weight_decay = 0.0});
  set_grad(a, {2.0, -0.001, 300.0});
  opt.step(0.01);
  // bias-corrected m / sqrt(v) = g / |g| on the first step
  EXPECT_TRUE(glass_test::values_near(a.to_vector(), {0.49, 0.51, 0.49}, 1e-7));
  EXPECT_EQ(b.to_vector(), (std::vector<double>{7.0, 8.0}));  // no gradient: left alone

  // moments are saved and restored: a copy continues identically
  Tensor a2 = Tensor::from_f64(a.to_vector(), {3}).set_requires_grad();
  Tensor b2 = Tensor::from_f64(b.to_vector(), {2}).set_requires_grad();
  train::AdamW opt2({{"a", a2}, {"b", b2}}, train::AdamWOptions{.weight_decay = 0.0});
  std::map<std::string, Tensor> state;
  for (const auto& [name, t] : opt.state()) state.emplace(name, t.clone());
  EXPECT_EQ(state.size(), 4u);
  EXPECT_TRUE(state.count("m.a") && state.count("v.b"));
  opt2.load_state(state, opt.steps());
  set_grad(a, {-1.0, 1.0, 0.5});
  set_grad(a2, {-1.0, 1.0, 0.5});
  opt.step(0.01);
  opt2.step(0.01);
  EXPECT_EQ(a.to_vector(), a2.to_vector());
  state.erase("v.a");
  EXPECT_GLASS_ERROR([&] { opt2.load_state(state, 1); }, {"v.a"});
}

TEST(ClipGradNorm, ScalesToTheMaxNorm) {
  Tensor a = Tensor::zeros({2}, DType::f64).set_requires_grad();
  Tensor b = Tensor::zeros({1, 1}, DType::f64).set_requires_grad();
  Tensor c = Tensor::zeros({3}, DType::f64).set_requires_grad();  // no gradient: ignored
  const train::AdamW::Params params = {{"a", a}, {"b", b}, {"c", c}};
  set_grad(a, {3, 4});
  set_grad(b, {12});
  EXPECT_NEAR(train::clip_grad_norm(params, 1.0), 13.0, 1e-12);  // returns the norm before clipping
  EXPECT_TRUE(glass_test::values_near(a.grad().to_vector(), {3.0 / 13, 4.0 / 13}, 1e-12));
  EXPECT_TRUE(glass_test::values_near(b.grad().to_vector(), {12.0 / 13}, 1e-12));
  EXPECT_NEAR(train::clip_grad_norm(params, 1.0), 1.0, 1e-9);  // now at the max norm

  set_grad(a, {3, 4});
  set_grad(b, {12});
  EXPECT_NEAR(train::clip_grad_norm(params, 100.0), 13.0, 1e-12);  // under the max: unchanged
  EXPECT_EQ(a.grad().to_vector(), (std::vector<double>{3, 4}));
  EXPECT_NEAR(train::clip_grad_norm(params, 0.0), 13.0, 1e-12);  // 0 turns clipping off
  EXPECT_EQ(b.grad().to_vector(), (std::vector<double>{12}));
}

// ---------------------------------------------------------------- corpus

TEST(Corpus, SplitWindowsAndRefusals) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += static_cast<char>('a' + i % 26);
  const train::Corpus corpus(text, 0.1, 8);
  EXPECT_EQ(corpus.train_bytes(), 180);
  EXPECT_EQ(corpus.val_bytes(), 20);
  const auto windows = corpus.validation_windows();
  ASSERT_EQ(windows.size(), 2u);  // 20 bytes: two windows of 8, the remainder of 4 dropped
  for (size_t w = 0; w < 2; ++w)
    for (size_t i = 0; i < 8; ++i) EXPECT_EQ(windows[w][i], static_cast<unsigned char>(text[180 + 8 * w + i]));
  Generator gen(3);
  const std::vector<int32_t> batch = corpus.sample_batch(gen, 50);
  ASSERT_EQ(batch.size(), 400u);
  for (size_t b = 0; b < 50; ++b) {
    // each window is consecutive bytes of the training part
    const std::string window(batch.begin() + static_cast<std::ptrdiff_t>(8 * b),
                             batch.begin() + static_cast<std::ptrdiff_t>(8 * b + 8));
    const size_t at = text.find(window);
    ASSERT_NE(at, std::string::npos);
    EXPECT_LE(at + 8, 180u);
  }
  EXPECT_GLASS_ERROR([&] { train::Corpus c(std::string(30, 'x'), 0.1, 8); }, {"too few"});
  EXPECT_GLASS_ERROR([&] { train::Corpus c(text, 0.0, 8); }, {"validation fraction"});
  EXPECT_GLASS_ERROR([&] { train::Corpus c(text, 0.1, 1); }, {"context"});
}

// ---------------------------------------------------------------- trainer

std::string tiny_corpus_text() {
  std::string s;
  for (int i = 0; i < 20; ++i) s += "the quick brown fox jumps over the dog. ";  // 40 bytes, 800 in all
  return s;
}

using testing_config::tiny_config;

train::TrainOptions tiny_options(int64_t steps, uint64_t seed) {
  train::TrainOptions o;
  o.steps = steps;
  o.batch = 8;
  o.lr = 1e-2;
  o.warmup = 10;
  o.eval_every = 0;
  o.seed = seed;
  return o;
}

using glass_test::same_weights;
using glass_test::weights_of;

TEST(Trainer, LossFallsOnATinyCorpus) {
  // Measured: starts at ln 256 = 5.55, ends near 0.1 (val ~0.07) after 150 steps
  // for seeds 0-4; the bounds leave a wide margin.
  nn::Model model(tiny_config(), 1);
  const train::Corpus corpus(tiny_corpus_text(), 0.1, 16);
  train::Trainer trainer(model, corpus, tiny_options(150, 1));
  std::vector<train::Progress> steps;
  int checkpoints = 0;
  trainer.run([&](const train::Progress& p) { steps.push_back(p); }, [&](const train::Progress&) { ++checkpoints; });
  ASSERT_EQ(steps.size(), 150u);
  EXPECT_EQ(trainer.step(), 150);
  EXPECT_EQ(checkpoints, 1);  // eval_every 0: only at the end
  EXPECT_NEAR(steps.front().loss, std::log(256.0), 0.1);
  double last10 = 0;
  for (size_t i = 140; i < 150; ++i) last10 += steps[i].loss / 10;
  EXPECT_LT(last10, 0.5);
  ASSERT_TRUE(steps.back().val_loss.has_value());
  EXPECT_LT(*steps.back().val_loss, 0.4);
  EXPECT_NEAR(trainer.validation_loss(), *steps.back().val_loss, 1e-12);
  for (size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(steps[i].step, static_cast<int64_t>(i + 1));
    EXPECT_EQ(steps[i].total, 150);
    EXPECT_EQ(steps[i].val_loss.has_value(), i == 149);
    EXPECT_GT(steps[i].grad_norm, 0);
  }
  EXPECT_NEAR(steps[0].lr, 1e-3, 1e-12);   // warmup step 1 of 10
  EXPECT_NEAR(steps[9].lr, 1e-2, 1e-12);   // peak
  EXPECT_NEAR(steps[149].lr, 1e-3, 1e-4);  // near the 0.1 floor
}

TEST(Trainer, EvaluatesEveryN) {
  nn::Model model(tiny_config(), 2);
  const train::Corpus corpus(tiny_corpus_text(), 0.1, 16);
  train::TrainOptions o = tiny_options(7, 2);
  o.eval_every = 3;
  train::Trainer trainer(model, corpus, o);
  std::vector<int64_t> evals, checkpoints;
  trainer.run([&](const train::Progress& p) { if (p.val_loss) evals.push_back(p.step); },
              [&](const train::Progress& p) { checkpoints.push_back(p.step); });
  EXPECT_EQ(evals, (std::vector<int64_t>{3, 6, 7}));
  EXPECT_EQ(checkpoints, evals);
}

struct TinyRun {
  std::vector<double> losses;
  std::map<std::string, std::vector<double>> weights;
};

TinyRun train_tiny(uint64_t seed, int64_t steps) {
  nn::Model model(tiny_config(), seed);
  const train::Corpus corpus(tiny_corpus_text(), 0.1, 16);
  train::Trainer trainer(model, corpus, tiny_options(steps, seed));
  TinyRun r;
  trainer.run([&](const train::Progress& p) { r.losses.push_back(p.loss); }, nullptr);
  r.weights = weights_of(model);
  return r;
}

TEST(Trainer, SameSeedSameRun) {
  const TinyRun a = train_tiny(5, 8), b = train_tiny(5, 8), c = train_tiny(6, 8);
  ASSERT_EQ(a.losses.size(), 8u);
  EXPECT_EQ(a.losses, b.losses);    // bit for bit
  EXPECT_TRUE(same_weights(a.weights, b.weights));  // bit for bit
  EXPECT_NE(a.losses, c.losses);
  EXPECT_NE(a.weights.at("head.weight"), c.weights.at("head.weight"));
}

struct StopTraining {};

TEST(Trainer, CheckpointAndRestoreContinueBitForBit) {
  const train::Corpus corpus(tiny_corpus_text(), 0.1, 16);
  const train::TrainOptions opt = tiny_options(6, 9);

  // 6 steps straight
  nn::Model straight(tiny_config(), 9);
  std::vector<double> straight_losses;
  {
    train::Trainer t(straight, corpus, opt);
    t.run([&](const train::Progress& p) { straight_losses.push_back(p.loss); }, nullptr);
  }

  // 3 steps, interrupted, checkpoint
  nn::Model first(tiny_config(), 9);
  std::vector<uint8_t> ckpt;
  std::vector<double> losses;
  {
    train::Trainer t(first, corpus, opt);
    try {
      t.run(
          [&](const train::Progress& p) {
            losses.push_back(p.loss);
            if (p.step == 3) throw StopTraining{};
          },
          nullptr);
      FAIL() << "training did not stop";
    } catch (const StopTraining&) {
    }
    EXPECT_EQ(t.step(), 3);
    ckpt = t.checkpoint();
  }
  // the checkpoint is a safetensors file with the weights, the moments and the step
  const io::SafetensorsFile file = io::parse_safetensors(ckpt);
  EXPECT_EQ(file.metadata.at("format"), "glassllm-checkpoint");
  EXPECT_EQ(file.metadata.at("step"), "3");
  EXPECT_EQ(file.tensors.size(), 3 * first.named_parameters().size());

  // a fresh model (another seed: its own weights are overwritten) and trainer, restored, 3 more
  nn::Model resumed(tiny_config(), 1234);
  train::Trainer t(resumed, corpus, opt);
  t.restore(ckpt);
  EXPECT_EQ(t.step(), 3);
  EXPECT_TRUE(same_weights(weights_of(resumed), weights_of(first)));
  t.run([&](const train::Progress& p) { losses.push_back(p.loss); }, nullptr);
  EXPECT_EQ(t.step(), 6);
  EXPECT_EQ(losses, straight_losses);
  EXPECT_TRUE(same_weights(weights_of(resumed), weights_of(straight)));  // bit for bit
}

TEST(Trainer, RestoreRefusesWhatIsNotItsCheckpoint) {
  const train::Corpus corpus(tiny_corpus_text(), 0.1, 16);
  nn::Model model(tiny_config(), 3);
  train::Trainer trainer(model, corpus, tiny_options(4, 3));
  const auto before = weights_of(model);

  // a plain weights file is not a checkpoint
  io::NamedTensors plain = model.named_parameters();
  for (auto& p : plain) p.second = p.second.detach();
  EXPECT_GLASS_ERROR([&] { trainer.restore(io::serialize_safetensors(plain, {{"format", "glassllm"}})); },
                     {"not a glassllm checkpoint"});
  EXPECT_GLASS_ERROR([&] { trainer.restore(io::serialize_safetensors(plain)); }, {"checkpoint", "format"});
  EXPECT_GLASS_ERROR([&] { trainer.restore(std::vector<uint8_t>{1, 2, 3}); }, {"safetensors", "truncated"});

  // a checkpoint of a longer run is beyond --steps
  nn::Model other(tiny_config(), 3);
  train::Trainer longer(other, corpus, tiny_options(10, 3));
  try {
    longer.run([](const train::Progress& p) { if (p.step == 5) throw StopTraining{}; }, nullptr);
  } catch (const StopTraining&) {
  }
  EXPECT_GLASS_ERROR([&] { trainer.restore(longer.checkpoint()); }, {"step 5", "beyond"});

  // a checkpoint of another model shape
  nn::Config wider = tiny_config();
  wider.d = 32;
  nn::Model big(wider, 3);
  train::Trainer big_trainer(big, corpus, tiny_options(4, 3));
  // (the config in its metadata says so first, naming the field)
  EXPECT_GLASS_ERROR([&] { trainer.restore(big_trainer.checkpoint()); }, {"another model", "d: 32 vs 16"});
  // and without that config, the shapes still do
  io::SafetensorsFile old = io::parse_safetensors(big_trainer.checkpoint());
  old.metadata.erase("glassllm.config");
  EXPECT_GLASS_ERROR([&] { trainer.restore(io::serialize_safetensors(old.tensors, old.metadata)); },
                     {"tok_emb.weight", "shape"});

  EXPECT_TRUE(same_weights(weights_of(model), before));  // nothing refused changed the model
  EXPECT_EQ(trainer.step(), 0);
}

// Regression: Trainer::restore once copied the weights into the model before
// checking the optimizer moments, so a checkpoint whose weights were fine but
// whose moments were missing was refused only after overwriting the model.
TEST(Trainer, RefusedCheckpointWithMissingMomentsLeavesTheModelUnchanged) {
  const train::Corpus corpus(tiny_corpus_text(), 0.1, 16);
  nn::Model donor(tiny_config(), 4);
  train::Trainer donor_trainer(donor, corpus, tiny_options(4, 4));
  io::SafetensorsFile file = io::parse_safetensors(donor_trainer.checkpoint());
  io::NamedTensors kept;
  for (auto& named : file.tensors)
    if (named.first != "adamw.v.head.weight") kept.push_back(named);
  const std::vector<uint8_t> broken = io::serialize_safetensors(kept, file.metadata);

  nn::Model model(tiny_config(), 5);
  train::Trainer trainer(model, corpus, tiny_options(4, 5));
  const auto before = weights_of(model);
  EXPECT_GLASS_ERROR([&] { trainer.restore(broken); }, {"v.head.weight"});
  EXPECT_TRUE(same_weights(weights_of(model), before)) << "a refused checkpoint overwrote the model's weights";
}

}  // namespace
