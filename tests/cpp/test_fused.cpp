// Every fused kernel (glass/tensor/fused/fused.h) against the composition of
// primitives its comment says it equals: the same values and the same
// gradients for every input, in float64, on several shapes (batch axes,
// a single row, causal sizes across the 32-row block boundary, strided views).
// Those that promise the composition's very bits (rope, swiglu) are checked
// in float32 with no tolerance as well.
// Also softmax and log_softmax, primitives with rules of their own, against
// the max/sub/exp/sum/div they replace. (test_gradcheck.cpp checks each
// kernel's rule against finite differences; here two rules must agree.)
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "glass/tensor/fast_math.h"
#include "glass/tensor/packed_weight.h"
#include "gradcheck.h"

namespace {

using namespace glass;
using glass_test::randn64;
using glass_test::values_near;
using Xs = std::vector<Tensor>;
using Fn = std::function<Tensor(const Xs&)>;

// Runs f on fresh leaves holding `inputs`, then backward with upstream g;
// returns the output and each input's gradient.
struct Run {
  Tensor out;
  Xs grads;
};
Run run(const Fn& f, const Xs& inputs, const Tensor& g) {
  Xs leaves;
  for (const Tensor& in : inputs) leaves.push_back(in.detach().clone().set_requires_grad());
  Run r{f(leaves), {}};
  r.out.backward(g);
  for (const Tensor& leaf : leaves) r.grads.push_back(leaf.grad());
  return r;
}

// fused(inputs) and composed(inputs) agree in values and in every input's
// gradient under a random upstream gradient (seeded).
::testing::AssertionResult same_as_composition(const Fn& fused, const Fn& composed, const Xs& inputs,
                                               double tol = 1e-12) {
  Tensor shape_probe;
  {
    NoGradGuard ng;
    shape_probe = composed(inputs);
  }
  Generator gen(2024);
  const Tensor g = randn64(shape_probe.shape(), gen).to(shape_probe.dtype());  // upstream gradient, shape of the output
  const Run a = run(fused, inputs, g), b = run(composed, inputs, g);
  if (a.out.shape() != b.out.shape())
    return ::testing::AssertionFailure() << "shapes differ: fused " << to_string(a.out.shape()) << ", composed "
                                         << to_string(b.out.shape());
  if (auto r = values_near(a.out.to_vector(), b.out.to_vector(), tol, tol); !r)
    return ::testing::AssertionFailure() << "values: " << r.message();
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!a.grads[i].defined() || !b.grads[i].defined())
      return ::testing::AssertionFailure() << "input " << i << ": a gradient is missing";
    if (auto r = values_near(a.grads[i].to_vector(), b.grads[i].to_vector(), tol, tol); !r)
      return ::testing::AssertionFailure() << "gradient of input " << i << " (shape " << to_string(inputs[i].shape())
                                           << "): " << r.message();
  }
  return ::testing::AssertionSuccess();
}

// (n, n): 1 where column > row (what a causal row may not see), else 0.
Tensor above_diagonal(int64_t n) {
  std::vector<double> m(static_cast<std::size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) m[i * n + j] = 1.0;
  return Tensor::from_f64(m, {n, n});
}

Shape with_tail(Shape lead, std::initializer_list<int64_t> tail) {
  lead.insert(lead.end(), tail);
  return lead;
}

const std::vector<Shape> kBatches = {{}, {2}, {2, 3}};  // leading axes

TEST(Fused, LinearEqualsMatmulWithTransposedWeight) {
  Generator gen(1);
  PackedWeight packed;
  const Fn composed = [](const Xs& x) { return matmul(x[0], transpose(x[1])); };
  for (const Shape& lead : kBatches) {
    SCOPED_TRACE("x " + to_string(with_tail(lead, {3, 5})));
    const Xs in = {randn64(with_tail(lead, {3, 5}), gen), randn64({4, 5}, gen)};
    EXPECT_TRUE(same_as_composition([](const Xs& x) { return linear(x[0], x[1]); }, composed, in));
    EXPECT_TRUE(same_as_composition([&](const Xs& x) { return linear(x[0], x[1], packed); }, composed, in));
  }
  // one row (1-d x), and a strided x (a transposed view)
  EXPECT_TRUE(same_as_composition([](const Xs& x) { return linear(x[0], x[1]); }, composed,
                                  {randn64({5}, gen), randn64({4, 5}, gen)}));
  EXPECT_TRUE(same_as_composition([](const Xs& x) { return linear(transpose(x[0]), x[1]); },
                                  [](const Xs& x) { return matmul(transpose(x[0]), transpose(x[1])); },
                                  {randn64({5, 3}, gen), randn64({4, 5}, gen)}));
}

