#pragma once
// Shared helpers for the GoogleTest suite:
// - expect_values:  a tensor's shape and values against hand-computed numbers
// - gradcheck:      autograd against central finite differences in float64
// - throws_error:   a glass::Error whose message contains given fragments
// - random inputs:  seeded shapes and values that stay away from kink points
//
// gradcheck weights the output by a random upstream gradient g (seeded), so it
// checks d/dx sum(g * f(x)): a rule that mixes up elements, or gets a scale wrong
// on one of them, cannot hide behind the all-ones gradient of sum().
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "glass/glass.h"

namespace glass_test {

using glass::DType;
using glass::Shape;
using glass::Tensor;

// ---- values ----

inline std::string join(const std::vector<double>& v) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v[i];
  out << "]";
  return out.str();
}

// |got - want| <= atol + rtol * |want| for every element; NaN matches only NaN,
// infinities must match exactly.
inline ::testing::AssertionResult values_near(const std::vector<double>& got, const std::vector<double>& want,
                                              double atol, double rtol = 0) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << "size " << got.size() << " != " << want.size() << "\n  got  "
                                         << join(got) << "\n  want " << join(want);
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], w = want[i];
    bool ok;
    if (std::isnan(w)) ok = std::isnan(g);
    else if (std::isinf(w)) ok = g == w;
    else ok = std::isfinite(g) && std::fabs(g - w) <= atol + rtol * std::fabs(w);
    if (!ok)
      return ::testing::AssertionFailure() << "element " << i << ": got " << g << ", want " << w << "\n  got  "
                                           << join(got) << "\n  want " << join(want);
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult tensor_near(const Tensor& t, const Shape& shape, const std::vector<double>& want,
                                              double atol = 1e-12, double rtol = 0) {
  if (!t.defined()) return ::testing::AssertionFailure() << "tensor is undefined";
  if (t.shape() != shape)
    return ::testing::AssertionFailure() << "shape " << glass::to_string(t.shape()) << " != "
                                         << glass::to_string(shape);
  return values_near(t.to_vector(), want, atol, rtol);
}

#define EXPECT_TENSOR(t, shape, ...) EXPECT_TRUE(::glass_test::tensor_near((t), shape, __VA_ARGS__))

// ---- errors ----

// Runs f; succeeds only if it throws glass::Error whose what() contains every fragment.
template <class F>
::testing::AssertionResult throws_error(F&& f, std::initializer_list<std::string> fragments) {
  try {
    f();
  } catch (const glass::Error& e) {
    const std::string msg = e.what();
    for (const std::string& frag : fragments)
      if (msg.find(frag) == std::string::npos)
        return ::testing::AssertionFailure() << "message \"" << msg << "\" lacks \"" << frag << "\"";
    return ::testing::AssertionSuccess() << "message \"" << msg << "\"";
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-glass exception: " << e.what();
  } catch (...) {
    return ::testing::AssertionFailure() << "threw something that is not a std::exception";
  }
  return ::testing::AssertionFailure() << "did not throw";
}

// EXPECT_GLASS_ERROR([&] { ... }, {"op", "(2, 3)"}): the body must throw
// glass::Error (any other exception, or none, fails) and the message must
// contain every fragment. Variadic so commas in the body need no parentheses.
#define EXPECT_GLASS_ERROR(...) EXPECT_TRUE(::glass_test::throws_error(__VA_ARGS__))

// ---- random inputs ----

inline Shape random_shape(glass::Generator& gen, int min_ndim, int max_ndim, int64_t max_size = 4) {
  const int ndim = min_ndim + static_cast<int>(gen.next_u64() % static_cast<uint64_t>(max_ndim - min_ndim + 1));
  Shape s(static_cast<size_t>(ndim));
  for (auto& d : s) d = 1 + static_cast<int64_t>(gen.next_u64() % static_cast<uint64_t>(max_size));
  return s;
}

// Standard normal values in float64.
inline Tensor randn64(const Shape& shape, glass::Generator& gen) { return Tensor::randn(shape, gen, DType::f64); }

// Uniform in [lo, hi].
inline Tensor uniform64(const Shape& shape, double lo, double hi, glass::Generator& gen) {
  return Tensor::uniform(shape, lo, hi, gen, DType::f64);
}

