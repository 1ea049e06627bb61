// numpy broadcasting: the shape rule, and the values binary ops produce with it.
#include <string>
#include <vector>

#include "gradcheck.h"

namespace {

using namespace glass;

TEST(Broadcast, ShapeRule) {
  EXPECT_EQ(broadcast_shapes("t", {3, 1, 4}, {2, 4}), (Shape{3, 2, 4}));
  EXPECT_EQ(broadcast_shapes("t", {2, 4}, {3, 1, 4}), (Shape{3, 2, 4}));
  EXPECT_EQ(broadcast_shapes("t", {}, {2, 3}), (Shape{2, 3}));
  EXPECT_EQ(broadcast_shapes("t", {5, 1}, {1, 6}), (Shape{5, 6}));
  EXPECT_EQ(broadcast_shapes("t", {1}, {1}), (Shape{1}));
  EXPECT_EQ(broadcast_shapes("t", {2, 1, 3}, {4, 1}), (Shape{2, 4, 3}));
  EXPECT_EQ(broadcast_shapes("t", {0, 3}, {1, 3}), (Shape{0, 3}));
  EXPECT_THROW(broadcast_shapes("t", {2, 3}, {3, 2}), Error);
  EXPECT_THROW(broadcast_shapes("t", {3}, {4}), Error);
}

TEST(Broadcast, ColumnPlusRow) {
  Tensor col = Tensor::of({{1}, {2}}, DType::f64);  // (2, 1)
  Tensor row = Tensor::of({10, 20, 30}, DType::f64);  // (3,)
  EXPECT_TENSOR(col + row, (Shape{2, 3}), {11, 21, 31, 12, 22, 32});
  EXPECT_TENSOR(row + col, (Shape{2, 3}), {11, 21, 31, 12, 22, 32});
  EXPECT_TENSOR(col - row, (Shape{2, 3}), {-9, -19, -29, -8, -18, -28});
  EXPECT_TENSOR(row - col, (Shape{2, 3}), {9, 19, 29, 8, 18, 28});
  EXPECT_TENSOR(col * row, (Shape{2, 3}), {10, 20, 30, 20, 40, 60});
  EXPECT_TENSOR(row / col, (Shape{2, 3}), {10, 20, 30, 5, 10, 15});
}

TEST(Broadcast, ThreeDWithTwoD) {
  // a (3,1,4), b (2,4): out[i][j][k] = a[i][0][k] + b[j][k]
  std::vector<double> av(12), bv(8);
  for (size_t i = 0; i < av.size(); ++i) av[i] = 100.0 * static_cast<double>(i);
  for (size_t i = 0; i < bv.size(); ++i) bv[i] = static_cast<double>(i);
  Tensor a = Tensor::from_f64(av, {3, 1, 4});
  Tensor b = Tensor::from_f64(bv, {2, 4});
  Tensor c = a + b;
  ASSERT_EQ(c.shape(), (Shape{3, 2, 4}));
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 2; ++j)
      for (int64_t k = 0; k < 4; ++k) EXPECT_EQ(c.at({i, j, k}), a.at({i, 0, k}) + b.at({j, k}));
  Tensor d = b * a;  // order reversed: same shape, same values for mul
  ASSERT_EQ(d.shape(), (Shape{3, 2, 4}));
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 2; ++j)
      for (int64_t k = 0; k < 4; ++k) EXPECT_EQ(d.at({i, j, k}), a.at({i, 0, k}) * b.at({j, k}));
}

TEST(Broadcast, ScalarTensorWithMatrix) {
  Tensor s = Tensor::scalar(2, DType::f64);
  Tensor m = Tensor::of({{1, 2}, {3, 4}}, DType::f64);
  EXPECT_TENSOR(s * m, (Shape{2, 2}), {2, 4, 6, 8});
  EXPECT_TENSOR(m - s, (Shape{2, 2}), {-1, 0, 1, 2});
  EXPECT_TENSOR(s / m, (Shape{2, 2}), {2, 1, 2.0 / 3, 0.5}, 1e-15);
}

TEST(Broadcast, OnNonContiguousInputs) {
  // transpose makes a strided view; broadcasting must follow its strides.
  Tensor m = Tensor::of({{1, 2, 3}, {4, 5, 6}}, DType::f64);  // (2, 3)
  Tensor t = transpose(m);                                     // (3, 2): [[1,4],[2,5],[3,6]]
  Tensor r = Tensor::of({10, 100}, DType::f64);                // (2,)
  EXPECT_TENSOR(t * r, (Shape{3, 2}), {10, 400, 20, 500, 30, 600});
  EXPECT_TENSOR(t + t, (Shape{3, 2}), {2, 8, 4, 10, 6, 12});
}

TEST(Broadcast, BroadcastToAndSumTo) {
  Tensor r = Tensor::of({{1, 2, 3}}, DType::f64);  // (1, 3)
  Tensor b = broadcast_to(r, {2, 2, 3});
  EXPECT_TENSOR(b, (Shape{2, 2, 3}), {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3});
  EXPECT_THROW(broadcast_to(r, {2, 4}), Error);

  std::vector<double> v(12);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  Tensor x = Tensor::from_f64(v, {2, 2, 3});
  // sum over axis 0 and 1 -> (1, 3) ; (0..11): columns sum 0+3+6+9=18, 22, 26
  EXPECT_TENSOR(sum_to(x, {1, 3}), (Shape{1, 3}), {18, 22, 26});
  EXPECT_TENSOR(sum_to(x, {3}), (Shape{3}), {18, 22, 26});
  EXPECT_TENSOR(sum_to(x, {2, 1, 1}), (Shape{2, 1, 1}), {15, 51});
  EXPECT_TENSOR(sum_to(x, {}), Shape{}, {66});
  EXPECT_TENSOR(sum_to(x, {2, 2, 3}), (Shape{2, 2, 3}), v);
  // leading axes of size 1 are dropped, not summed (their sums are exact):
  // the same values, and any further axis is still summed
  Tensor one = Tensor::from_f64(v, {1, 1, 4, 3});
  EXPECT_TENSOR(sum_to(one, {4, 3}), (Shape{4, 3}), v);
  EXPECT_TENSOR(sum_to(one, {3}), (Shape{3}), {18, 22, 26});
  EXPECT_TENSOR(sum_to(one, {4, 1}), (Shape{4, 1}), {3, 12, 21, 30});
  EXPECT_TENSOR(sum_to(transpose(one, 2, 3), {3, 4}), (Shape{3, 4}), {0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11});
}