TEST(Fused, LinearFloat32PackedPathEqualsMatmul) {
  // float32 takes the packed kernel; its numbers must be matmul's (to rounding)
  Generator gen(2);
  PackedWeight packed;
  const Tensor x = Tensor::randn({2, 7, 33}, gen), w = Tensor::randn({19, 33}, gen);
  for (int call = 0; call < 2; ++call) {  // packs, then reuses the packing
    SCOPED_TRACE("call " + std::to_string(call));
    EXPECT_TRUE(values_near(linear(x, w, packed).to_vector(), matmul(x, transpose(w)).to_vector(), 1e-5, 1e-5));
  }
}

TEST(Fused, CausalScoresEqualMaskedProduct) {
  Generator gen(3);
  for (int64_t n : {1, 4, 33})  // 33: one row into the second 32-row block
    for (const Shape& lead : kBatches) {
      SCOPED_TRACE("q, k " + to_string(with_tail(lead, {n, 3})));
      const Tensor above = above_diagonal(n);
      EXPECT_TRUE(same_as_composition([](const Xs& x) { return causal_scores(x[0], x[1]); },
                                      [&](const Xs& x) { return masked_fill(matmul(x[0], transpose(x[1])), above, 0); },
                                      {randn64(with_tail(lead, {n, 3}), gen), randn64(with_tail(lead, {n, 3}), gen)}));
    }
}

TEST(Fused, CausalMixEqualsProductWithMaskedWeights) {
  Generator gen(4);
  for (int64_t n : {1, 4, 33})
    for (const Shape& lead : kBatches) {
      SCOPED_TRACE("w " + to_string(with_tail(lead, {n, n})));
      const Tensor above = above_diagonal(n);
      EXPECT_TRUE(same_as_composition([](const Xs& x) { return causal_mix(x[0], x[1]); },
                                      [&](const Xs& x) { return matmul(masked_fill(x[0], above, 0), x[1]); },
                                      {randn64(with_tail(lead, {n, n}), gen), randn64(with_tail(lead, {n, 3}), gen)}));
    }
  // strided operands: w and v as transposed views
  const Tensor above = above_diagonal(5);
  EXPECT_TRUE(same_as_composition([](const Xs& x) { return causal_mix(transpose(x[0]), transpose(x[1])); },
                                  [&](const Xs& x) { return matmul(masked_fill(transpose(x[0]), above, 0), transpose(x[1])); },
                                  {randn64({2, 5, 5}, gen), randn64({2, 3, 5}, gen)}));
}

TEST(Fused, CausalSoftmaxEqualsSoftmaxOfMaskedScores) {
  Generator gen(5);
  const double inf = std::numeric_limits<double>::infinity();
  for (int64_t n : {1, 4, 33})
    for (const Shape& lead : kBatches) {
      SCOPED_TRACE("scores " + to_string(with_tail(lead, {n, n})));
      const Tensor above = above_diagonal(n);
      EXPECT_TRUE(same_as_composition([](const Xs& x) { return causal_softmax(x[0]); },
                                      [&](const Xs& x) { return softmax(masked_fill(x[0], above, -inf), -1); },
                                      {randn64(with_tail(lead, {n, n}), gen)}));
    }
  // large scores: both subtract the row maximum first
  const Tensor above = above_diagonal(6);
  EXPECT_TRUE(same_as_composition([](const Xs& x) { return causal_softmax(x[0]); },
                                  [&](const Xs& x) { return softmax(masked_fill(x[0], above, -inf), -1); },
                                  {randn64({2, 6, 6}, gen) * 300.0}));
}

