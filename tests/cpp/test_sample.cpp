// The sampler (glass/train/sample.h): the distribution one step draws from
// against softmax(logits / T) over the top k written here independently in
// float64, greedy against the argmax of the model's own logits, the draw against
// the cumulative probabilities, top-k's support, seeds, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

#include "glass/nn/model.h"
#include "glass/tensor/random.h"
#include "glass/train/sample.h"
#include "gradcheck.h"
#include "tiny_config.h"

namespace {

using namespace glass;

using testing_config::tiny_config;

// softmax(l / T) over the k largest logits (ties: lower index first), each
// probability as 1 / sum_j exp((l_j - l_i) / T): another formula than the
// sampler's exp(l_i - max) / sum, so a shared slip would not cancel.
std::vector<double> reference(const std::vector<double>& l, double T, int64_t k) {
  std::vector<std::size_t> order(l.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return l[a] > l[b]; });
  const std::size_t keep = k == 0 ? l.size() : static_cast<std::size_t>(k);
  std::vector<double> p(l.size(), 0.0);
  for (std::size_t i = 0; i < keep; ++i) {
    double s = 0;
    for (std::size_t j = 0; j < keep; ++j) s += std::exp((l[order[j]] - l[order[i]]) / T);
    p[order[i]] = 1 / s;
  }
  return p;
}

std::vector<double> random_logits(uint64_t seed, double scale) {
  Generator g(seed);
  std::vector<double> l(256);
  for (double& x : l) x = scale * g.normal();
  return l;
}

TEST(Sample, DistributionIsSoftmaxOverTheTopK) {
  for (uint64_t seed : {1, 2, 3})
    for (double scale : {0.5, 3.0, 20.0})
      for (double T : {0.1, 0.5, 1.0, 2.0, 10.0})
        for (int64_t k : {0, 1, 2, 5, 40, 255, 256}) {
          const std::vector<double> l = random_logits(seed, scale);
          const std::vector<double> got = train::next_byte_distribution(l, {.temperature = T, .top_k = k});
          const std::vector<double> want = reference(l, T, k == 256 ? 0 : k);
          SCOPED_TRACE(testing::Message() << "seed " << seed << " scale " << scale << " T " << T << " k " << k);
          ASSERT_EQ(got.size(), 256u);
          for (std::size_t v = 0; v < 256; ++v) EXPECT_NEAR(got[v], want[v], 1e-12 * std::max(1.0, want[v]));
          const auto nonzero = std::count_if(got.begin(), got.end(), [](double p) { return p > 0; });
          // the kept bytes (every kept probability is positive at these scales, except far below the top at T 0.1)
          EXPECT_LE(nonzero, k == 0 ? 256 : k);
          EXPECT_NEAR(std::accumulate(got.begin(), got.end(), 0.0), 1.0, 1e-12);
        }
}

TEST(Sample, TiesAtTheKthKeepTheLowerBytesAndGreedyTakesTheLowest) {
  std::vector<double> l(256, -5.0);
  l[7] = 2;
  l[3] = 1;
  l[200] = 1;
  l[90] = 1;
  const std::vector<double> p = train::next_byte_distribution(l, {.temperature = 1, .top_k = 3});
  EXPECT_GT(p[7], 0);
  EXPECT_GT(p[3], 0);
  EXPECT_GT(p[90], 0);
  EXPECT_EQ(p[200], 0);  // tied with 3 and 90, but the higher byte
  EXPECT_DOUBLE_EQ(p[3], p[90]);
  l[7] = 1;  // now four bytes tie at the top
  EXPECT_EQ(train::greedy_byte(l), 3);
  const std::vector<double> g = train::next_byte_distribution(l, {.temperature = 0, .top_k = 0});
  EXPECT_EQ(g[3], 1.0);
  EXPECT_EQ(std::accumulate(g.begin(), g.end(), 0.0), 1.0);
}

TEST(Sample, GreedyIsTheArgmaxOfTheModelsLogitsAndDrawsNothing) {
  nn::Model model(tiny_config(), 5);
  std::vector<int32_t> ids{'t', 'h', 'e', ' '};
  Generator gen(3);
  const uint64_t before = gen.state();
  for (int step = 0; step < 20; ++step) {  // past the context of 16: the window slides
    const train::SampleStep s = train::sample_step(model, ids, {.temperature = 0, .top_k = 0}, gen);
    const std::size_t start = ids.size() > 16 ? ids.size() - 16 : 0;
    const std::vector<int32_t> window(ids.begin() + static_cast<std::ptrdiff_t>(start), ids.end());
    const std::vector<double> all = model.forward(window, 1).logits.to_vector();
    const std::vector<double> last(all.end() - 256, all.end());
    EXPECT_EQ(s.logits, last);
    EXPECT_EQ(s.byte, std::max_element(last.begin(), last.end()) - last.begin());  // the first maximum
    EXPECT_TRUE(std::isnan(s.u));
    EXPECT_EQ(s.probs[static_cast<std::size_t>(s.byte)], 1.0);
    ids.push_back(s.byte);
  }
  EXPECT_EQ(gen.state(), before);  // greedy never draws: the seed does not matter
}

TEST(Sample, TheDrawLandsWhereTheCumulativeProbabilitiesPassU) {
  nn::Model model(tiny_config(), 6);
  std::vector<int32_t> ids{'a'};
  Generator gen(11);
  for (int step = 0; step < 60; ++step) {
    const train::SampleStep s = train::sample_step(model, ids, {.temperature = 1.3, .top_k = step % 3 == 0 ? 0 : 7}, gen);
    ASSERT_GE(s.u, 0);
    ASSERT_LT(s.u, 1);
    double below = 0;
    for (int32_t v = 0; v < s.byte; ++v) below += s.probs[static_cast<std::size_t>(v)];
    EXPECT_GT(s.probs[static_cast<std::size_t>(s.byte)], 0);
    EXPECT_LE(below, s.u + 1e-12);
    EXPECT_GT(below + s.probs[static_cast<std::size_t>(s.byte)], s.u - 1e-12);
    ids.push_back(s.byte);
  }
}

