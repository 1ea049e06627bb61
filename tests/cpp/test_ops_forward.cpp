// Every op's forward pass against values computed by hand (or, for big
// matmuls, against a naive triple loop in double).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "glass/tensor/gemm.h"
#include "gradcheck.h"

namespace {

using namespace glass;

const double kInf = std::numeric_limits<double>::infinity();

Tensor arange(int64_t n, const Shape& shape, DType dtype = DType::f64) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<double>(i);
  return Tensor::from_vector(v, shape, dtype);
}

// ---- elementwise ----

TEST(OpsForward, ScalarAddMulAndOperators) {
  Tensor x = Tensor::of({1, 2}, DType::f64);
  EXPECT_TENSOR(add(x, 0.5), (Shape{2}), {1.5, 2.5});
  EXPECT_TENSOR(mul(x, 3.0), (Shape{2}), {3, 6});
  EXPECT_TENSOR(x + 0.5, (Shape{2}), {1.5, 2.5});
  EXPECT_TENSOR(x - 0.5, (Shape{2}), {0.5, 1.5});
  EXPECT_TENSOR(x * -2.0, (Shape{2}), {-2, -4});
  EXPECT_TENSOR(-2.0 * x, (Shape{2}), {-2, -4});
  EXPECT_TENSOR(x / 4.0, (Shape{2}), {0.25, 0.5});
  EXPECT_TENSOR(-x, (Shape{2}), {-1, -2});
  EXPECT_TENSOR(neg(Tensor::of({0, -3}, DType::f64)), (Shape{2}), {0, 3});
  // scalars take the tensor's dtype
  EXPECT_EQ(add(Tensor::of({1}), 1e-8).dtype(), DType::f32);
  EXPECT_EQ(add(Tensor::of({1}), 1e-8).item(), 1.0);  // 1 + 1e-8 rounds to 1 in float32
  EXPECT_NE(add(Tensor::of({1}, DType::f64), 1e-8).item(), 1.0);
}

TEST(OpsForward, BinarySameShape) {
  Tensor a = Tensor::of({{1, 2}, {3, 4}}, DType::f64);
  Tensor b = Tensor::of({{5, 6}, {7, 8}}, DType::f64);
  EXPECT_TENSOR(add(a, b), (Shape{2, 2}), {6, 8, 10, 12});
  EXPECT_TENSOR(sub(a, b), (Shape{2, 2}), {-4, -4, -4, -4});
  EXPECT_TENSOR(mul(a, b), (Shape{2, 2}), {5, 12, 21, 32});
  EXPECT_TENSOR(div(a, b), (Shape{2, 2}), {0.2, 1.0 / 3, 3.0 / 7, 0.5}, 1e-15);
  EXPECT_TENSOR(div(b, a), (Shape{2, 2}), {5, 3, 7.0 / 3, 2}, 1e-15);
}

TEST(OpsForward, PowSquareSqrt) {
  EXPECT_TENSOR(pow(Tensor::of({1, 2, 4}, DType::f64), 0.5), (Shape{3}), {1, std::sqrt(2.0), 2}, 1e-15);
  EXPECT_TENSOR(pow(Tensor::of({1, 2, -3}, DType::f64), 3), (Shape{3}), {1, 8, -27});
  EXPECT_TENSOR(pow(Tensor::of({2, 4}, DType::f64), -1), (Shape{2}), {0.5, 0.25});
  EXPECT_TENSOR(pow(Tensor::of({5, 7}, DType::f64), 0), (Shape{2}), {1, 1});
  EXPECT_TENSOR(square(Tensor::of({-3, 2, 0.5}, DType::f64)), (Shape{3}), {9, 4, 0.25});
  EXPECT_TENSOR(sqrt(Tensor::of({4, 9, 0, 2}, DType::f64)), (Shape{4}), {2, 3, 0, std::sqrt(2.0)}, 1e-15);
}

TEST(OpsForward, ExpLog) {
  const double e = std::exp(1.0);
  EXPECT_TENSOR(exp(Tensor::of({0, 1, -1}, DType::f64)), (Shape{3}), {1, e, 1 / e}, 1e-15);
  EXPECT_TENSOR(log(Tensor::of({1, e, 0.5}, DType::f64)), (Shape{3}), {0, 1, -std::log(2.0)}, 1e-15);
  EXPECT_TENSOR(exp(Tensor::of({1000}, DType::f64)), (Shape{1}), {kInf});
  EXPECT_TENSOR(log(Tensor::of({0}, DType::f64)), (Shape{1}), {-kInf});
}