// The fused op against the three ops it replaces, bit for bit (tolerance 0):
// across a 32-row block boundary, with v narrower and wider than q and k,
// in float64 and float32, on strided operands (the model's head views), and
// on the model's size, which the pool shares between threads.
TEST(Fused, CausalAttentionIsItsThreeOpsBitForBit) {
  Generator gen(6);
  const Fn fused = [](const Xs& x) { return causal_attention(x[0], x[1], x[2]); };
  const Fn composed = [](const Xs& x) { return causal_mix(causal_softmax(causal_scores(x[0], x[1])), x[2]); };
  for (DType dtype : {DType::f64, DType::f32})
    for (int64_t n : {1, 4, 33})
      for (const Shape& lead : kBatches)
        for (int64_t dv : {2, 5}) {
          SCOPED_TRACE(std::string(dtype_name(dtype)) + " q, k " + to_string(with_tail(lead, {n, 3})) + ", v width " +
                       std::to_string(dv));
          EXPECT_TRUE(same_as_composition(fused, composed,
                                          {randn64(with_tail(lead, {n, 3}), gen).to(dtype),
                                           randn64(with_tail(lead, {n, 3}), gen).to(dtype),
                                           randn64(with_tail(lead, {n, dv}), gen).to(dtype)},
                                          0.0));
        }
  // the model's operands: (B, n, h, k) viewed as (B, h, n, k), float32, 2 x 4 heads of 128 x 32
  const auto heads = [](const Xs& x) {
    Xs v;
    for (const Tensor& t : x) v.push_back(permute(t, {0, 2, 1, 3}));
    return v;
  };
  const Xs model_sized = {(randn64({2, 128, 4, 32}, gen) * 3.0).to(DType::f32),
                          (randn64({2, 128, 4, 32}, gen) * 3.0).to(DType::f32), randn64({2, 128, 4, 32}, gen).to(DType::f32)};
  EXPECT_TRUE(same_as_composition([&](const Xs& x) { return fused(heads(x)); },
                                  [&](const Xs& x) { return composed(heads(x)); }, model_sized, 0.0));
}

TEST(Fused, CausalAttentionGradientsOfSomeInputsOnly) {
  Generator gen(7);
  const Tensor q = randn64({2, 9, 4}, gen), k = randn64({2, 9, 4}, gen), v = randn64({2, 9, 3}, gen);
  const Tensor g = randn64({2, 9, 3}, gen);
  for (int wanted = 1; wanted < 8; ++wanted) {  // which of q, k, v require grad (bits 0, 1, 2)
    SCOPED_TRACE("inputs with grad " + std::to_string(wanted));
    std::vector<Tensor> got(3), want(3);
    for (int pass = 0; pass < 2; ++pass) {
      Xs x = {q.clone(), k.clone(), v.clone()};
      for (int i = 0; i < 3; ++i)
        if (wanted & (1 << i)) x[i].set_requires_grad();
      const Tensor out = pass == 0 ? causal_attention(x[0], x[1], x[2])
                                   : causal_mix(causal_softmax(causal_scores(x[0], x[1])), x[2]);
      out.backward(g);
      for (int i = 0; i < 3; ++i) (pass == 0 ? got : want)[i] = x[i].grad();
    }
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(got[i].defined(), (wanted & (1 << i)) != 0) << i;
      if (got[i].defined()) EXPECT_EQ(got[i].to_vector(), want[i].to_vector()) << i;
    }
  }
}

TEST(Fused, CausalAttentionNamesBadInput) {
  Generator gen(8);
  const Tensor a = randn64({2, 5, 3}, gen);
  EXPECT_GLASS_ERROR([&] { causal_attention(a, randn64({2, 4, 3}, gen), a); },
                     {"causal_attention", "(2, 5, 3)", "(2, 4, 3)"});
  EXPECT_GLASS_ERROR([&] { causal_attention(a, a, randn64({3, 5, 3}, gen)); }, {"causal_attention", "same leading axes"});
  EXPECT_GLASS_ERROR([&] { causal_attention(a, a, randn64({2, 6, 3}, gen)); }, {"causal_attention", "(2, 6, 3)"});
  EXPECT_GLASS_ERROR([&] { causal_attention(randn64({5}, gen), randn64({5}, gen), randn64({5}, gen)); },
                     {"causal_attention", "(5,)"});
  EXPECT_GLASS_ERROR([&] { causal_attention(a, a, a.to(DType::f32)); }, {"causal_attention", "dtypes differ"});
  // empty sequences and batches are fine
  EXPECT_EQ(causal_attention(randn64({2, 0, 3}, gen), randn64({2, 0, 3}, gen), randn64({2, 0, 4}, gen)).shape(),
            (Shape{2, 0, 4}));
  EXPECT_EQ(causal_attention(randn64({0, 5, 3}, gen), randn64({0, 5, 3}, gen), randn64({0, 5, 4}, gen)).shape(),
            (Shape{0, 5, 4}));
}