TEST(Sample, FrequenciesFollowTheDistribution) {
  // one context, many draws: each byte's count within 5 standard deviations of n p
  nn::Model model(tiny_config(), 7);
  const std::vector<int32_t> ids{'G', 'o', 'd'};
  Generator gen(2);
  const int n = 3000;
  std::map<int32_t, int> count;
  std::vector<double> p;
  for (int i = 0; i < n; ++i) {
    const train::SampleStep s = train::sample_step(model, ids, {.temperature = 0.5, .top_k = 6}, gen);
    p = s.probs;
    ++count[s.byte];
  }
  EXPECT_LE(count.size(), 6u);
  for (std::size_t v = 0; v < 256; ++v) {
    const double want = n * p[v], sd = std::sqrt(n * p[v] * (1 - p[v]));
    const int got = count.count(static_cast<int32_t>(v)) ? count[static_cast<int32_t>(v)] : 0;
    EXPECT_LE(std::abs(got - want), 5 * sd + 1e-9) << "byte " << v;
  }
}

TEST(Sample, TopKDrawsOnlyAmongTheKLikeliestAndTopOneIsGreedy) {
  nn::Model model(tiny_config(), 8);
  const std::vector<int32_t> prompt{'I', 'n', ' '};
  Generator g0(4), g1(4);
  const auto greedy = train::sample_bytes(model, prompt, 30, {.temperature = 0, .top_k = 0}, g0);
  const auto top1 = train::sample_bytes(model, prompt, 30, {.temperature = 2, .top_k = 1}, g1);
  EXPECT_EQ(top1, greedy);
  std::vector<int32_t> ids = prompt;
  Generator gen(5);
  for (int step = 0; step < 30; ++step) {
    const train::SampleStep s = train::sample_step(model, ids, {.temperature = 3, .top_k = 4}, gen);
    std::vector<double> sorted = s.logits;
    std::sort(sorted.rbegin(), sorted.rend());
    EXPECT_GE(s.logits[static_cast<std::size_t>(s.byte)], sorted[3]);
    ids.push_back(s.byte);
  }
}

TEST(Sample, EveryByteKeptIsTheSamplerTheTrainViewAlwaysHad) {
  // k = 0 and k = 256 give the bytes of the original sampler (softmax weights
  // walked unnormalised), written out again here
  nn::Model model(tiny_config(), 9);
  const std::vector<int32_t> prompt{'T', 'h', 'e'};
  Generator ga(21), gb(21), gc(21);
  const auto a = train::sample_bytes(model, prompt, 40, 0.8, ga);
  const auto b = train::sample_bytes(model, prompt, 40, {.temperature = 0.8, .top_k = 256}, gb);
  std::vector<int32_t> ids = prompt, want;
  for (int t = 0; t < 40; ++t) {
    const std::size_t start = ids.size() > 16 ? ids.size() - 16 : 0;
    const std::vector<int32_t> window(ids.begin() + static_cast<std::ptrdiff_t>(start), ids.end());
    const std::vector<double> all = model.forward(window, 1).logits.to_vector();
    const std::vector<double> last(all.end() - 256, all.end());
    const double top = *std::max_element(last.begin(), last.end());
    std::vector<double> w(256);
    double total = 0;
    for (std::size_t v = 0; v < 256; ++v) total += w[v] = std::exp((last[v] - top) / 0.8);
    double u = gc.uniform() * total;
    int32_t next = 255;
    for (std::size_t v = 0; v < 256; ++v)
      if ((u -= w[v]) < 0) {
        next = static_cast<int32_t>(v);
        break;
      }
    ids.push_back(next);
    want.push_back(next);
  }
  EXPECT_EQ(a, want);
  EXPECT_EQ(b, want);
}

TEST(Sample, SeededReproducibleAndRefusals) {
  nn::Model model(tiny_config(), 10);
  const std::vector<int32_t> prompt{'x'};
  Generator g1(7), g2(7), g3(8);
  const train::SampleOptions o{.temperature = 1.0, .top_k = 20};
  const auto a = train::sample_bytes(model, prompt, 25, o, g1);
  EXPECT_EQ(train::sample_bytes(model, prompt, 25, o, g2), a);
  EXPECT_NE(train::sample_bytes(model, prompt, 25, o, g3), a);
  Generator g(1);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (double T : {-0.5, nan, inf})
    EXPECT_GLASS_ERROR([&] { train::sample_bytes(model, prompt, 2, {.temperature = T, .top_k = 0}, g); }, {"temperature"});
  for (int64_t k : {-1, 257})
    EXPECT_GLASS_ERROR([&] { train::sample_step(model, prompt, {.temperature = 1, .top_k = k}, g); }, {"top-k", "0 to 256"});
  EXPECT_GLASS_ERROR([&] { train::next_byte_distribution(std::vector<double>(256, 0.0), {.temperature = 1, .top_k = 300}); },
                     {"top-k"});
  EXPECT_GLASS_ERROR([&] { train::sample_step(model, std::vector<int32_t>{}, o, g); }, {"empty"});
  EXPECT_GLASS_ERROR([&] { train::sample_bytes(model, prompt, -1, o, g); }, {"negative"});
}

}  // namespace