TEST(OpsForward, SigmoidSiluTanhRelu) {
  const double ln3 = std::log(3.0), ln2 = std::log(2.0);
  Tensor x = Tensor::of({0, ln3, -ln3}, DType::f64);
  EXPECT_TENSOR(sigmoid(x), (Shape{3}), {0.5, 0.75, 0.25}, 1e-15);
  EXPECT_TENSOR(silu(x), (Shape{3}), {0, 0.75 * ln3, -0.25 * ln3}, 1e-15);
  EXPECT_TENSOR(tanh(Tensor::of({0, ln2, -ln2}, DType::f64)), (Shape{3}), {0, 0.6, -0.6}, 1e-15);
  EXPECT_TENSOR(relu(Tensor::of({-1, 0, 2, -0.5, 3.5}, DType::f64)), (Shape{5}), {0, 0, 2, 0, 3.5});
  // stable at the extremes: no NaN from exp overflow
  Tensor big = Tensor::of({-1000, 1000}, DType::f64);
  EXPECT_TENSOR(sigmoid(big), (Shape{2}), {0, 1});
  EXPECT_TENSOR(silu(big), (Shape{2}), {0, 1000});
  EXPECT_TENSOR(tanh(big), (Shape{2}), {-1, 1});
  Tensor big32 = Tensor::of({-1000, 1000}, DType::f32);
  EXPECT_TENSOR(sigmoid(big32), (Shape{2}), {0, 1});
  EXPECT_TENSOR(silu(big32), (Shape{2}), {0, 1000});
}

TEST(OpsForward, Abs) {
  EXPECT_TENSOR(abs(Tensor::of({-1.5, 0, 2, -0.0, -kInf}, DType::f64)), (Shape{5}), {1.5, 0, 2, 0, kInf});
  EXPECT_TENSOR(abs(Tensor::of({{-1, 2}, {3, -4}})), (Shape{2, 2}), {1, 2, 3, 4});
  EXPECT_EQ(abs(Tensor::of({-1})).dtype(), DType::f32);
  EXPECT_TENSOR(abs(transpose(Tensor::of({{-1, 2}, {3, -4}}, DType::f64))), (Shape{2, 2}), {1, 3, 2, 4});
  // the gradient is sign(x), and 0 at exactly 0
  Tensor x = Tensor::of({-2, 0, 3}, DType::f64).set_requires_grad();
  sum(abs(x)).backward();
  EXPECT_TENSOR(x.grad(), (Shape{3}), {-1, 0, 1});
}

TEST(OpsForward, UnaryKeepsDTypeAndHandlesViews) {
  Tensor x = Tensor::of({{1, 2}, {3, 4}});
  EXPECT_EQ(exp(x).dtype(), DType::f32);
  EXPECT_EQ(sqrt(x).dtype(), DType::f32);
  EXPECT_EQ(relu(x).dtype(), DType::f32);
  Tensor t = transpose(Tensor::of({{1, 2}, {3, 4}}, DType::f64));
  EXPECT_TENSOR(square(t), (Shape{2, 2}), {1, 9, 4, 16});
  EXPECT_TENSOR(t * 1.0, (Shape{2, 2}), {1, 3, 2, 4});
}

// ---- reductions ----

TEST(OpsForward, SumMeanMaxTwoD) {
  Tensor x = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64);
  EXPECT_TENSOR(sum(x, 0), (Shape{3}), {5, 7, 9});
  EXPECT_TENSOR(sum(x, 0, true), (Shape{1, 3}), {5, 7, 9});
  EXPECT_TENSOR(sum(x, 1), (Shape{2}), {6, 15});
  EXPECT_TENSOR(sum(x, -1, true), (Shape{2, 1}), {6, 15});
  EXPECT_TENSOR(sum(x), Shape{}, {21});
  EXPECT_TENSOR(mean(x, 0), (Shape{3}), {2.5, 3.5, 4.5});
  EXPECT_TENSOR(mean(x, 1), (Shape{2}), {2, 5});
  EXPECT_TENSOR(mean(x, -2, true), (Shape{1, 3}), {2.5, 3.5, 4.5});
  EXPECT_TENSOR(mean(x), Shape{}, {3.5});
  EXPECT_TENSOR(max(x, 0), (Shape{3}), {4, 5, 6});
  EXPECT_TENSOR(max(x, 1, true), (Shape{2, 1}), {3, 6});
  EXPECT_TENSOR(max(x, -1), (Shape{2}), {3, 6});
  EXPECT_TENSOR(max(x), Shape{}, {6});
}

TEST(OpsForward, MaxOfNegativesAndUnsorted) {
  Tensor y = Tensor::of({{-5, -2, -9}, {-7, -8, -1}}, DType::f64);
  EXPECT_TENSOR(max(y, 1), (Shape{2}), {-2, -1});
  EXPECT_TENSOR(max(y, 0), (Shape{3}), {-5, -2, -1});
  EXPECT_TENSOR(max(y), Shape{}, {-1});
  Tensor z = Tensor::of({3, 9, -4, 9, 2}, DType::f64);  // a tie: value is the same either way
  EXPECT_TENSOR(max(z, 0), Shape{}, {9});
}

