// The RMSNorm gradient the lessons show learners, in closed form, against
// autograd through nn::RMSNorm's six ops. Per row x (d,), with upstream g:
//   r  = sqrt(mean(x^2) + eps)
//   x^ = x / r
//   dx = (gamma * g - x^ * mean(gamma * g * x^)) / r
//   dgamma = sum over rows of g * x^
// The closed form is computed here in plain double loops, without the library,
// on random x, gamma and g (float64) for several widths d and eps, including
// eps = 0 (x is random, so never the zero vector).
#include <cmath>
#include <string>
#include <vector>

#include "gradcheck.h"

namespace {

using namespace glass;
using glass_test::values_near;

struct ClosedForm {
  std::vector<double> dx, dgamma;
};

// x and g row-major (rows, d); gamma (d,).
ClosedForm closed_form(const std::vector<double>& x, const std::vector<double>& gamma, const std::vector<double>& g,
                       double eps) {
  const std::size_t d = gamma.size(), rows = x.size() / d;
  ClosedForm out{std::vector<double>(x.size()), std::vector<double>(d, 0.0)};
  for (std::size_t row = 0; row < rows; ++row) {
    const double* xr = &x[row * d];
    const double* gr = &g[row * d];
    double ms = 0;
    for (std::size_t j = 0; j < d; ++j) ms += xr[j] * xr[j];
    const double r = std::sqrt(ms / static_cast<double>(d) + eps);
    double m = 0;  // mean(gamma * g * x^)
    for (std::size_t j = 0; j < d; ++j) m += gamma[j] * gr[j] * (xr[j] / r);
    m /= static_cast<double>(d);
    for (std::size_t j = 0; j < d; ++j) {
      const double xhat = xr[j] / r;
      out.dx[row * d + j] = (gamma[j] * gr[j] - xhat * m) / r;
      out.dgamma[j] += gr[j] * xhat;
    }
  }
  return out;
}

TEST(RMSNormClosedForm, GradientMatchesAutograd) {
  Generator gen(31);
  for (int64_t d : {1, 2, 3, 8, 128})
    for (double eps : {0.0, 1e-6, 0.1, 2.0})
      for (const Shape& lead : std::vector<Shape>{{1}, {3}, {2, 2}}) {
        Shape shape = lead;
        shape.push_back(d);
        SCOPED_TRACE("x " + to_string(shape) + ", eps " + format_scalar(eps));
        nn::RMSNorm norm(d, eps, DType::f64);
        norm.set_gamma(Tensor::randn({d}, gen, DType::f64));
        Tensor x = Tensor::randn(shape, gen, DType::f64).set_requires_grad();
        const Tensor g = Tensor::randn(shape, gen, DType::f64);
        norm(x).backward(g);

        const ClosedForm want = closed_form(x.to_vector(), norm.gamma().to_vector(), g.to_vector(), eps);
        EXPECT_TRUE(values_near(x.grad().to_vector(), want.dx, 1e-12, 1e-10)) << "dx";
        EXPECT_TRUE(values_near(norm.gamma().grad().to_vector(), want.dgamma, 1e-12, 1e-10)) << "dgamma";
      }
}

TEST(RMSNormClosedForm, SeedExample) {
  // By hand: x = [3, 4], gamma = 1, g = 1, eps = 0. r = sqrt(12.5), x^ = x / r,
  // mean(g x^) = 7 / (2 r), so dx_j = (1 - x^_j * 7 / (2 r)) / r = (1 - 7 x_j / 25) / r
  // = [0.16, -0.12] / r.
  nn::RMSNorm norm(2, 0.0, DType::f64);
  Tensor x = Tensor::of({{3, 4}}, DType::f64).set_requires_grad();
  sum(norm(x)).backward();
  const double r = std::sqrt(12.5);
  EXPECT_TRUE(values_near(x.grad().to_vector(), {0.16 / r, -0.12 / r}, 1e-15, 1e-12));
}

TEST(RMSNormClosedForm, TheCheckWouldCatchAMissingTerm) {
  // Without the x^ * mean(...) term (the part that keeps dx orthogonal to x)
  // the formula is wrong, and the comparison above must notice.
  Generator gen(32);
  nn::RMSNorm norm(4, 1e-6, DType::f64);
  Tensor x = Tensor::randn({2, 4}, gen, DType::f64).set_requires_grad();
  const Tensor g = Tensor::randn({2, 4}, gen, DType::f64);
  norm(x).backward(g);
  const std::vector<double> xs = x.to_vector(), gs = g.to_vector();
  std::vector<double> wrong(xs.size());
  for (std::size_t row = 0; row < 2; ++row) {
    double ms = 0;
    for (std::size_t j = 0; j < 4; ++j) ms += xs[row * 4 + j] * xs[row * 4 + j];
    const double r = std::sqrt(ms / 4 + 1e-6);
    for (std::size_t j = 0; j < 4; ++j) wrong[row * 4 + j] = gs[row * 4 + j] / r;  // gamma = 1
  }
  EXPECT_FALSE(values_near(x.grad().to_vector(), wrong, 1e-12, 1e-10));
}

}  // namespace