// div by one value per row (RMSNorm's x / r) has a one-pass rule
// (div_by_rows.h): its gradients equal those of the four ops it replaces,
// computed here by hand, bit for bit, in float32 and float64, on rows the
// pool shares, rows of odd length (the row sum's tail), one column, and
// strided a, b and upstream gradient.
TEST(Broadcast, DivByRowsGradientsAreTheFourOpsBitForBit) {
  Generator gen(21);
  for (const DType dt : {DType::f32, DType::f64})
    for (const Shape& s : std::vector<Shape>{{1, 128, 128}, {16, 130}, {3, 7}, {5, 1}, {2, 3, 9}}) {
      SCOPED_TRACE(to_string(s) + " " + std::string(dtype_name(dt)));
      Shape per_row = s;
      per_row.back() = 1;
      for (const bool strided : {false, true}) {
        const Tensor a0 = (Tensor::randn(s, gen) * 3.0).to(dt);
        const Tensor b0 = (Tensor::uniform(per_row, 0.5, 2.0, gen) * (strided ? -1.0 : 1.0)).to(dt);
        const Tensor g = Tensor::randn(s, gen).to(dt);
        // strided: the same values read through a transposed copy's transpose
        const auto view = [&](const Tensor& t) {
          return strided && t.ndim() >= 2 ? transpose(transpose(t).contiguous()) : t;
        };
        const Tensor a = view(a0).detach().set_requires_grad(), b = view(b0).detach().set_requires_grad();
        const Tensor out = div(a, b);
        out.backward(view(g));
        NoGradGuard no_grad;
        const Tensor da = div(g, b0);
        const Tensor db = neg(sum(mul(da, out.detach()), -1, true));
        EXPECT_EQ(a.grad().to_vector(), da.to_vector());
        EXPECT_EQ(b.grad().to_vector(), db.to_vector());
        EXPECT_EQ(b.grad().shape(), per_row);
      }
    }
}

TEST(Broadcast, Float32Arithmetic) {
  Tensor a = Tensor::of({{1.5f, 2}}, DType::f32);
  Tensor b = Tensor::of({{0.25f}, {4}}, DType::f32);
  Tensor c = a * b;
  EXPECT_EQ(c.dtype(), DType::f32);
  EXPECT_TENSOR(c, (Shape{2, 2}), {0.375, 0.5, 6, 8});
}

// The row walk keeps its index on the stack up to 8 axes and on the heap past
// them (strided.h): a broadcast sum and a permuted copy at 7, 8, 9 and 10 axes,
// each element checked against its own index arithmetic.
TEST(Broadcast, ManyAxesOnBothSidesOfTheStackIndex) {
  for (int nd = 7; nd <= 10; ++nd) {
    Shape a_shape(nd, 2), b_shape(nd, 1);
    a_shape[nd - 3] = 1;  // a broadcasts along one axis, b along all but the last three
    for (int k = nd - 3; k < nd; ++k) b_shape[k] = 2;
    const int64_t a_n = numel(a_shape);
    std::vector<double> av(a_n), bv(8);
    for (int64_t i = 0; i < a_n; ++i) av[i] = 1000.0 * static_cast<double>(i);
    for (int64_t i = 0; i < 8; ++i) bv[i] = static_cast<double>(i);
    const Tensor a = Tensor::from_f64(av, a_shape), b = Tensor::from_f64(bv, b_shape);
    const std::vector<double> sum = (a + b).to_vector();
    ASSERT_EQ(static_cast<int64_t>(sum.size()), int64_t{1} << nd);
    for (int64_t i = 0; i < (int64_t{1} << nd); ++i) {
      // out index bits, last axis lowest; a drops axis nd-3 (bit 2), b keeps the last three axes
      const int64_t a_index = (i & 3) | ((i >> 3) << 2);
      ASSERT_EQ(sum[i], 1000.0 * static_cast<double>(a_index) + static_cast<double>(i & 7)) << nd << " axes, element " << i;
    }
    // reversing every axis of a (2, ..., 2) tensor reverses the bits of each index
    std::vector<double> xv(int64_t{1} << nd);
    for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<double>(i);
    std::vector<int> axes(nd);
    for (int k = 0; k < nd; ++k) axes[k] = nd - 1 - k;
    const std::vector<double> copy = permute(Tensor::from_f64(xv, Shape(nd, 2)), axes).contiguous().to_vector();
    for (int64_t i = 0; i < static_cast<int64_t>(copy.size()); ++i) {
      int64_t reversed = 0;
      for (int k = 0; k < nd; ++k) reversed |= ((i >> k) & 1) << (nd - 1 - k);
      ASSERT_EQ(copy[i], static_cast<double>(reversed)) << nd << " axes, element " << i;
    }
  }
}

}  // namespace