TEST(OpsForward, ReductionsThreeD) {
  Tensor x = arange(24, {2, 3, 4});  // x[i][j][k] = 12 i + 4 j + k
  EXPECT_TENSOR(sum(x, 1), (Shape{2, 4}), {12, 15, 18, 21, 48, 51, 54, 57});
  EXPECT_TENSOR(sum(x, 1, true), (Shape{2, 1, 4}), {12, 15, 18, 21, 48, 51, 54, 57});
  EXPECT_TENSOR(sum(x, -1), (Shape{2, 3}), {6, 22, 38, 54, 70, 86});
  EXPECT_TENSOR(mean(x, 0), (Shape{3, 4}), {6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17});
  EXPECT_TENSOR(mean(x, -3, true), (Shape{1, 3, 4}), {6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17});
  EXPECT_TENSOR(max(x, 1), (Shape{2, 4}), {8, 9, 10, 11, 20, 21, 22, 23});
  EXPECT_TENSOR(max(x, -2, true), (Shape{2, 1, 4}), {8, 9, 10, 11, 20, 21, 22, 23});
  EXPECT_TENSOR(mean(x, 2), (Shape{2, 3}), {1.5, 5.5, 9.5, 13.5, 17.5, 21.5});
  EXPECT_TENSOR(sum(x), Shape{}, {276});
  EXPECT_TENSOR(mean(x), Shape{}, {11.5});
  EXPECT_TENSOR(max(x), Shape{}, {23});
}

TEST(OpsForward, ReductionsOnAView) {
  Tensor x = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64);
  Tensor t = transpose(x);  // (3, 2)
  EXPECT_TENSOR(sum(t, 0), (Shape{2}), {6, 15});
  EXPECT_TENSOR(max(t, 1), (Shape{3}), {4, 5, 6});
  EXPECT_TENSOR(mean(t, -1, true), (Shape{3, 1}), {2.5, 3.5, 4.5});
}

TEST(OpsForward, Float32MeanOfManyValues) {
  // 10000 copies of 0.1f: a naive float accumulator drifts; the mean must not
  // drift beyond float32 rounding of the result.
  Tensor x = Tensor::full({10000}, 0.1, DType::f32);
  EXPECT_NEAR(mean(x).item(), static_cast<double>(0.1f), 1e-6);
  EXPECT_NEAR(sum(x).item(), 1000.0, 1e-2);
}

// ---- matmul ----

// Naive reference for contiguous (..., m, k) @ (..., k, n) with batch broadcasting,
// written independently of the library (only at() is used).
std::vector<double> matmul_reference(const Tensor& a, const Tensor& b, Shape* out_shape) {
  const Shape& as = a.shape();
  const Shape& bs = b.shape();
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  Shape ab(as.begin(), as.end() - 2), bb(bs.begin(), bs.end() - 2);
  const size_t nb = std::max(ab.size(), bb.size());
  while (ab.size() < nb) ab.insert(ab.begin(), 1);
  while (bb.size() < nb) bb.insert(bb.begin(), 1);
  Shape batch(nb);
  for (size_t i = 0; i < nb; ++i) batch[i] = std::max(ab[i], bb[i]);
  *out_shape = batch;
  out_shape->push_back(m);
  out_shape->push_back(n);
  const std::vector<double> av = a.to_vector(), bv = b.to_vector();
  const int64_t nbatch = numel(batch);
  std::vector<double> out;
  for (int64_t flat = 0; flat < nbatch; ++flat) {
    int64_t rem = flat, aoff = 0, boff = 0, astride = m * k, bstride = k * n;
    for (size_t d = nb; d-- > 0;) {
      const int64_t idx = rem % batch[d];
      rem /= batch[d];
      aoff += (ab[d] == 1 ? 0 : idx) * astride;
      boff += (bb[d] == 1 ? 0 : idx) * bstride;
      astride *= ab[d];
      bstride *= bb[d];
    }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p)
          s += av[static_cast<size_t>(aoff + i * k + p)] * bv[static_cast<size_t>(boff + p * n + j)];
        out.push_back(s);
      }
  }
  return out;
}

