// LayerNorm (the variants' norm kind "layer"): values against a closed form
// written without the library, its recorded graph (tensor ops only, no rule of
// its own), and its gradient against central differences in float64.
#include <cmath>
#include <string>
#include <vector>

#include "glass/nn/layernorm.h"
#include "gradcheck.h"

namespace {

using namespace glass;
using glass_test::gradcheck;
using glass_test::randn64;
using glass_test::values_near;
using Xs = std::vector<Tensor>;

// gamma * (x - mean) / sqrt(var + eps) + beta per row, var the biased variance.
std::vector<double> reference(const std::vector<double>& x, const std::vector<double>& gamma,
                              const std::vector<double>& beta, double eps) {
  const size_t d = gamma.size();
  std::vector<double> out(x.size());
  for (size_t row = 0; row < x.size() / d; ++row) {
    double mu = 0, var = 0;
    for (size_t j = 0; j < d; ++j) mu += x[row * d + j];
    mu /= static_cast<double>(d);
    for (size_t j = 0; j < d; ++j) var += (x[row * d + j] - mu) * (x[row * d + j] - mu);
    var /= static_cast<double>(d);
    for (size_t j = 0; j < d; ++j) out[row * d + j] = gamma[j] * (x[row * d + j] - mu) / std::sqrt(var + eps) + beta[j];
  }
  return out;
}

TEST(LayerNorm, ConstructionAndNames) {
  nn::LayerNorm norm(16, 1e-5, DType::f64);
  EXPECT_EQ(norm.dim(), 16);
  EXPECT_EQ(norm.eps(), 1e-5);
  EXPECT_EQ(norm.gamma().to_vector(), std::vector<double>(16, 1.0));
  EXPECT_EQ(norm.beta().to_vector(), std::vector<double>(16, 0.0));
  EXPECT_TRUE(norm.gamma().requires_grad());
  EXPECT_TRUE(norm.beta().requires_grad());
  std::vector<std::string> names;
  norm.visit("blocks.0.norm_attn.", [&](const std::string& name, Tensor&) { names.push_back(name); });
  EXPECT_EQ(names, (std::vector<std::string>{"blocks.0.norm_attn.gamma", "blocks.0.norm_attn.beta"}));
  EXPECT_GLASS_ERROR([] { nn::LayerNorm n(0); }, {"LayerNorm", "positive"});
  EXPECT_GLASS_ERROR([] { nn::LayerNorm n(4, -1); }, {"LayerNorm", "eps"});
  EXPECT_GLASS_ERROR([&] { norm.set_eps(std::nan("")); }, {"eps"});
  EXPECT_GLASS_ERROR([&] { norm(Tensor::zeros({2, 8}, DType::f64)); }, {"LayerNorm", "(..., 16)", "(2, 8)"});
  EXPECT_GLASS_ERROR([&] { norm(Tensor::zeros({2, 16}, DType::f32)); }, {"LayerNorm", "float64"});
}

TEST(LayerNorm, ValuesAgainstTheClosedForm) {
  Generator gen(3);
  nn::LayerNorm norm(16, 1e-5, DType::f64);
  const Tensor x = randn64({3, 5, 16}, gen) * 2.0 + 0.7;
  const Tensor gamma = randn64({16}, gen), beta = randn64({16}, gen);
  norm.gamma() = gamma.detach().clone().set_requires_grad();
  norm.beta() = beta.detach().clone().set_requires_grad();
  EXPECT_TRUE(values_near(norm(x).to_vector(), reference(x.to_vector(), gamma.to_vector(), beta.to_vector(), 1e-5), 1e-13));
  // gamma 1, beta 0: each row has mean 0 and (eps aside) variance 1
  nn::LayerNorm plain(16, 0.0, DType::f64);
  const std::vector<double> y = plain(x).to_vector();
  for (size_t row = 0; row < 15; ++row) {
    double mu = 0, ms = 0;
    for (size_t j = 0; j < 16; ++j) mu += y[row * 16 + j] / 16;
    for (size_t j = 0; j < 16; ++j) ms += y[row * 16 + j] * y[row * 16 + j] / 16;
    EXPECT_NEAR(mu, 0.0, 1e-14);
    EXPECT_NEAR(ms, 1.0, 1e-13);
  }
  // unlike RMSNorm, adding a constant to a row changes nothing
  EXPECT_TRUE(values_near(plain(x + 5.0).to_vector(), y, 1e-12));
}

TEST(LayerNorm, GraphIsNineTensorOps) {
  nn::LayerNorm norm(4, 1e-6, DType::f64);
  Tensor x = Tensor::of({{3, 4, -1, 2}}, DType::f64).set_requires_grad();
  Tensor y = norm(x);
  std::vector<std::string> ops;
  for (const GraphNode& n : trace_graph(y))
    if (n.op != "leaf") ops.push_back(n.op);
  EXPECT_EQ(ops, (std::vector<std::string>{"mean", "sub", "square", "mean", "add_scalar", "sqrt", "div", "mul", "add"}));
}

TEST(LayerNorm, GradientAgainstFiniteDifferences) {
  Generator gen(5);
  for (double eps : {1e-5, 0.5}) {
    auto f = [eps](const Xs& in) {
      nn::LayerNorm norm(8, eps, DType::f64);
      norm.gamma() = in[1];
      norm.beta() = in[2];
      return norm(in[0]);
    };
    EXPECT_TRUE(gradcheck(f, {randn64({2, 3, 8}, gen), randn64({8}, gen), randn64({8}, gen)})) << "eps " << eps;
  }
}

}  // namespace
