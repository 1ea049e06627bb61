// Every op's backward rule against central finite differences in float64, on
// seeded random shapes and values, weighted by a random upstream gradient.
// Inputs avoid kink points: relu away from 0, max without ties, sqrt/log/pow
// on values bounded away from 0.
#include <cmath>
#include <string>
#include <vector>

#include "glass/tensor/packed_weight.h"
#include "gradcheck.h"

namespace {

using namespace glass;
using glass_test::away_from_zero;
using glass_test::distinct;
using glass_test::gradcheck;
using glass_test::GradcheckOptions;
using glass_test::random_shape;
using glass_test::randn64;
using glass_test::uniform64;
using Xs = std::vector<Tensor>;

constexpr int kTrials = 4;  // random shapes per op

// ---- elementwise, binary ----

struct BinaryCase {
  const char* name;
  Tensor (*op)(const Tensor&, const Tensor&);
};

TEST(Gradcheck, BinaryOpsSameShapeRandom) {
  const BinaryCase ops[] = {{"add", add}, {"sub", sub}, {"mul", mul}, {"div", div}};
  Generator gen(101);
  for (const auto& c : ops)
    for (int trial = 0; trial < kTrials; ++trial) {
      const Shape s = random_shape(gen, 1, 3);
      Tensor a = randn64(s, gen);
      // div's denominator stays away from 0
      Tensor b = std::string(c.name) == "div" ? away_from_zero(s, 0.5, gen) : randn64(s, gen);
      SCOPED_TRACE(std::string(c.name) + " " + to_string(s));
      EXPECT_TRUE(gradcheck([&](const Xs& x) { return c.op(x[0], x[1]); }, {a, b}));
    }
}

TEST(Gradcheck, BinaryOpsBroadcasting) {
  const BinaryCase ops[] = {{"add", add}, {"sub", sub}, {"mul", mul}, {"div", div}};
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{3, 1, 4}, {2, 4}}, {{2, 4}, {3, 1, 4}}, {{2, 3}, {}}, {{}, {2, 3}}, {{4, 1}, {1, 5}}, {{2, 1, 3}, {1}},
  };
  Generator gen(102);
  for (const auto& c : ops)
    for (const auto& [sa, sb] : shapes) {
      Tensor a = randn64(sa, gen);
      Tensor b = std::string(c.name) == "div" ? away_from_zero(sb, 0.5, gen) : randn64(sb, gen);
      SCOPED_TRACE(std::string(c.name) + " " + to_string(sa) + " with " + to_string(sb));
      EXPECT_TRUE(gradcheck([&](const Xs& x) { return c.op(x[0], x[1]); }, {a, b}));
    }
}

TEST(Gradcheck, ScalarAddMul) {
  Generator gen(103);
  for (int trial = 0; trial < kTrials; ++trial) {
    const Shape s = random_shape(gen, 0, 3);
    Tensor a = randn64(s, gen);
    SCOPED_TRACE(to_string(s));
    EXPECT_TRUE(gradcheck([](const Xs& x) { return add(x[0], 2.5); }, {a}));
    EXPECT_TRUE(gradcheck([](const Xs& x) { return mul(x[0], -1.75); }, {a}));
    EXPECT_TRUE(gradcheck([](const Xs& x) { return x[0] / 3.0 - 1.0; }, {a}));
  }
}

// ---- elementwise, unary ----

TEST(Gradcheck, UnaryOpsRandom) {
  Generator gen(104);
  struct Unary {
    const char* name;
    std::function<Tensor(const Tensor&)> op;
    double lo, hi;  // input range (avoiding kinks and domain edges)
    bool avoid_zero;
  };
  const std::vector<Unary> ops = {
      {"neg", [](const Tensor& x) { return neg(x); }, -2, 2, false},
      {"square", [](const Tensor& x) { return square(x); }, -2, 2, false},
      {"sqrt", [](const Tensor& x) { return sqrt(x); }, 0.2, 3, false},
      {"exp", [](const Tensor& x) { return exp(x); }, -2, 2, false},
      {"log", [](const Tensor& x) { return log(x); }, 0.2, 3, false},
      {"sigmoid", [](const Tensor& x) { return sigmoid(x); }, -4, 4, false},
      {"silu", [](const Tensor& x) { return silu(x); }, -4, 4, false},
      {"tanh", [](const Tensor& x) { return tanh(x); }, -2, 2, false},
      {"relu", [](const Tensor& x) { return relu(x); }, 0, 0, true},
      {"abs", [](const Tensor& x) { return abs(x); }, 0, 0, true},
      {"pow 2", [](const Tensor& x) { return pow(x, 2); }, -2, 2, false},
      {"pow 3", [](const Tensor& x) { return pow(x, 3); }, -2, 2, false},
      {"pow 0.5", [](const Tensor& x) { return pow(x, 0.5); }, 0.2, 3, false},
      {"pow -1.5", [](const Tensor& x) { return pow(x, -1.5); }, 0.3, 3, false},
      {"pow 1", [](const Tensor& x) { return pow(x, 1); }, -2, 2, false},
  };
  for (const auto& u : ops)
    for (int trial = 0; trial < kTrials; ++trial) {
      const Shape s = random_shape(gen, 0, 3);
      Tensor a = u.avoid_zero ? away_from_zero(s, 0.1, gen) : uniform64(s, u.lo, u.hi, gen);
      SCOPED_TRACE(std::string(u.name) + " " + to_string(s));
      EXPECT_TRUE(gradcheck([&](const Xs& x) { return u.op(x[0]); }, {a}));
    }
}