// Values whose magnitude is at least `gap` (random sign): no kink of relu/abs at 0.
inline Tensor away_from_zero(const Shape& shape, double gap, glass::Generator& gen) {
  std::vector<double> v(static_cast<size_t>(glass::numel(shape)));
  for (auto& x : v) {
    const double mag = gap + gen.uniform();
    x = gen.uniform() < 0.5 ? -mag : mag;
  }
  return Tensor::from_f64(v, shape);
}

// Distinct values 0.1 apart in a random order: max has no ties, even after
// a finite-difference step.
inline Tensor distinct(const Shape& shape, glass::Generator& gen) {
  const size_t n = static_cast<size_t>(glass::numel(shape));
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = 0.1 * static_cast<double>(i) - 0.05 * static_cast<double>(n);
  for (size_t i = n; i > 1; --i) std::swap(v[i - 1], v[gen.next_u64() % i]);
  return Tensor::from_f64(v, shape);
}

// ---- gradcheck ----

using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

struct GradcheckOptions {
  double h = 1e-6;     // central-difference step
  double atol = 1e-6;  // per-element: |autograd - numeric| <= atol + rtol * |numeric|
  double rtol = 1e-5;
  uint64_t seed = 20240601;  // for the upstream gradient
};

inline double weighted_sum(const Tensor& out, const std::vector<double>& g) {
  const std::vector<double> v = out.to_vector();
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i) s += v[i] * g[i];
  return s;
}

// Checks every input's autograd gradient (inputs must be float64) against
// central differences of L(x) = sum(g * f(x)) with a random upstream g.
inline ::testing::AssertionResult gradcheck(const Fn& f, const std::vector<Tensor>& inputs,
                                            GradcheckOptions opt = {}) {
  std::vector<std::vector<double>> base;
  std::vector<Tensor> leaves;
  for (const Tensor& in : inputs) {
    if (in.dtype() != DType::f64) return ::testing::AssertionFailure() << "gradcheck needs float64 inputs";
    base.push_back(in.to_vector());
    Tensor leaf = Tensor::from_f64(base.back(), in.shape());
    leaf.set_requires_grad();
    leaves.push_back(leaf);
  }

  Tensor out = f(leaves);
  if (out.dtype() != DType::f64) return ::testing::AssertionFailure() << "output is not float64";
  if (!out.requires_grad()) return ::testing::AssertionFailure() << "output does not require grad";
  glass::Generator gen(opt.seed);
  std::vector<double> g(static_cast<size_t>(out.numel()));
  for (auto& x : g) x = gen.normal();
  out.backward(Tensor::from_f64(g, out.shape()));

  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor grad = leaves[i].grad();
    if (!grad.defined()) return ::testing::AssertionFailure() << "input " << i << ": no gradient";
    if (grad.shape() != inputs[i].shape())
      return ::testing::AssertionFailure() << "input " << i << ": gradient shape " << glass::to_string(grad.shape())
                                           << " != input shape " << glass::to_string(inputs[i].shape());
    if (grad.dtype() != DType::f64) return ::testing::AssertionFailure() << "input " << i << ": gradient not float64";
    const std::vector<double> analytic = grad.to_vector();

    std::vector<double> numeric(base[i].size());
    glass::NoGradGuard no_grad;
    for (size_t j = 0; j < base[i].size(); ++j) {
      auto eval = [&](double delta) {
        std::vector<Tensor> xs;
        for (size_t k = 0; k < inputs.size(); ++k) {
          std::vector<double> v = base[k];
          if (k == i) v[j] += delta;
          xs.push_back(Tensor::from_f64(v, inputs[k].shape()));
        }
        return weighted_sum(f(xs), g);
      };
      numeric[j] = (eval(opt.h) - eval(-opt.h)) / (2 * opt.h);
    }
    auto r = values_near(analytic, numeric, opt.atol, opt.rtol);
    if (!r) return ::testing::AssertionFailure() << "input " << i << " (shape " << glass::to_string(inputs[i].shape())
                                                 << "), autograd vs numeric: " << r.message();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace glass_test
