// Tensor construction, metadata, views, element access, dtypes and the seeded
// generator.
#include <cmath>
#include <vector>

#include "gradcheck.h"

namespace {

using namespace glass;
using glass_test::tensor_near;

TEST(TensorConstruct, NestedListGivesShapeAndRowMajorValues) {
  Tensor t = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64);
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_EQ(t.ndim(), 2);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.dtype(), DType::f64);
  EXPECT_EQ(t.to_vector(), (std::vector<double>{1, 2, 3, 4, 5, 6}));

  Tensor row = Tensor::of({{3, 4}});
  EXPECT_EQ(row.shape(), (Shape{1, 2}));
  EXPECT_EQ(row.dtype(), DType::f32);  // the default

  Tensor cube = Tensor::of({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}, {{9, 10}, {11, 12}}});
  EXPECT_EQ(cube.shape(), (Shape{3, 2, 2}));
  EXPECT_EQ(cube.at({2, 1, 0}), 11);
  EXPECT_EQ(cube.at({1, 0, 1}), 6);

  Tensor vec = Tensor::of({7, 8, 9});
  EXPECT_EQ(vec.shape(), (Shape{3}));
}

TEST(TensorConstruct, NestedScalarHasEmptyShape) {
  Tensor s = Tensor::of(2.5, DType::f64);
  EXPECT_EQ(s.shape(), Shape{});
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.numel(), 1);
  EXPECT_EQ(s.item(), 2.5);

  Tensor t = Tensor::scalar(-1.5, DType::f64);
  EXPECT_EQ(t.shape(), Shape{});
  EXPECT_EQ(t.item(), -1.5);
  EXPECT_EQ(t.dtype(), DType::f64);
}

TEST(TensorConstruct, FromFlatData) {
  const std::vector<double> v = {1, 2, 3, 4, 5, 6};
  Tensor a = Tensor::from_vector(v, {3, 2}, DType::f64);
  EXPECT_EQ(a.shape(), (Shape{3, 2}));
  EXPECT_EQ(a.at({2, 0}), 5);
  EXPECT_EQ(a.at({0, 1}), 2);

  const std::vector<float> f = {0.5f, 1.5f, 2.5f, 3.5f};
  Tensor b = Tensor::from_f32(f, {2, 2});
  EXPECT_EQ(b.dtype(), DType::f32);
  EXPECT_EQ(b.to_f32(), f);
  EXPECT_EQ(b.data<float>()[3], 3.5f);

  Tensor c = Tensor::from_f64(v, {6});
  EXPECT_EQ(c.dtype(), DType::f64);
  EXPECT_EQ(c.data<double>()[4], 5.0);

  // An empty tensor is allowed: a shape with a zero.
  Tensor e = Tensor::from_vector(std::vector<double>{}, {0, 3}, DType::f64);
  EXPECT_EQ(e.numel(), 0);
  EXPECT_EQ(e.shape(), (Shape{0, 3}));
}

TEST(TensorConstruct, ZerosOnesFull) {
  EXPECT_TENSOR(Tensor::zeros({2, 2}), (Shape{2, 2}), {0, 0, 0, 0});
  EXPECT_TENSOR(Tensor::ones({3}, DType::f64), (Shape{3}), {1, 1, 1});
  Tensor f = Tensor::full({2, 1, 2}, -2.25, DType::f64);
  EXPECT_TENSOR(f, (Shape{2, 1, 2}), {-2.25, -2.25, -2.25, -2.25});
  EXPECT_EQ(Tensor::ones({3}, DType::f64).dtype(), DType::f64);
  EXPECT_EQ(Tensor::zeros({3}).dtype(), DType::f32);
  EXPECT_EQ(Tensor::full({}, 4.0).shape(), Shape{});
  EXPECT_EQ(Tensor::full({}, 4.0).item(), 4.0);
}