TEST(OpsForward, MatmulSmallByHand) {
  Tensor a = Tensor::of({{1, 2}, {3, 4}}, DType::f64);
  Tensor b = Tensor::of({{5, 6}, {7, 8}}, DType::f64);
  EXPECT_TENSOR(matmul(a, b), (Shape{2, 2}), {19, 22, 43, 50});
  Tensor c = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64);
  Tensor d = Tensor::of({{7, 8}, {9, 10}, {11, 12}}, DType::f64);
  EXPECT_TENSOR(matmul(c, d), (Shape{2, 2}), {58, 64, 139, 154});
  EXPECT_TENSOR(matmul(d, c), (Shape{3, 3}), {39, 54, 69, 49, 68, 87, 59, 82, 105});
  // float32 too
  EXPECT_TENSOR(matmul(Tensor::of({{1, 2}, {3, 4}}), Tensor::of({{5, 6}, {7, 8}})), (Shape{2, 2}), {19, 22, 43, 50});
}

TEST(OpsForward, MatmulOneDOperands) {
  Tensor v = Tensor::of({1, 2, 3}, DType::f64);
  Tensor c = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64);
  Tensor d = Tensor::of({{7, 8}, {9, 10}, {11, 12}}, DType::f64);
  EXPECT_TENSOR(matmul(v, d), (Shape{2}), {58, 64});  // row @ matrix
  EXPECT_TENSOR(matmul(c, v), (Shape{2}), {14, 32});  // matrix @ column
  // 1-d with a batched operand: (3,) @ (2, 3, 2) -> (2, 2)
  Tensor bd = concat({reshape(d, {1, 3, 2}), reshape(d * 2.0, {1, 3, 2})}, 0);
  EXPECT_TENSOR(matmul(v, bd), (Shape{2, 2}), {58, 64, 116, 128});
  // (2, 2, 3) @ (3,) -> (2, 2)
  Tensor bc = concat({reshape(c, {1, 2, 3}), reshape(-c, {1, 2, 3})}, 0);
  EXPECT_TENSOR(matmul(bc, v), (Shape{2, 2}), {14, 32, -14, -32});
}

TEST(OpsForward, MatmulOneDByOneDIsADotProduct) {
  // (k,) @ (k,) -> (): both 1-d rules apply, both axes are dropped.
  Tensor v = Tensor::of({1, 2, 3}, DType::f64);
  Tensor w = Tensor::of({4, 5, 6}, DType::f64);
  EXPECT_TENSOR(matmul(v, w), Shape{}, {32});
}

TEST(OpsForward, MatmulBatchBroadcastAgainstReference) {
  Generator gen(11);
  struct Case {
    Shape a, b;
  };
  const std::vector<Case> cases = {
      {{2, 1, 3, 4}, {5, 4, 2}}, {{3, 2, 5}, {5, 4}}, {{2, 3}, {4, 3, 2}},
      {{1, 2, 2}, {3, 2, 2}},    {{2, 1, 2, 3}, {1, 4, 3, 2}},
  };
  for (const Case& c : cases) {
    Tensor a = Tensor::randn(c.a, gen, DType::f64);
    Tensor b = Tensor::randn(c.b, gen, DType::f64);
    Shape want_shape;
    const std::vector<double> want = matmul_reference(a, b, &want_shape);
    SCOPED_TRACE(to_string(c.a) + " @ " + to_string(c.b));
    EXPECT_TENSOR(matmul(a, b), want_shape, want, 1e-12, 1e-12);
  }
  // the example shape explicitly
  Tensor a = Tensor::ones({2, 1, 3, 4}, DType::f64);
  Tensor b = Tensor::ones({5, 4, 2}, DType::f64);
  EXPECT_EQ(matmul(a, b).shape(), (Shape{2, 5, 3, 2}));
}

TEST(OpsForward, MatmulKernelEdgesAndViews) {
  // Sizes that are not multiples of any register tile, in both dtypes, plus
  // the default model's 128x128 @ 128x384; and strided (transposed) operands.
  Generator gen(5);
  const std::vector<std::vector<int64_t>> mkn = {{1, 1, 1}, {3, 5, 7}, {37, 53, 29}, {8, 16, 32}, {128, 128, 384}};
  for (const auto& s : mkn) {
    for (DType dt : {DType::f64, DType::f32}) {
      Tensor a = Tensor::randn({s[0], s[1]}, gen, dt);
      Tensor b = Tensor::randn({s[1], s[2]}, gen, dt);
      Shape want_shape;
      const std::vector<double> want = matmul_reference(a, b, &want_shape);
      SCOPED_TRACE(std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]) + " " +
                   std::string(dtype_name(dt)));
      const double tol = dt == DType::f64 ? 1e-12 : 2e-5 * std::sqrt(static_cast<double>(s[1]));
      Tensor got = matmul(a, b);
      EXPECT_EQ(got.dtype(), dt);
      EXPECT_TENSOR(got, want_shape, want, tol, tol);
    }
  }
  Tensor a = Tensor::randn({6, 5}, gen, DType::f64);
  Tensor b = Tensor::randn({7, 6}, gen, DType::f64);
  // (5,6) @ (6,7) from transposed views
  Shape ws;
  const std::vector<double> want = matmul_reference(transpose(a).contiguous(), transpose(b).contiguous(), &ws);
  EXPECT_TENSOR(matmul(transpose(a), transpose(b)), ws, want, 1e-12, 1e-12);
}