TEST(Gradcheck, SigmoidSiluAtLargeInputsHaveFiniteGradients) {
  // the backward of a stable sigmoid must not produce NaN at +-1000
  Tensor x = Tensor::of({-1000, -30, 30, 1000}, DType::f64).set_requires_grad();
  sum(sigmoid(x) + silu(x)).backward();
  for (double g : x.grad().to_vector()) EXPECT_TRUE(std::isfinite(g)) << g;
  EXPECT_NEAR(x.grad().at({0}), 0.0, 1e-12);
  EXPECT_NEAR(x.grad().at({3}), 1.0, 1e-12);  // silu' -> 1, sigmoid' -> 0
}

// ---- reductions ----

TEST(Gradcheck, ReductionsOverAxes) {
  Generator gen(105);
  for (int trial = 0; trial < 6; ++trial) {
    const Shape s = random_shape(gen, 1, 4);
    const int nd = static_cast<int>(s.size());
    for (int axis = -nd; axis < nd; ++axis)
      for (bool keep : {false, true}) {
        SCOPED_TRACE(to_string(s) + " axis " + std::to_string(axis) + (keep ? " keepdim" : ""));
        Tensor a = randn64(s, gen);
        EXPECT_TRUE(gradcheck([&](const Xs& x) { return sum(x[0], axis, keep); }, {a}));
        EXPECT_TRUE(gradcheck([&](const Xs& x) { return mean(x[0], axis, keep); }, {a}));
        Tensor d = distinct(s, gen);
        EXPECT_TRUE(gradcheck([&](const Xs& x) { return max(x[0], axis, keep); }, {d}));
      }
  }
}

TEST(Gradcheck, ReductionsOverAll) {
  Generator gen(106);
  for (int trial = 0; trial < kTrials; ++trial) {
    const Shape s = random_shape(gen, 0, 3);
    SCOPED_TRACE(to_string(s));
    EXPECT_TRUE(gradcheck([](const Xs& x) { return sum(x[0]); }, {randn64(s, gen)}));
    EXPECT_TRUE(gradcheck([](const Xs& x) { return mean(x[0]); }, {randn64(s, gen)}));
    EXPECT_TRUE(gradcheck([](const Xs& x) { return max(x[0]); }, {distinct(s, gen)}));
  }
}

TEST(Gradcheck, MaxTieGoesToFirstElement) {
  // Documented rule: ties are broken by index; the whole gradient goes to the first.
  Tensor x = Tensor::of({{1, 5, 5}, {7, 2, 7}}, DType::f64).set_requires_grad();
  sum(max(x, 1)).backward();
  EXPECT_TENSOR(x.grad(), (Shape{2, 3}), {0, 1, 0, 1, 0, 0});
  Tensor y = Tensor::of({3, 3}, DType::f64).set_requires_grad();
  max(y).backward();
  EXPECT_TENSOR(y.grad(), (Shape{2}), {1, 0});
}