TEST(TensorConstruct, DTypePerTensorAndRounding) {
  Tensor a = Tensor::of({0.1, 0.2}, DType::f32);
  Tensor b = Tensor::of({0.1, 0.2}, DType::f64);
  EXPECT_EQ(a.dtype(), DType::f32);
  EXPECT_EQ(b.dtype(), DType::f64);
  EXPECT_EQ(a.at({0}), static_cast<double>(0.1f));  // stored as float
  EXPECT_EQ(b.at({0}), 0.1);                        // stored as double
  EXPECT_NE(a.at({0}), b.at({0}));

  EXPECT_EQ(parse_dtype("float32"), DType::f32);
  EXPECT_EQ(parse_dtype("f32"), DType::f32);
  EXPECT_EQ(parse_dtype("float64"), DType::f64);
  EXPECT_EQ(parse_dtype("f64"), DType::f64);
  EXPECT_EQ(dtype_name(DType::f32), "float32");
  EXPECT_EQ(dtype_name(DType::f64), "float64");
  EXPECT_EQ(dtype_size(DType::f32), 4u);
  EXPECT_EQ(dtype_size(DType::f64), 8u);
  EXPECT_EQ(describe(Tensor::zeros({2, 3})), "float32 (2, 3)");
}

TEST(TensorConstruct, ToDTypeCastsValuesAndKeepsShape) {
  Tensor a = Tensor::of({{0.1, 1e-50}, {3, -2}}, DType::f64);
  Tensor b = a.to(DType::f32);
  EXPECT_EQ(b.dtype(), DType::f32);
  EXPECT_EQ(b.shape(), (Shape{2, 2}));
  EXPECT_EQ(b.at({0, 0}), static_cast<double>(0.1f));
  EXPECT_EQ(b.at({0, 1}), 0.0);  // underflows in float32
  EXPECT_EQ(b.at({1, 1}), -2.0);
  Tensor c = b.to(DType::f64);
  EXPECT_EQ(c.dtype(), DType::f64);
  EXPECT_EQ(c.at({0, 0}), static_cast<double>(0.1f));
  // Casting to the same dtype keeps the values.
  EXPECT_EQ(a.to(DType::f64).to_vector(), a.to_vector());
}

TEST(TensorShape, ContiguousStridesAndNumel) {
  EXPECT_EQ(contiguous_strides({2, 3, 4}), (Strides{12, 4, 1}));
  EXPECT_EQ(contiguous_strides({5}), (Strides{1}));
  EXPECT_EQ(contiguous_strides({}), Strides{});
  EXPECT_EQ(numel({2, 3, 4}), 24);
  EXPECT_EQ(numel({}), 1);
  EXPECT_EQ(numel({3, 0}), 0);
  EXPECT_EQ(to_string(Shape{2, 3}), "(2, 3)");
  EXPECT_EQ(to_string(Shape{}), "()");
  EXPECT_EQ(to_string(Shape{7}), "(7,)");  // numpy style

  Tensor t = Tensor::zeros({2, 3, 4});
  EXPECT_EQ(t.strides(), (Strides{12, 4, 1}));
  EXPECT_EQ(t.offset(), 0);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.size(0), 2);
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.size(-3), 2);
}

TEST(TensorShape, NormalizeAxis) {
  const Shape s{2, 3, 4};
  EXPECT_EQ(normalize_axis("t", -1, s), 2);
  EXPECT_EQ(normalize_axis("t", -3, s), 0);
  EXPECT_EQ(normalize_axis("t", 2, s), 2);
  EXPECT_EQ(normalize_axis("t", 0, s), 0);
  EXPECT_THROW(normalize_axis("t", 3, s), Error);
  EXPECT_THROW(normalize_axis("t", -4, s), Error);
  EXPECT_THROW(normalize_axis("t", 0, Shape{}), Error);
}