TEST(OpsForward, MatmulRaggedStripsEqualFullTilesBitForBit) {
  // A strip of fewer rows than the register tile (4, 6 or 8 rows by build)
  // runs a tile of its own height. Each row of C must be the same bits as in
  // a product where that row sits in a full strip: the first m rows of a
  // 24-row product, for every m up to 17 (every remainder of every tile), with
  // A row-major (read in place) and transposed (packed), in both dtypes; and
  // B row-major (read in place) and transposed (packed), 37 columns wide: a
  // short strip takes two full panels at once where there are two.
  Generator gen(11);
  for (DType dt : {DType::f64, DType::f32}) {
    const Tensor a = Tensor::randn({24, 40}, gen, dt), at = transpose(Tensor::randn({40, 24}, gen, dt));
    for (const Tensor& b : {Tensor::randn({40, 37}, gen, dt), transpose(Tensor::randn({37, 40}, gen, dt))})
    for (const Tensor& full_a : {a, at}) {
      const Tensor full = matmul(full_a, b).to(DType::f64);  // (24, 37)
      for (int64_t m = 1; m <= 17; ++m) {
        SCOPED_TRACE(std::string(dtype_name(dt)) + (full_a.is_contiguous() ? " A row-major" : " A transposed") +
                     (b.is_contiguous() ? ", B row-major" : ", B transposed") + " m=" + std::to_string(m));
        const Tensor part = matmul(slice(full_a, 0, 0, m), b).to(DType::f64);  // (m, 37)
        Shape ws;
        const std::vector<double> want = matmul_reference(slice(full_a, 0, 0, m), b, &ws);
        const double tol = dt == DType::f64 ? 1e-12 : 2e-4;
        EXPECT_TENSOR(part, ws, want, tol, tol);
        const std::vector<double> got = part.to_vector(), all = full.to_vector();
        EXPECT_TRUE(std::equal(got.begin(), got.end(), all.begin())) << "a row's bits depend on the strip's height";
      }
    }
  }
}

// ---- shape ops ----

TEST(OpsForward, ReshapePermuteTranspose) {
  Tensor x = arange(6, {2, 3});
  EXPECT_TENSOR(reshape(x, {3, 2}), (Shape{3, 2}), {0, 1, 2, 3, 4, 5});
  EXPECT_TENSOR(reshape(x, {-1, 2}), (Shape{3, 2}), {0, 1, 2, 3, 4, 5});
  EXPECT_TENSOR(transpose(x), (Shape{3, 2}), {0, 3, 1, 4, 2, 5});
  EXPECT_TENSOR(transpose(x, 1, 0), (Shape{3, 2}), {0, 3, 1, 4, 2, 5});
  EXPECT_TENSOR(permute(x, {1, 0}), (Shape{3, 2}), {0, 3, 1, 4, 2, 5});
  Tensor y = arange(24, {2, 3, 4});
  // (2,3,4) -> (3,2,4), out[j][i][k] = 12 i + 4 j + k
  Tensor p = permute(y, {1, 0, 2});
  EXPECT_TENSOR(p, (Shape{3, 2, 4}),
                {0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19, 8, 9, 10, 11, 20, 21, 22, 23});
  // the attention head split: (n, h*k) -> (n, h, k) -> (h, n, k)
  Tensor heads = permute(reshape(arange(8, {2, 4}), {2, 2, 2}), {1, 0, 2});
  EXPECT_TENSOR(heads, (Shape{2, 2, 2}), {0, 1, 4, 5, 2, 3, 6, 7});
}

TEST(OpsForward, SliceAlongAxis) {
  Tensor x = arange(10, {2, 5});
  EXPECT_TENSOR(slice(x, 1, 1, 4), (Shape{2, 3}), {1, 2, 3, 6, 7, 8});
  EXPECT_TENSOR(slice(x, 1, -2, 5), (Shape{2, 2}), {3, 4, 8, 9});
  EXPECT_TENSOR(slice(x, -1, 0, -3), (Shape{2, 2}), {0, 1, 5, 6});
  EXPECT_TENSOR(slice(x, 0, 1, 2), (Shape{1, 5}), {5, 6, 7, 8, 9});
  EXPECT_TENSOR(slice(x, 1, 2, 2), (Shape{2, 0}), {});  // empty range is fine
  Tensor y = arange(24, {2, 3, 4});
  EXPECT_TENSOR(slice(y, 1, 2, 3), (Shape{2, 1, 4}), {8, 9, 10, 11, 20, 21, 22, 23});
}