TEST(Gradcheck, SumToAndBroadcastTo) {
  Generator gen(107);
  EXPECT_TRUE(gradcheck([](const Xs& x) { return sum_to(x[0], {1, 4}); }, {randn64({3, 2, 4}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return sum_to(x[0], {3, 1, 1}); }, {randn64({3, 2, 4}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return broadcast_to(x[0], {2, 3, 4}); }, {randn64({3, 1}, gen)}));
}

// ---- matmul ----

TEST(Gradcheck, Matmul) {
  Generator gen(108);
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{3, 4}, {4, 5}},       {{2, 1, 3, 4}, {5, 4, 2}}, {{4}, {4, 3}},          {{3, 4}, {4}},
      {{4}, {2, 4, 3}},          {{2, 3, 4}, {4}},       {{1, 2, 3}, {3, 3, 2}},
      {{2, 3, 4}, {4, 1}},
  };
  for (const auto& [sa, sb] : shapes) {
    SCOPED_TRACE(to_string(sa) + " @ " + to_string(sb));
    EXPECT_TRUE(gradcheck([](const Xs& x) { return matmul(x[0], x[1]); }, {randn64(sa, gen), randn64(sb, gen)}));
  }
  // random matrix shapes
  for (int trial = 0; trial < kTrials; ++trial) {
    const Shape s = random_shape(gen, 3, 3, 5);
    SCOPED_TRACE("random m,k,n " + to_string(s));
    EXPECT_TRUE(gradcheck([](const Xs& x) { return matmul(x[0], x[1]); },
                          {randn64({s[0], s[1]}, gen), randn64({s[1], s[2]}, gen)}));
  }
  // transposed (strided) operands, as in x @ W^T
  EXPECT_TRUE(gradcheck([](const Xs& x) { return matmul(x[0], transpose(x[1])); },
                        {randn64({2, 3, 4}, gen), randn64({5, 4}, gen)}));
}

TEST(Gradcheck, MatmulOneDByOneD) {
  Generator gen(117);
  EXPECT_TRUE(gradcheck([](const Xs& x) { return matmul(x[0], x[1]); }, {randn64({4}, gen), randn64({4}, gen)}));
}

// ---- shape ops ----