TEST(Fused, RotateHalfEqualsNegSliceConcat) {
  Generator gen(6);
  const Fn composed = [](const Xs& x) {
    const int64_t k = x[0].size(-1);
    return concat({neg(slice(x[0], -1, k / 2, k)), slice(x[0], -1, 0, k / 2)}, -1);
  };
  for (const Shape& s : std::vector<Shape>{{2}, {3, 4}, {2, 3, 6}, {1, 2, 3, 8}}) {
    SCOPED_TRACE(to_string(s));
    EXPECT_TRUE(same_as_composition([](const Xs& x) { return rotate_half(x[0]); }, composed, {randn64(s, gen)}));
  }
  // a strided input: (4, 3)^T is (3, 4)
  EXPECT_TRUE(same_as_composition([](const Xs& x) { return rotate_half(transpose(x[0])); },
                                  [&](const Xs& x) { return composed({transpose(x[0])}); }, {randn64({4, 3}, gen)}));
}

// RoPE's tables for n positions of width k, as nn::Rope builds them, in float64.
std::pair<Tensor, Tensor> rope_tables(int64_t n, int64_t k) {
  std::vector<double> c, s;
  for (int64_t pos = 0; pos < n; ++pos)
    for (int64_t j = 0; j < k; ++j) {
      const double angle = static_cast<double>(pos) * std::pow(10000.0, -2.0 * static_cast<double>(j % (k / 2)) / k);
      c.push_back(std::cos(angle));
      s.push_back(std::sin(angle));
    }
  return {Tensor::from_f64(c, {n, k}), Tensor::from_f64(s, {n, k})};
}

TEST(Fused, RopeEqualsMulRotateHalfAdd) {
  Generator gen(10);
  const Fn fused = [](const Xs& x) { return rope(x[0], x[1], x[2]); };
  const Fn composed = [](const Xs& x) { return x[0] * x[1] + rotate_half(x[0]) * x[2]; };
  for (const Shape& s : std::vector<Shape>{{1, 2}, {3, 4}, {2, 5, 6}, {2, 3, 4, 8}}) {
    SCOPED_TRACE(to_string(s));
    const std::pair<Tensor, Tensor> tables = rope_tables(s[s.size() - 2], s.back());
    // the tables as inputs too: their gradients (sums over the leading axes) are checked as well
    EXPECT_TRUE(same_as_composition(fused, composed, {randn64(s, gen), tables.first, tables.second}));
  }
  // the model's strided head view: (B, n, h, k) permuted to (B, h, n, k); and a transposed head axis
  // named, not a structured binding: clang 14 (the wasm build) cannot capture one in a lambda
  const std::pair<Tensor, Tensor> tables = rope_tables(5, 4);
  const Tensor &c = tables.first, &sn = tables.second;
  const Fn heads = [](const Xs& x) { return permute(x[0], {0, 2, 1, 3}); };
  EXPECT_TRUE(same_as_composition([&](const Xs& x) { return rope(heads(x), x[1], x[2]); },
                                  [&](const Xs& x) { return composed({heads(x), x[1], x[2]}); },
                                  {randn64({2, 5, 3, 4}, gen), c, sn}));
  const Fn flipped = [](const Xs& x) { return transpose(x[0], -1, -2); };  // (.., 4, 5) -> (.., 5, 4)
  EXPECT_TRUE(same_as_composition([&](const Xs& x) { return rope(flipped(x), x[1], x[2]); },
                                  [&](const Xs& x) { return composed({flipped(x), x[1], x[2]}); },
                                  {randn64({3, 4, 5}, gen), c, sn}));
}

TEST(Fused, SwigluEqualsSiluTimesUp) {
  Generator gen(11);
  const Fn fused = [](const Xs& x) { return swiglu(x[0], x[1]); };
  const Fn composed = [](const Xs& x) { return silu(x[0]) * x[1]; };
  for (const Shape& s : std::vector<Shape>{{1}, {7}, {3, 4}, {2, 3, 40}}) {
    SCOPED_TRACE(to_string(s));
    // gates far out on both sides, where sigmoid saturates
    EXPECT_TRUE(same_as_composition(fused, composed, {randn64(s, gen) * 6.0, randn64(s, gen)}));
  }
  // strided inputs
  EXPECT_TRUE(same_as_composition([](const Xs& x) { return swiglu(transpose(x[0]), x[1]); },
                                  [](const Xs& x) { return silu(transpose(x[0])) * x[1]; },
                                  {randn64({4, 3}, gen), randn64({3, 4}, gen)}));
}