TEST(TensorViews, TransposeIsAViewWithSwappedStrides) {
  Tensor a = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64);
  Tensor t = transpose(a);
  EXPECT_EQ(t.shape(), (Shape{3, 2}));
  EXPECT_EQ(t.strides(), (Strides{1, 3}));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(t.impl()->storage, a.impl()->storage);  // shares memory
  EXPECT_EQ(t.at({2, 1}), 6);
  EXPECT_EQ(t.at({0, 1}), 4);
  EXPECT_EQ(t.to_vector(), (std::vector<double>{1, 4, 2, 5, 3, 6}));

  Tensor c = t.contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(c.strides(), (Strides{2, 1}));
  EXPECT_EQ(c.to_vector(), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(c.data<double>()[1], 4.0);
  EXPECT_NE(c.impl()->storage, a.impl()->storage);

  // contiguous() of a contiguous tensor is itself.
  Tensor again = c.contiguous();
  EXPECT_EQ(again.impl(), c.impl());
}

TEST(TensorViews, PermuteMovesAxes) {
  std::vector<double> v(24);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  Tensor x = Tensor::from_f64(v, {2, 3, 4});
  Tensor p = permute(x, {2, 0, 1});
  EXPECT_EQ(p.shape(), (Shape{4, 2, 3}));
  EXPECT_EQ(p.strides(), (Strides{1, 12, 4}));
  EXPECT_EQ(p.impl()->storage, x.impl()->storage);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t k = 0; k < 4; ++k) EXPECT_EQ(p.at({k, i, j}), x.at({i, j, k}));
  // Negative axes are accepted too.
  EXPECT_EQ(permute(x, {-1, 0, 1}).shape(), (Shape{4, 2, 3}));
  // transpose of arbitrary axes
  Tensor t = transpose(x, 0, 2);
  EXPECT_EQ(t.shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(t.at({3, 1, 0}), x.at({0, 1, 3}));
}

TEST(TensorViews, ReshapeOfContiguousSharesStorage) {
  Tensor x = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64);
  Tensor r = reshape(x, {3, 2});
  EXPECT_EQ(r.shape(), (Shape{3, 2}));
  EXPECT_EQ(r.strides(), (Strides{2, 1}));
  EXPECT_EQ(r.impl()->storage, x.impl()->storage);
  EXPECT_EQ(r.at({2, 0}), 5);
  EXPECT_EQ(reshape(x, {-1}).shape(), (Shape{6}));
  EXPECT_EQ(reshape(x, {2, -1, 1}).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(reshape(Tensor::of({5.0}), {}).shape(), Shape{});
}