TEST(Gradcheck, ShapeOps) {
  Generator gen(109);
  EXPECT_TRUE(gradcheck([](const Xs& x) { return reshape(x[0], {4, 3}); }, {randn64({2, 6}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return reshape(x[0], {-1}); }, {randn64({2, 3, 2}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return permute(x[0], {2, 0, 1}); }, {randn64({2, 3, 4}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return permute(x[0], {1, 3, 0, 2}); }, {randn64({2, 3, 1, 2}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return transpose(x[0]); }, {randn64({3, 2, 4}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return transpose(x[0], 0, 2); }, {randn64({3, 2, 4}, gen)}));
  // a view followed by a reshape (non-contiguous input to reshape)
  EXPECT_TRUE(gradcheck([](const Xs& x) { return reshape(transpose(x[0]), {-1}); }, {randn64({3, 4}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return transpose(x[0]).contiguous(); }, {randn64({3, 4}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return x[0].clone(); }, {randn64({3, 4}, gen)}));
}

TEST(Gradcheck, SliceAndConcat) {
  Generator gen(110);
  EXPECT_TRUE(gradcheck([](const Xs& x) { return slice(x[0], 1, 1, 4); }, {randn64({2, 5, 3}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return slice(x[0], -1, -2, 3); }, {randn64({2, 5, 3}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return slice(x[0], 0, 0, 1); }, {randn64({2, 5}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return concat({x[0], x[1], x[2]}, 1); },
                        {randn64({2, 1, 3}, gen), randn64({2, 4, 3}, gen), randn64({2, 2, 3}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return concat({x[0], x[1]}, -1); },
                        {randn64({3, 2}, gen), randn64({3, 5}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return concat({x[0], x[1]}, 0); },
                        {randn64({1, 4}, gen), randn64({2, 4}, gen)}));
  // rotate_half: both halves of the same tensor feed the concat
  EXPECT_TRUE(gradcheck(
      [](const Xs& x) { return concat({-slice(x[0], -1, 2, 4), slice(x[0], -1, 0, 2)}, -1); },
      {randn64({3, 4}, gen)}));
}

TEST(Gradcheck, RotateHalfPrimitive) {
  Generator gen(112);
  EXPECT_TRUE(gradcheck([](const Xs& x) { return rotate_half(x[0]); }, {randn64({2, 3, 6}, gen)}));
  // a strided input (a transposed view) and a use twice (as in rope: x*cos + rotate_half(x)*sin)
  EXPECT_TRUE(gradcheck([](const Xs& x) { return rotate_half(transpose(x[0], 0, 1)) * x[1]; },
                        {randn64({4, 2}, gen), randn64({2, 4}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return x[0] * 0.5 + rotate_half(x[0]) * 2.0; }, {randn64({3, 8}, gen)}));
}

TEST(Gradcheck, RopeAndSwigluFused) {
  Generator gen(113);
  // rope: x and both tables (any values: the rule does not assume cos^2 + sin^2 = 1)
  EXPECT_TRUE(gradcheck([](const Xs& x) { return rope(x[0], x[1], x[2]); },
                        {randn64({2, 3, 4}, gen), randn64({3, 4}, gen), randn64({3, 4}, gen)}));
  // the model's strided head view, and x used again beside the rotation
  EXPECT_TRUE(gradcheck([](const Xs& x) { return rope(permute(x[0], {1, 0, 2}), x[1], x[2]) * x[0].size(0) + x[1]; },
                        {randn64({3, 2, 6}, gen), randn64({3, 6}, gen), randn64({3, 6}, gen)}));
  // swiglu: gates over silu's whole shape (the dip near -1.28, both tails), gate and up the same tensor
  EXPECT_TRUE(
      gradcheck([](const Xs& x) { return swiglu(x[0], x[1]); }, {randn64({3, 5}, gen) * 4.0, randn64({3, 5}, gen)}));
  EXPECT_TRUE(gradcheck([](const Xs& x) { return swiglu(x[0], x[0]); }, {randn64({7}, gen) * 3.0}));
}

// ---- selection ----

TEST(Gradcheck, PickWithRepeatedAndStridedInput) {
  Generator gen(113);
  const std::vector<int32_t> ids = {2, 0, 2, 4, 1, 1};
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return pick(x[0], ids); }, {randn64({2, 3, 5}, gen)}));
  // a transposed (non-contiguous) input: (5, 6)^T is (6, 5)
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return pick(transpose(x[0]), ids); }, {randn64({5, 6}, gen)}));
}

TEST(Gradcheck, WhereAndMaskedFill) {
  Generator gen(111);
  Tensor cond = Tensor::of({{1, 0, 1, 0}, {0, 0, 1, 1}, {1, 1, 0, 0}}, DType::f64);  // (3, 4), constant
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return where(cond, x[0], x[1]); },
                        {randn64({3, 4}, gen), randn64({3, 4}, gen)}));
  // broadcasting: a (4,), b (3, 1)
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return where(cond, x[0], x[1]); },
                        {randn64({4}, gen), randn64({3, 1}, gen)}));
  Tensor mask = Tensor::of({{0, 1, 1}, {0, 0, 1}, {0, 0, 0}}, DType::f64);
  // (a fill value of moderate size: -1e9 in sum(g * out) would swamp the finite differences)
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return masked_fill(x[0], mask, -5); }, {randn64({2, 3, 3}, gen)}));
  // causal attention weights: masked_fill then softmax
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return softmax(masked_fill(x[0], mask, -1e9)); },
                        {randn64({2, 3, 3}, gen)}));
  // the fused primitive attention uses: its own backward rule, same derivative
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return causal_softmax(x[0]); }, {randn64({2, 3, 3}, gen)}));
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return causal_softmax(x[0]); }, {randn64({2, 2, 5, 5}, gen)}));
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return causal_softmax(x[0]); }, {randn64({1, 1}, gen)}));
}

TEST(Gradcheck, Linear) {
  // linear's own backward (dx = dout W, dW = dout^T x over all rows), for a batch of rows and one row
  Generator gen(114);
  PackedWeight packed;
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return linear(x[0], x[1], packed); },
                        {randn64({2, 3, 5}, gen), randn64({4, 5}, gen)}));
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return linear(x[0], x[1], packed); }, {randn64({5}, gen), randn64({4, 5}, gen)}));
}

TEST(Gradcheck, CausalProducts) {
  Generator gen(113);
  // across a 32-row block boundary, and a batch of heads
  for (int64_t n : {1, 4, 35}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    EXPECT_TRUE(gradcheck([&](const Xs& x) { return causal_scores(x[0], x[1]); },
                          {randn64({2, n, 3}, gen), randn64({2, n, 3}, gen)}));
    EXPECT_TRUE(gradcheck([&](const Xs& x) { return causal_mix(x[0], x[1]); },
                          {randn64({2, n, n}, gen), randn64({2, n, 3}, gen)}));
  }
  // attention's chain: scores, causal softmax, mix
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return causal_mix(causal_softmax(causal_scores(x[0], x[1])), x[2]); },
                        {randn64({1, 2, 6, 4}, gen), randn64({1, 2, 6, 4}, gen), randn64({1, 2, 6, 4}, gen)}));
  // the same chain as one op, across a block boundary, v wider than q and k
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return causal_attention(x[0], x[1], x[2]); },
                        {randn64({1, 2, 6, 4}, gen), randn64({1, 2, 6, 4}, gen), randn64({1, 2, 6, 5}, gen)}));
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return causal_attention(x[0], x[1], x[2]); },
                        {randn64({35, 3}, gen), randn64({35, 3}, gen), randn64({35, 2}, gen)}));
}