// The model's float32 numbers must not move when these ops replace their
// compositions (the cli stage's golden hashes pin them): values and gradients
// equal bit for bit, on a size the pool shares between threads too.
TEST(Fused, RopeAndSwigluKeepTheCompositionsBitsInFloat32) {
  Generator gen(12);
  auto f32 = [&](const Shape& s, double scale) { return (randn64(s, gen) * scale).to(DType::f32); };
  const std::pair<Tensor, Tensor> tables = rope_tables(128, 32);
  const Tensor c = tables.first.to(DType::f32), s = tables.second.to(DType::f32);
  const Fn heads = [](const Xs& x) { return permute(reshape(x[0], {2, 128, 4, 32}), {0, 2, 1, 3}); };
  EXPECT_TRUE(same_as_composition([&](const Xs& x) { return rope(heads(x), c, s); },
                                  [&](const Xs& x) { return heads(x) * c + rotate_half(heads(x)) * s; },
                                  {f32({2, 128, 128}, 3.0)}, 0.0));
  EXPECT_TRUE(same_as_composition([](const Xs& x) { return swiglu(x[0], x[1]); },
                                  [](const Xs& x) { return silu(x[0]) * x[1]; },
                                  {f32({2, 128, 384}, 4.0), f32({2, 128, 384}, 1.0)}, 0.0));
}

TEST(Fused, RopeAndSwigluNameBadInput) {
  Generator gen(13);
  const std::pair<Tensor, Tensor> tables = rope_tables(3, 4);
  const Tensor &c = tables.first, &s = tables.second;
  EXPECT_GLASS_ERROR([&] { rope(randn64({4}, gen), c, s); }, {"rope", "positions axis", "(4,)"});
  EXPECT_GLASS_ERROR([&] { rope(randn64({3, 5}, gen), c, s); }, {"rope", "must be even", "(3, 5)"});
  EXPECT_GLASS_ERROR([&] { rope(randn64({2, 4, 4}, gen), c, s); }, {"rope", "(n, k) = (4, 4)", "got cos (3, 4)"});
  EXPECT_GLASS_ERROR([&] { rope(randn64({3, 4}, gen), c, s.to(DType::f32)); }, {"rope", "dtypes differ"});
  EXPECT_GLASS_ERROR([&] { swiglu(randn64({3}, gen), randn64({4}, gen)); }, {"swiglu", "same shape", "(3,) and (4,)"});
  EXPECT_GLASS_ERROR([&] { swiglu(randn64({3}, gen), randn64({3}, gen).to(DType::f32)); }, {"swiglu", "dtypes differ"});
  // empty tensors are fine
  EXPECT_EQ(rope(randn64({0, 3, 4}, gen), c, s).shape(), (Shape{0, 3, 4}));
  EXPECT_EQ(swiglu(randn64({0}, gen), randn64({0}, gen)).shape(), (Shape{0}));
}

