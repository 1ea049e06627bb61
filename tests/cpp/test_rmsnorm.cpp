// RMSNorm: the seed lesson's numbers and properties, and its gradient (it has
// no custom backward, so autograd through its six ops is what gets checked).
#include <cmath>
#include <string>
#include <vector>

#include "gradcheck.h"

namespace {

using namespace glass;
using glass_test::gradcheck;
using glass_test::randn64;
using glass_test::values_near;
using Xs = std::vector<Tensor>;

// gamma * x / sqrt(mean(x^2) + eps), row by row over the last axis, in double,
// written without the library.
std::vector<double> reference(const std::vector<double>& x, const std::vector<double>& gamma, double eps) {
  const size_t d = gamma.size();
  std::vector<double> out(x.size());
  for (size_t row = 0; row < x.size() / d; ++row) {
    double ms = 0;
    for (size_t j = 0; j < d; ++j) ms += x[row * d + j] * x[row * d + j];
    ms /= static_cast<double>(d);
    const double r = std::sqrt(ms + eps);
    for (size_t j = 0; j < d; ++j) out[row * d + j] = gamma[j] * x[row * d + j] / r;
  }
  return out;
}

TEST(RMSNorm, Construction) {
  nn::RMSNorm norm(128);
  EXPECT_EQ(norm.dim(), 128);
  EXPECT_EQ(norm.eps(), 1e-6);
  EXPECT_EQ(norm.dtype(), DType::f32);
  EXPECT_EQ(norm.gamma().shape(), (Shape{128}));
  EXPECT_EQ(norm.gamma().to_vector(), std::vector<double>(128, 1.0));  // initialised to 1
  EXPECT_TRUE(norm.gamma().requires_grad());                           // a parameter
  nn::RMSNorm n64(2, 0.5, DType::f64);
  EXPECT_EQ(n64.dtype(), DType::f64);
  EXPECT_EQ(n64.gamma().dtype(), DType::f64);
  EXPECT_EQ(n64.eps(), 0.5);
  n64.set_eps(0);
  EXPECT_EQ(n64.eps(), 0.0);
}

TEST(RMSNorm, VisitNamesGamma) {
  nn::RMSNorm norm(4);
  std::vector<std::string> names;
  norm.visit("blocks.0.norm_attn.", [&](const std::string& name, Tensor& p) {
    names.push_back(name);
    EXPECT_EQ(p.impl(), norm.gamma().impl());
  });
  EXPECT_EQ(names, std::vector<std::string>{"blocks.0.norm_attn.gamma"});
}

TEST(RMSNorm, SeedExampleRoundsToSixDecimals) {
  nn::RMSNorm norm(2, 1e-6, DType::f64);
  Tensor a = norm(Tensor::of({{3., 4.}}, DType::f64));
  ASSERT_EQ(a.shape(), (Shape{1, 2}));
  EXPECT_EQ(a.dtype(), DType::f64);
  EXPECT_EQ(std::round(a.at({0, 0}) * 1e6) / 1e6, 0.848528);
  EXPECT_EQ(std::round(a.at({0, 1}) * 1e6) / 1e6, 1.131371);
  // and the unrounded values are the formula's
  const double r = std::sqrt(12.5 + 1e-6);
  EXPECT_TENSOR(a, (Shape{1, 2}), {3 / r, 4 / r}, 0, 1e-15);
}

TEST(RMSNorm, SeedExampleDifferenceOfScaledInputs) {
  nn::RMSNorm norm(2, 1e-6, DType::f64);
  Tensor a = norm(Tensor::of({{3., 4.}}, DType::f64));
  Tensor b = norm(Tensor::of({{6., 8.}}, DType::f64));
  Tensor diff = b - a;
  EXPECT_TENSOR(diff, (Shape{1, 2}), {2.54558422e-08, 3.39411230e-08}, 0, 1e-6);
  // Not exactly scale invariant with eps > 0: the difference is not zero.
  EXPECT_GT(diff.at({0, 0}), 0);
}

TEST(RMSNorm, MatchesReferenceWithNonUniformGamma) {
  Generator gen(21);
  nn::RMSNorm norm(5, 1e-3, DType::f64);
  Tensor gamma = Tensor::of({0.5, -1, 2, 3, 0.25}, DType::f64);
  norm.set_gamma(gamma);
  EXPECT_EQ(norm.gamma().to_vector(), gamma.to_vector());
  Tensor x = Tensor::randn({2, 3, 5}, gen, DType::f64);
  Tensor y = norm(x);
  EXPECT_EQ(y.shape(), (Shape{2, 3, 5}));
  EXPECT_TRUE(values_near(y.to_vector(), reference(x.to_vector(), gamma.to_vector(), 1e-3), 0, 1e-14));
}

TEST(RMSNorm, Float32) {
  nn::RMSNorm norm(2);  // float32 by default
  Tensor y = norm(Tensor::of({{3, 4}}));
  EXPECT_EQ(y.dtype(), DType::f32);
  EXPECT_TENSOR(y, (Shape{1, 2}), {0.848528, 1.131371}, 1e-6);
}

TEST(RMSNorm, ActsPerRow) {
  Generator gen(22);
  nn::RMSNorm norm(4, 1e-6, DType::f64);
  std::vector<double> xv = Tensor::randn({3, 4}, gen, DType::f64).to_vector();
  const std::vector<double> y1 = norm(Tensor::from_f64(xv, {3, 4})).to_vector();
  xv[4 + 2] += 5.0;  // change row 1 only
  const std::vector<double> y2 = norm(Tensor::from_f64(xv, {3, 4})).to_vector();
  for (size_t i = 0; i < 12; ++i) {
    if (i / 4 == 1) continue;
    EXPECT_EQ(y1[i], y2[i]) << "row " << i / 4 << " changed";
  }
  int changed = 0;
  for (size_t j = 4; j < 8; ++j) changed += y1[j] != y2[j];
  EXPECT_EQ(changed, 4);  // every coordinate of the changed row moves (shared divisor)
}

TEST(RMSNorm, ActsPerRowAcrossABatchAxis) {
  Generator gen(23);
  const int64_t B = 2, n = 3, d = 4;
  nn::RMSNorm norm(d, 1e-6, DType::f64);
  norm.set_gamma(Tensor::of({1, 2, 3, 4}, DType::f64));
  std::vector<double> xv = Tensor::randn({B, n, d}, gen, DType::f64).to_vector();
  const std::vector<double> y1 = norm(Tensor::from_f64(xv, {B, n, d})).to_vector();
  const size_t row = 1 * 3 + 2;  // batch 1, position 2
  for (size_t j = 0; j < 4; ++j) xv[row * 4 + j] *= -3.0 + static_cast<double>(j);
  const std::vector<double> y2 = norm(Tensor::from_f64(xv, {B, n, d})).to_vector();
  for (size_t r = 0; r < 6; ++r)
    for (size_t j = 0; j < 4; ++j) {
      if (r == row) continue;
      EXPECT_EQ(y1[r * 4 + j], y2[r * 4 + j]) << "row " << r;
    }
  bool any = false;
  for (size_t j = 0; j < 4; ++j) any |= y1[row * 4 + j] != y2[row * 4 + j];
  EXPECT_TRUE(any);
  // and no mixing across the batch: each (b, p) row equals the norm of that row alone
  for (size_t r = 0; r < 6; ++r) {
    std::vector<double> one(xv.begin() + static_cast<long>(r * 4), xv.begin() + static_cast<long>(r * 4 + 4));
    const std::vector<double> alone = norm(Tensor::from_f64(one, {4})).to_vector();
    for (size_t j = 0; j < 4; ++j) EXPECT_EQ(alone[j], y2[r * 4 + j]);
  }
}

TEST(RMSNorm, ConstantVectorStaysUncentered) {
  nn::RMSNorm norm(4, 1e-6, DType::f64);
  Tensor y = norm(Tensor::of({{5, 5, 5, 5}, {-2, -2, -2, -2}}, DType::f64));
  const std::vector<double> v = y.to_vector();
  // Constant, nonzero: the mean is not subtracted (LayerNorm would give zeros).
  EXPECT_NEAR(v[0], 5 / std::sqrt(25 + 1e-6), 1e-15);
  EXPECT_NEAR(v[4], -2 / std::sqrt(4 + 1e-6), 1e-15);
  for (int j = 1; j < 4; ++j) {
    EXPECT_EQ(v[static_cast<size_t>(j)], v[0]);
    EXPECT_EQ(v[static_cast<size_t>(4 + j)], v[4]);
  }
  EXPECT_GT(v[0], 0.99);
  EXPECT_LT(v[4], -0.99);
  EXPECT_NEAR(mean(y, -1).at({0}), v[0], 1e-15);  // the row mean is the value itself, not 0
}

TEST(RMSNorm, ZeroVectorMapsToZeroWithPositiveEps) {
  for (double eps : {1e-6, 1e-12, 1.0}) {
    nn::RMSNorm norm(3, eps, DType::f64);
    Tensor y = norm(Tensor::zeros({2, 3}, DType::f64));
    for (double v : y.to_vector()) EXPECT_EQ(v, 0.0) << "eps " << eps;
    nn::RMSNorm n32(3, eps);
    for (double v : n32(Tensor::zeros({1, 3})).to_vector()) EXPECT_EQ(v, 0.0) << "float32, eps " << eps;
  }
}

TEST(RMSNorm, ZeroVectorWithZeroEpsIsNaN) {
  // Documented behaviour, not a bug: eps = 0 is allowed (the epsilon lab shows
  // it), and then the zero vector is 0 / sqrt(0) = 0 / 0 = NaN. That is exactly
  // why eps exists. Nonzero rows in the same tensor are unaffected.
  nn::RMSNorm norm(2, 0.0, DType::f64);
  Tensor y = norm(Tensor::of({{0, 0}, {3, 4}}, DType::f64));
  EXPECT_TRUE(std::isnan(y.at({0, 0})));
  EXPECT_TRUE(std::isnan(y.at({0, 1})));
  EXPECT_NEAR(y.at({1, 0}), 3 / std::sqrt(12.5), 1e-15);
}

TEST(RMSNorm, ScaledInputMatchesEffectiveEpsilonFormula) {
  // RMSNorm(c x) = gamma * x / sqrt(mean(x^2) + eps / c^2), c from 1e-6 to 1e6.
  Generator gen(24);
  const double eps = 1e-6;
  const std::vector<double> gamma = {0.5, -1.25, 2, 3, 0.1};
  nn::RMSNorm norm(5, eps, DType::f64);
  norm.set_gamma(Tensor::from_f64(gamma, {5}));
  Tensor x = Tensor::randn({3, 5}, gen, DType::f64);
  const std::vector<double> xv = x.to_vector();
  for (int e = -12; e <= 12; ++e) {  // c = 10^(e/2): log-spaced, half-decade steps
    const double c = std::pow(10.0, e / 2.0);
    const std::vector<double> got = norm(x * c).to_vector();
    // right-hand side without the library: effective epsilon eps / c^2
    const std::vector<double> want = reference(xv, gamma, eps / (c * c));
    EXPECT_TRUE(values_near(got, want, 0, 1e-12)) << "c = " << c;
  }
}

TEST(RMSNorm, ScaleInvarianceIsExactWithZeroEps) {
  Generator gen(25);
  nn::RMSNorm norm(6, 0.0, DType::f64);
  norm.set_gamma(Tensor::of({1, 2, -1, 0.5, 3, 1}, DType::f64));
  Tensor x = Tensor::randn({4, 6}, gen, DType::f64);
  const std::vector<double> y = norm(x).to_vector();
  for (int e = -12; e <= 12; ++e) {
    const double c = 3.7 * std::pow(10.0, e / 2.0);
    // only float64 rounding separates them: a few ulps
    EXPECT_TRUE(values_near(norm(x * c).to_vector(), y, 0, 1e-14)) << "c = " << c;
  }
  // contrast: with eps > 0, small inputs are visibly damped, not invariant
  nn::RMSNorm damped(6, 1e-6, DType::f64);
  const double small = damped(x * 1e-4).to_vector()[0], unit = damped(x).to_vector()[0];
  EXPECT_GT(std::fabs(small - unit), 1e-3 * std::fabs(unit));
}

TEST(RMSNorm, SetEpsChangesTheOutput) {
  nn::RMSNorm norm(2, 1e-6, DType::f64);
  Tensor x = Tensor::of({{3, 4}}, DType::f64);
  norm.set_eps(12.5 * 3);  // r = sqrt(12.5 + 37.5) = sqrt(50)
  EXPECT_TENSOR(norm(x), (Shape{1, 2}), {3 / std::sqrt(50.0), 4 / std::sqrt(50.0)}, 1e-15);
}

TEST(RMSNorm, GradientOfInputMatchesFiniteDifferences) {
  Generator gen(26);
  for (double eps : {1e-6, 0.5}) {
    auto f = [eps](const Xs& x) {
      nn::RMSNorm norm(4, eps, DType::f64);
      norm.set_gamma(Tensor::of({1.5, -0.5, 2, 0.75}, DType::f64));
      return norm(x[0]);
    };
    SCOPED_TRACE("eps " + std::to_string(eps));
    EXPECT_TRUE(gradcheck(f, {randn64({3, 4}, gen)}));
    EXPECT_TRUE(gradcheck(f, {randn64({2, 3, 4}, gen)}));
    EXPECT_TRUE(gradcheck(f, {randn64({4}, gen)}));
  }
}

TEST(RMSNorm, GradientOfGammaMatchesFiniteDifferences) {
  Generator gen(27);
  const std::vector<double> g0 = {1.5, -0.5, 2, 0.75};
  Tensor x = randn64({2, 3, 4}, gen);
  Tensor up = randn64({2, 3, 4}, gen);
  auto loss = [&](const std::vector<double>& gamma) {
    nn::RMSNorm norm(4, 1e-6, DType::f64);
    norm.set_gamma(Tensor::from_f64(gamma, {4}));
    NoGradGuard ng;
    return sum(norm(x) * up).item();
  };
  nn::RMSNorm norm(4, 1e-6, DType::f64);
  norm.set_gamma(Tensor::from_f64(g0, {4}));
  Tensor xg = x.detach().clone();
  xg.set_requires_grad();
  norm(xg).backward(up);
  ASSERT_TRUE(norm.gamma().grad().defined());
  EXPECT_EQ(norm.gamma().grad().shape(), (Shape{4}));
  const std::vector<double> analytic = norm.gamma().grad().to_vector();
  std::vector<double> numeric(4);
  const double h = 1e-6;
  for (size_t j = 0; j < 4; ++j) {
    std::vector<double> p = g0, m = g0;
    p[j] += h;
    m[j] -= h;
    numeric[j] = (loss(p) - loss(m)) / (2 * h);
  }
  EXPECT_TRUE(values_near(analytic, numeric, 1e-6, 1e-5));
  // and x's gradient from the same pass also matches the helper's check
  EXPECT_TRUE(gradcheck(
      [&](const Xs& xs) {
        nn::RMSNorm n(4, 1e-6, DType::f64);
        n.set_gamma(Tensor::from_f64(g0, {4}));
        return n(xs[0]);
      },
      {x}));
}

TEST(RMSNorm, GradientAtTheZeroVectorIsFinite) {
  // With eps > 0 the zero vector is a smooth point: the gradient is gamma / sqrt(eps).
  nn::RMSNorm norm(2, 1e-6, DType::f64);
  Tensor x = Tensor::zeros({1, 2}, DType::f64).set_requires_grad();
  sum(norm(x)).backward();
  EXPECT_TENSOR(x.grad(), (Shape{1, 2}), {1e3, 1e3}, 1e-9);
}

}  // namespace