TEST(TensorViews, ReshapeOfNonContiguousCopiesInLogicalOrder) {
  Tensor x = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64);
  Tensor r = reshape(transpose(x), {6});
  EXPECT_EQ(r.to_vector(), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  Tensor r2 = reshape(transpose(x), {2, 3});
  EXPECT_EQ(r2.to_vector(), (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

TEST(TensorViews, SliceViewValues) {
  std::vector<double> v(10);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  Tensor x = Tensor::from_f64(v, {2, 5});
  Tensor s = slice(x, 1, 1, 4);
  EXPECT_EQ(s.shape(), (Shape{2, 3}));
  EXPECT_EQ(s.to_vector(), (std::vector<double>{1, 2, 3, 6, 7, 8}));
  // ops on a sliced (possibly strided) tensor see only its elements
  EXPECT_TENSOR(sum(s, 1), (Shape{2}), {6, 21});
  EXPECT_TENSOR(s.contiguous(), (Shape{2, 3}), {1, 2, 3, 6, 7, 8});
}

TEST(TensorValues, ElementAccessAndCopyOut) {
  Tensor x = Tensor::of({{1.5, -2}, {3, 4}}, DType::f64);
  EXPECT_EQ(x.at({0, 0}), 1.5);
  EXPECT_EQ(x.at({0, 1}), -2);
  EXPECT_EQ(x.at({1, 0}), 3);
  EXPECT_EQ(x.to_vector(), (std::vector<double>{1.5, -2, 3, 4}));
  EXPECT_EQ(x.to_f32(), (std::vector<float>{1.5f, -2.f, 3.f, 4.f}));
  EXPECT_EQ(Tensor::of({{7}}).item(), 7);

  // mutable_data writes through to the tensor (a fresh tensor, no views)
  Tensor y = Tensor::zeros({3}, DType::f64);
  y.mutable_data<double>()[1] = 9;
  EXPECT_EQ(y.at({1}), 9);
}

TEST(TensorValues, CopyIsAHandleCloneIsACopy) {
  Tensor x = Tensor::of({1, 2}, DType::f64);
  Tensor handle = x;
  EXPECT_EQ(handle.impl(), x.impl());
  Tensor c = x.clone();
  EXPECT_NE(c.impl(), x.impl());
  EXPECT_NE(c.impl()->storage, x.impl()->storage);
  EXPECT_EQ(c.to_vector(), x.to_vector());
  x.mutable_data<double>()[0] = 100;
  EXPECT_EQ(handle.at({0}), 100);
  EXPECT_EQ(c.at({0}), 1);

  Tensor d = x.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_EQ(d.at({0}), 100);

  Tensor undefined;
  EXPECT_FALSE(undefined.defined());
  EXPECT_TRUE(x.defined());
}

TEST(TensorValues, Names) {
  Tensor x = Tensor::zeros({2});
  EXPECT_EQ(x.name(), "");
  x.set_name("embed");
  EXPECT_EQ(x.name(), "embed");
}

TEST(Random, SplitMix64ReferenceStream) {
  // splitmix64 from state 0 (Vigna's reference implementation): these exact
  // numbers are what makes native and wasm weights identical.
  Generator g(0);
  EXPECT_EQ(g.next_u64(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(g.next_u64(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(g.next_u64(), 0x06c45d188009454fULL);
}

TEST(Random, UniformInUnitIntervalAndNormalMoments) {
  Generator g(7);
  double sum = 0, sumsq = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    const double u = g.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
  for (int i = 0; i < n; ++i) {
    const double z = g.normal();
    ASSERT_TRUE(std::isfinite(z));
    sum += z;
    sumsq += z * z;
  }
  const double mean = sum / n, var = sumsq / n - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.05);
  EXPECT_NEAR(var, 1.0, 0.05);
}

TEST(Random, RandnIsReproducibleForASeed) {
  Generator g1(42), g2(42), g3(43);
  Tensor a = Tensor::randn({4, 5}, g1, DType::f64);
  Tensor b = Tensor::randn({4, 5}, g2, DType::f64);
  Tensor c = Tensor::randn({4, 5}, g3, DType::f64);
  EXPECT_EQ(a.shape(), (Shape{4, 5}));
  EXPECT_EQ(a.to_vector(), b.to_vector());
  EXPECT_NE(a.to_vector(), c.to_vector());
  // The generator advances: a second draw differs from the first.
  Tensor a2 = Tensor::randn({4, 5}, g1, DType::f64);
  EXPECT_NE(a.to_vector(), a2.to_vector());
  // Values are not all equal (a constant "random" tensor would pass the above).
  const auto v = a.to_vector();
  int distinct = 0;
  for (size_t i = 1; i < v.size(); ++i) distinct += v[i] != v[0];
  EXPECT_EQ(distinct, 19);

  // float32 randn is the float64 stream rounded.
  Generator g4(42);
  Tensor f = Tensor::randn({4, 5}, g4, DType::f32);
  EXPECT_EQ(f.dtype(), DType::f32);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(f.to_vector()[i], static_cast<double>(static_cast<float>(v[i])));
}

TEST(Random, UniformTensorInRange) {
  Generator g(3);
  Tensor u = Tensor::uniform({1000}, -2.0, 5.0, g, DType::f64);
  double lo = 1e9, hi = -1e9;
  for (double x : u.to_vector()) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  EXPECT_GE(lo, -2.0);
  EXPECT_LT(hi, 5.0);
  EXPECT_LT(lo, -1.9);
  EXPECT_GT(hi, 4.9);
}

}  // namespace