TEST(OpsForward, RotateHalfMatchesSliceNegConcat) {
  Tensor x = Tensor::of({{1, 2, 3, 4}, {5, 6, 7, 8}}, DType::f64);
  EXPECT_TENSOR(rotate_half(x), (Shape{2, 4}), {-3, -4, 1, 2, -7, -8, 5, 6});
  Generator gen(5);
  Tensor y = Tensor::randn({2, 3, 8}, gen);
  const Tensor composed = concat({-slice(y, -1, 4, 8), slice(y, -1, 0, 4)}, -1);
  EXPECT_EQ(rotate_half(y).to_vector(), composed.to_vector());
  EXPECT_GLASS_ERROR([&] { rotate_half(Tensor::zeros({2, 3})); }, {"rotate_half", "(2, 3)"});
}

TEST(OpsForward, Concat) {
  Tensor a = Tensor::of({{1, 2}, {3, 4}}, DType::f64);
  Tensor b = Tensor::of({{5, 6}}, DType::f64);
  Tensor c = Tensor::of({{7}, {8}}, DType::f64);
  EXPECT_TENSOR(concat({a, b}, 0), (Shape{3, 2}), {1, 2, 3, 4, 5, 6});
  EXPECT_TENSOR(concat({a, c}, 1), (Shape{2, 3}), {1, 2, 7, 3, 4, 8});
  EXPECT_TENSOR(concat({c, a, c}, -1), (Shape{2, 4}), {7, 1, 2, 7, 8, 3, 4, 8});
  EXPECT_TENSOR(concat({a}, 0), (Shape{2, 2}), {1, 2, 3, 4});
  // RoPE's rotate_half: [x1, x2] -> [-x2, x1]
  Tensor x = Tensor::of({1, 2, 3, 4}, DType::f64);
  Tensor rot = concat({-slice(x, 0, 2, 4), slice(x, 0, 0, 2)}, 0);
  EXPECT_TENSOR(rot, (Shape{4}), {-3, -4, 1, 2});
  // a transposed (strided) input
  EXPECT_TENSOR(concat({transpose(a), a}, 0), (Shape{4, 2}), {1, 3, 2, 4, 1, 2, 3, 4});
}

// ---- selection ----

TEST(OpsForward, Where) {
  Tensor cond = Tensor::of({{1, 0}, {0, 1}}, DType::f64);
  Tensor a = Tensor::of({{1, 2}, {3, 4}}, DType::f64);
  Tensor b = Tensor::of({9}, DType::f64);
  EXPECT_TENSOR(where(cond, a, b), (Shape{2, 2}), {1, 9, 9, 4});
  Tensor col = Tensor::of({{0}, {1}}, DType::f64);  // broadcasts along columns
  Tensor b2 = Tensor::of({{5, 6}, {7, 8}}, DType::f64);
  EXPECT_TENSOR(where(col, a, b2), (Shape{2, 2}), {5, 6, 3, 4});
  // any nonzero counts as true, including negatives and fractions
  EXPECT_TENSOR(where(Tensor::of({-1, 0.5, 0}, DType::f64), Tensor::of({1, 1, 1}, DType::f64),
                      Tensor::of({2, 2, 2}, DType::f64)),
                (Shape{3}), {1, 1, 2});
}

TEST(OpsForward, MaskedFillCausalSoftmax) {
  Tensor scores = Tensor::zeros({3, 3}, DType::f64);
  Tensor mask = Tensor::of({{0, 1, 1}, {0, 0, 1}, {0, 0, 0}}, DType::f64);  // future positions
  Tensor filled = masked_fill(scores, mask, -kInf);
  EXPECT_TENSOR(filled, (Shape{3, 3}), {0, -kInf, -kInf, 0, 0, -kInf, 0, 0, 0});
  EXPECT_TENSOR(softmax(filled), (Shape{3, 3}), {1, 0, 0, 0.5, 0.5, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-15);
  // mask broadcasts: (1, 3) over (2, 3)
  Tensor x = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64);
  EXPECT_TENSOR(masked_fill(x, Tensor::of({{0, 1, 0}}, DType::f64), 7), (Shape{2, 3}), {1, 7, 3, 4, 7, 6});
}