TEST(Fused, PickEqualsSumOfOneHotProduct) {
  Generator gen(7);
  struct Case {
    Shape x;
    std::vector<int32_t> ids;
  };
  const std::vector<Case> cases = {
      {{5}, {3}},                          // one position
      {{6, 5}, {2, 0, 2, 4, 1, 1}},        // repeated ids
      {{2, 3, 5}, {4, 4, 0, 1, 3, 2}},
      {{2, 1, 2, 3}, {0, 2, 1, 1}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(to_string(c.x));
    const Shape positions(c.x.begin(), c.x.end() - 1);
    const Tensor hot = one_hot(c.ids, positions, c.x.back(), DType::f64);
    EXPECT_TRUE(same_as_composition([&](const Xs& x) { return pick(x[0], c.ids); },
                                    [&](const Xs& x) { return sum(mul(x[0], hot), -1); }, {randn64(c.x, gen)}));
  }
  // a strided input: (5, 6)^T is (6, 5)
  const std::vector<int32_t> ids = {2, 0, 2, 4, 1, 1};
  const Tensor hot = one_hot(ids, {6}, 5, DType::f64);
  EXPECT_TRUE(same_as_composition([&](const Xs& x) { return pick(transpose(x[0]), ids); },
                                  [&](const Xs& x) { return sum(mul(transpose(x[0]), hot), -1); },
                                  {randn64({5, 6}, gen)}));
}

// softmax and log_softmax are primitives (ops.h) with rules of their own: the
// same check against the composition they replace.
TEST(Fused, SoftmaxAndLogSoftmaxEqualTheirComposition) {
  Generator gen(8);
  for (const Shape& s : std::vector<Shape>{{5}, {3, 4}, {2, 3, 4}}) {
    const int nd = static_cast<int>(s.size());
    for (int axis : {-1, 0}) {
      if (axis == 0 && nd == 1) continue;
      SCOPED_TRACE(to_string(s) + " axis " + std::to_string(axis));
      const Fn softmax_composed = [axis](const Xs& x) {
        const Tensor e = exp(x[0] - max(x[0], axis, true));
        return e / sum(e, axis, true);
      };
      const Fn log_softmax_composed = [axis](const Xs& x) {
        const Tensor shifted = x[0] - max(x[0], axis, true);
        return shifted - log(sum(exp(shifted), axis, true));
      };
      const Tensor in = randn64(s, gen) * 3.0;
      EXPECT_TRUE(same_as_composition([axis](const Xs& x) { return softmax(x[0], axis); }, softmax_composed, {in}));
      EXPECT_TRUE(
          same_as_composition([axis](const Xs& x) { return log_softmax(x[0], axis); }, log_softmax_composed, {in}));
    }
  }
}

// The float32 backward of softmax sums each row's g * y in lanes
// (ops_softmax.cpp); one chain of sums, as before, gives the same floats on
// these rows: lengths around the lane width and its remainders, and causal
// rows (valid lengths 1 .. n). log_softmax's sum of g is checked to float
// precision (its formula may contract differently here).
TEST(Fused, Float32SoftmaxBackwardEqualsOneChainOfSums) {
  Generator gen(14);
  for (int64_t len : {1, 7, 8, 9, 31, 128}) {
    for (int kind = 0; kind < 3; ++kind) {  // softmax, log_softmax, causal_softmax
      SCOPED_TRACE("length " + std::to_string(len) + " kind " + std::to_string(kind));
      const Tensor x = (randn64({3, len, len}, gen) * 4.0).to(DType::f32).set_requires_grad();
      const Tensor g = randn64({3, len, len}, gen).to(DType::f32);
      const Tensor y = kind == 0 ? softmax(x, -1) : kind == 1 ? log_softmax(x, -1) : causal_softmax(x);
      y.backward(g);
      auto floats = [](const Tensor& t) {
        const std::vector<double> v = t.to_vector();  // exact: every float is a double
        return std::vector<float>(v.begin(), v.end());
      };
      const std::vector<float> py = floats(y.detach()), pg = floats(g), dx = floats(x.grad());
      for (int64_t row = 0; row < 3 * len; ++row) {
        const int64_t valid = kind == 2 ? row % len + 1 : len, at = row * len;
        double dot = 0;
        for (int64_t j = 0; j < valid; ++j) dot += kind == 1 ? pg[at + j] : pg[at + j] * py[at + j];
        const float sum = static_cast<float>(dot);
        for (int64_t j = 0; j < len; ++j) {
          if (kind == 1) {  // g - exp(y) * sum: whether that contracts to one multiply-add is the compiler's
            const float e = detail::exp_f32(py[at + j]) * sum;
            ASSERT_NEAR(dx[at + j], pg[at + j] - e, 1e-6 * (std::abs(pg[at + j]) + std::abs(e))) << "row " << row;
          } else {
            ASSERT_EQ(dx[at + j], j >= valid ? 0.0f : py[at + j] * (pg[at + j] - sum))
                << "row " << row << ", column " << j;
          }
        }
      }
    }
  }
}

TEST(Fused, TheCheckCatchesAKernelThatDiffers) {
  // the helper must fail when values agree but gradients do not (detach
  // hides one use of x from autograd), and when values differ
  Generator gen(9);
  const Xs in = {randn64({3, 4}, gen)};
  EXPECT_FALSE(same_as_composition([](const Xs& x) { return x[0] * x[0].detach(); },
                                   [](const Xs& x) { return square(x[0]); }, in));
  EXPECT_FALSE(same_as_composition([](const Xs& x) { return rotate_half(x[0]); },
                                   [](const Xs& x) { return neg(rotate_half(x[0])); }, in));
}

}  // namespace