TEST(Gradcheck, EmbeddingWithRepeatedIds) {
  Generator gen(112);
  const std::vector<int32_t> ids = {2, 0, 2, 2, 4, 0};
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return embedding(x[0], ids, {2, 3}); }, {randn64({5, 3}, gen)}));
  // and the exact count: row 2 used three times, rows 1 and 3 never
  Tensor w = Tensor::zeros({5, 2}, DType::f64).set_requires_grad();
  sum(embedding(w, ids, {6})).backward();
  EXPECT_TENSOR(w.grad(), (Shape{5, 2}), {2, 2, 0, 0, 3, 3, 0, 0, 1, 1});
}

// ---- composed ----

TEST(Gradcheck, SoftmaxLogSoftmax) {
  Generator gen(113);
  for (int trial = 0; trial < kTrials; ++trial) {
    const Shape s = random_shape(gen, 1, 3);
    const int nd = static_cast<int>(s.size());
    for (int axis : {-1, 0, nd - 1}) {
      SCOPED_TRACE(to_string(s) + " axis " + std::to_string(axis));
      EXPECT_TRUE(gradcheck([&](const Xs& x) { return softmax(x[0], axis); }, {randn64(s, gen)}));
      EXPECT_TRUE(gradcheck([&](const Xs& x) { return log_softmax(x[0], axis); }, {randn64(s, gen)}));
    }
  }
  // around large values the gradient is still right (computed stably)
  Tensor big = add(randn64({2, 3}, gen), 1000.0);
  EXPECT_TRUE(gradcheck([](const Xs& x) { return log_softmax(x[0]); }, {big}, {.h = 1e-6, .atol = 1e-5}));
}

TEST(Gradcheck, CrossEntropy) {
  Generator gen(114);
  const std::vector<int32_t> t2 = {1, 0, 3, 3, 2, 1};
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return cross_entropy(x[0], t2); }, {randn64({6, 4}, gen)}));
  EXPECT_TRUE(gradcheck([&](const Xs& x) { return cross_entropy(x[0], t2); }, {randn64({2, 3, 4}, gen)}));
  // closed form: d/dlogits = (softmax - onehot) / N
  Tensor logits = randn64({3, 5}, gen).set_requires_grad();
  const std::vector<int32_t> t = {4, 0, 2};
  cross_entropy(logits, t).backward();
  Tensor want;
  {
    NoGradGuard ng;
    want = (softmax(logits.detach()) - one_hot(t, {3}, 5, DType::f64)) / 3.0;
  }
  EXPECT_TRUE(glass_test::values_near(logits.grad().to_vector(), want.to_vector(), 1e-14));
}

TEST(Gradcheck, ComposedFunction) {
  // A small attention-like expression: x used three times, views, matmul,
  // broadcasting, reductions and a composed softmax in one graph.
  Generator gen(115);
  auto f = [](const Xs& x) {
    const Tensor& h = x[0];  // (2, 3, 4)
    const Tensor& w = x[1];  // (4, 4)
    const Tensor& g = x[2];  // (4,)
    Tensor q = matmul(h, transpose(w));                                   // (2, 3, 4)
    Tensor scores = matmul(q, transpose(h)) / 2.0;                        // (2, 3, 3)
    Tensor att = softmax(scores);                                         // (2, 3, 3)
    Tensor mixed = matmul(att, h);                                        // (2, 3, 4)
    Tensor gate = silu(mixed) * tanh(h) * g;                              // (2, 3, 4)
    return sum(gate, -1, true) + mean(exp(h * 0.5), 1, true) - square(h); // (2, 3, 4)
  };
  EXPECT_TRUE(gradcheck(f, {randn64({2, 3, 4}, gen), randn64({4, 4}, gen), randn64({4}, gen)}));
}

TEST(Gradcheck, HelperCatchesAWrongGradient) {
  // Guard against a gradcheck that always passes: a function whose recorded
  // backward differs from its values must fail. detach() hides x from the
  // graph in one factor, so autograd sees d(x * c)/dx = c but the true
  // derivative of x*x is 2x.
  Generator gen(116);
  auto wrong = [](const Xs& x) { return x[0] * x[0].detach(); };
  EXPECT_FALSE(gradcheck(wrong, {uniform64({3}, 1, 2, gen)}));
}

}  // namespace