TEST(OpsForward, CausalSoftmaxEqualsMaskedFillThenSoftmax) {
  EXPECT_TENSOR(causal_softmax(Tensor::zeros({3, 3}, DType::f64)), (Shape{3, 3}),
                {1, 0, 0, 0.5, 0.5, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-15);
  Generator gen(7);
  for (DType dt : {DType::f64, DType::f32}) {
    const int64_t n = 37;  // not a multiple of the row helpers' lane count
    Tensor scores = Tensor::randn({2, 3, n, n}, gen, dt) * 4.0;
    Tensor mask = Tensor::zeros({n, n}, DType::f64);  // (n, n), 1 where j > i
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) mask.mutable_data<double>()[i * n + j] = 1;
    mask = mask.to(dt);
    Tensor want = softmax(masked_fill(scores, mask, -kInf));
    Tensor got = causal_softmax(scores);
    EXPECT_EQ(got.shape(), want.shape());
    const double tol = dt == DType::f64 ? 1e-15 : 1e-7;
    const Tensor a = got.to(DType::f64), b = want.to(DType::f64);
    for (int64_t k = 0; k < a.numel(); ++k) EXPECT_NEAR(a.data<double>()[k], b.data<double>()[k], tol) << k;
    // above the diagonal: exactly 0
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) EXPECT_EQ(a.data<double>()[i * n + j], 0.0);
  }
}

// (n, n): 1 where j > i (the masked half), in dtype dt
Tensor upper_mask(int64_t n, DType dt) {
  Tensor mask = Tensor::zeros({n, n}, DType::f64);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) mask.mutable_data<double>()[i * n + j] = 1;
  return mask.to(dt);
}

TEST(OpsForward, CausalProductsEqualMaskedFullProducts) {
  Generator gen(21);
  // n around and across the 32-row blocks; d the model's head size and odd ones,
  // and one past a packed block of depth (K^T packed per row block then)
  for (DType dt : {DType::f64, DType::f32})
    for (int64_t n : {1, 2, 5, 31, 32, 33, 70, 128})
      for (int64_t d : {int64_t{1}, int64_t{3}, int64_t{32}, kernels::kPackedDepth + 1}) {
        SCOPED_TRACE("n=" + std::to_string(n) + " d=" + std::to_string(d) + " " + std::string(dtype_name(dt)));
        const Tensor q = Tensor::randn({2, 3, n, d}, gen, dt), k = Tensor::randn({2, 3, n, d}, gen, dt);
        const Tensor mask = upper_mask(n, dt);
        const Tensor want_scores = masked_fill(matmul(q, transpose(k)), mask, 0);  // (2, 3, n, n)
        const Tensor scores = causal_scores(q, k);
        ASSERT_EQ(scores.shape(), want_scores.shape());
        const double tol = dt == DType::f64 ? 1e-12 : 2e-5;
        EXPECT_TRUE(glass_test::values_near(scores.to_vector(), want_scores.to_vector(), tol, tol));
        // w's entries above the diagonal are ignored, whatever they hold
        const Tensor w = Tensor::randn({2, 3, n, n}, gen, dt), v = Tensor::randn({2, 3, n, d}, gen, dt);
        const Tensor want_mix = matmul(masked_fill(w, mask, 0), v);  // (2, 3, n, d)
        EXPECT_TRUE(glass_test::values_near(causal_mix(w, v).to_vector(), want_mix.to_vector(), tol, tol));
      }
}

TEST(OpsForward, CausalProductsReadStridedOperands) {
  // attention's v is a permuted view: (B, n, h, k) read as (B, h, n, k)
  Generator gen(22);
  const Tensor base = Tensor::randn({1, 40, 2, 8}, gen, DType::f64), w = Tensor::randn({1, 2, 40, 40}, gen, DType::f64);
  const Tensor v = permute(base, {0, 2, 1, 3});  // (1, 2, 40, 8), not contiguous
  ASSERT_FALSE(v.is_contiguous());
  EXPECT_TRUE(glass_test::values_near(causal_mix(w, v).to_vector(), causal_mix(w, v.contiguous()).to_vector(), 0, 0));
  EXPECT_TRUE(glass_test::values_near(causal_scores(v, v).to_vector(),
                                      causal_scores(v.contiguous(), v.contiguous()).to_vector(), 0, 0));
}

TEST(OpsForward, EmbeddingGathersRows) {
  Tensor w = Tensor::of({{0, 1}, {10, 11}, {20, 21}, {30, 31}}, DType::f64);  // (V=4, D=2)
  const std::vector<int32_t> ids = {3, 1, 3};
  EXPECT_TENSOR(embedding(w, ids, {3}), (Shape{3, 2}), {30, 31, 10, 11, 30, 31});
  const std::vector<int32_t> ids2 = {0, 3, 2, 2};
  EXPECT_TENSOR(embedding(w, ids2, {2, 2}), (Shape{2, 2, 2}), {0, 1, 30, 31, 20, 21, 20, 21});
  EXPECT_EQ(embedding(Tensor::zeros({4, 2}), ids, {3}).dtype(), DType::f32);
}

TEST(OpsForward, OneHot) {
  const std::vector<int32_t> ids = {2, 0};
  Tensor h = one_hot(ids, {2}, 3, DType::f64);
  EXPECT_EQ(h.dtype(), DType::f64);
  EXPECT_FALSE(h.requires_grad());
  EXPECT_TENSOR(h, (Shape{2, 3}), {0, 0, 1, 1, 0, 0});
  EXPECT_TENSOR(one_hot(ids, {2, 1}, 4), (Shape{2, 1, 4}), {0, 0, 1, 0, 1, 0, 0, 0});
  EXPECT_EQ(one_hot(ids, {2}, 3).dtype(), DType::f32);
}

// ---- composed ----

TEST(OpsForward, SoftmaxAndLogSoftmax) {
  const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  Tensor x = Tensor::of({1, 2, 3}, DType::f64);
  EXPECT_TENSOR(softmax(x), (Shape{3}), {std::exp(1.0) / z, std::exp(2.0) / z, std::exp(3.0) / z}, 1e-15);
  EXPECT_TENSOR(log_softmax(x), (Shape{3}), {1 - std::log(z), 2 - std::log(z), 3 - std::log(z)}, 1e-14);
  // over axis 0 of a matrix: each column sums to 1
  Tensor m = Tensor::of({{0, 0}, {std::log(3.0), 0}}, DType::f64);
  EXPECT_TENSOR(softmax(m, 0), (Shape{2, 2}), {0.25, 0.5, 0.75, 0.5}, 1e-15);
  EXPECT_TENSOR(softmax(m, -1), (Shape{2, 2}), {0.5, 0.5, 0.75, 0.25}, 1e-15);
  EXPECT_TENSOR(log_softmax(m, 0), (Shape{2, 2}), {std::log(0.25), std::log(0.5), std::log(0.75), std::log(0.5)},
                1e-15);
}

TEST(OpsForward, SoftmaxIsStableForLargeInputs) {
  Tensor x = Tensor::of({{1000, 1000, 1000}, {1000, 0, -1000}, {-1000, 0, 1000}}, DType::f64);
  EXPECT_TENSOR(softmax(x), (Shape{3, 3}), {1.0 / 3, 1.0 / 3, 1.0 / 3, 1, 0, 0, 0, 0, 1}, 1e-15);
  EXPECT_TENSOR(log_softmax(x), (Shape{3, 3}),
                {-std::log(3.0), -std::log(3.0), -std::log(3.0), 0, -1000, -2000, -2000, -1000, 0}, 1e-12);
  Tensor f = Tensor::of({1000, 1001});
  const double e = std::exp(1.0);
  EXPECT_TENSOR(softmax(f), (Shape{2}), {1 / (1 + e), e / (1 + e)}, 1e-6);
  EXPECT_TENSOR(log_softmax(f), (Shape{2}), {-std::log1p(e), 1 - std::log1p(e)}, 1e-5);
  EXPECT_EQ(softmax(f).dtype(), DType::f32);
}

TEST(OpsForward, CrossEntropy) {
  const double ln2 = std::log(2.0), ln5 = std::log(5.0);
  // row 0 uniform over 3 classes; row 1 softmax = [1/8, 2/8, 5/8]
  Tensor logits = Tensor::of({{0, 0, 0}, {0, ln2, ln5}}, DType::f64);
  const std::vector<int32_t> t = {1, 2};
  const double want = (std::log(3.0) + std::log(8.0 / 5.0)) / 2;
  EXPECT_TENSOR(cross_entropy(logits, t), Shape{}, {want}, 1e-15);
  // the same numbers as (B=2, n=1, V=3)
  EXPECT_TENSOR(cross_entropy(reshape(logits, {2, 1, 3}), t), Shape{}, {want}, 1e-15);
  // other targets
  const std::vector<int32_t> t0 = {0, 0};
  EXPECT_TENSOR(cross_entropy(logits, t0), Shape{}, {(std::log(3.0) + std::log(8.0)) / 2}, 1e-15);
  // stable for large logits
  Tensor big = Tensor::of({{1000, 0}}, DType::f64);
  const std::vector<int32_t> right = {0}, wrong = {1};
  EXPECT_TENSOR(cross_entropy(big, right), Shape{}, {0}, 1e-12);
  EXPECT_TENSOR(cross_entropy(big, wrong), Shape{}, {1000}, 1e-9);
  // float32 keeps its dtype
  EXPECT_EQ(cross_entropy(Tensor::of({{1, 2}}), right).dtype(), DType::f32);
}

TEST(OpsForward, ToDType) {
  Tensor a = Tensor::of({0.1, 2}, DType::f64);
  Tensor b = a.to(DType::f32);
  EXPECT_EQ(b.dtype(), DType::f32);
  EXPECT_TENSOR(b, (Shape{2}), {static_cast<double>(0.1f), 2});
  // mixing is explicit: cast then add works
  EXPECT_TENSOR(b.to(DType::f64) + a, (Shape{2}), {static_cast<double>(0.1f) + 0.1, 4});
}

}  // namespace
