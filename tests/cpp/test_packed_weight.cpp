// Weights packed once (kernels::pack_weight, PackedWeight, linear): the same
// numbers and gradients as packing in every product, and a packing that
// follows its weight when the weight is written (AdamW, loading, randomising),
// replaced, or freed and its memory handed to another tensor.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "glass/nn/model.h"
#include "glass/tensor/gemm.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/packed_weight.h"
#include "glass/tensor/random.h"
#include "glass/train/adamw.h"
#include "gradcheck.h"

namespace {

using namespace glass;

template <class T> std::vector<T> random_values(Generator& gen, int64_t n) {
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) x = static_cast<T>(gen.normal());
  return v;
}

// (m, k, n): ragged rows and columns, k over one packed block (256), the model's shapes;
// B of 2^15 elements or more is packed by the pool ({40, 300, 150}: ragged, two k blocks)
const std::vector<std::array<int64_t, 3>> kShapes = {{1, 3, 5},     {7, 300, 13},    {128, 384, 128}, {5, 256, 8},
                                                     {4, 257, 16},  {128, 128, 256}, {3, 1, 1},       {40, 300, 150}};

template <class T> void packed_equals_gemm() {
  Generator gen(7);
  for (const auto& [m, k, n] : kShapes) {
    const std::vector<T> a = random_values<T>(gen, m * k), w = random_values<T>(gen, n * k);  // A (m, k), W (n, k)
    std::vector<T> want(static_cast<size_t>(m * n)), got(want.size());
    // B = W^T: B(p, j) = w[j * k + p]
    kernels::gemm<T>(m, n, k, a.data(), k, 1, w.data(), 1, k, want.data(), n, false);
    kernels::PackedB<T> packed;
    kernels::pack_weight<T>(k, n, w.data(), 1, k, packed);
    kernels::gemm_packed<T>(m, a.data(), k, 1, packed, got.data(), n, false);
    EXPECT_EQ(got, want) << m << "x" << k << "x" << n;  // bit for bit: the same panels, the same sums
    // against sums in double
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p) s += static_cast<double>(a[i * k + p]) * static_cast<double>(w[j * k + p]);
        ASSERT_NEAR(got[i * n + j], s, 1e-4 * (1 + std::abs(s))) << i << "," << j;
      }
    // accumulate adds to C, as gemm does
    std::vector<T> twice_want = want, twice_got = got;
    kernels::gemm<T>(m, n, k, a.data(), k, 1, w.data(), 1, k, twice_want.data(), n, true);
    kernels::gemm_packed<T>(m, a.data(), k, 1, packed, twice_got.data(), n, true);
    EXPECT_EQ(twice_got, twice_want) << m << "x" << k << "x" << n;
    for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(twice_got[i], 2 * got[i], 1e-5 * (1 + std::abs(got[i])));
  }
}

TEST(PackedWeight, GemmPackedEqualsGemmFloat) { packed_equals_gemm<float>(); }
TEST(PackedWeight, GemmPackedEqualsGemmDouble) { packed_equals_gemm<double>(); }

Tensor randn_param(const Shape& shape, Generator& gen, DType dtype = DType::f32) {
  return Tensor::randn(shape, gen, dtype).detach().set_requires_grad();
}

// linear and matmul(x, W^T): equal values, and equal gradients for x and W.
void expect_same_as_matmul(const Tensor& x, const Tensor& w, PackedWeight& packed) {
  const Tensor got = linear(x, w, packed), want = matmul(x, transpose(w));
  ASSERT_EQ(got.shape(), want.shape());
  EXPECT_EQ(got.to_vector(), want.to_vector());
  Tensor xg = x.detach().set_requires_grad(), wg = w.detach().set_requires_grad();
  Tensor xr = x.detach().set_requires_grad(), wr = w.detach().set_requires_grad();
  sum(square(linear(xg, wg, packed))).backward();
  sum(square(matmul(xr, transpose(wr)))).backward();
  EXPECT_EQ(xg.grad().to_vector(), xr.grad().to_vector());
  EXPECT_EQ(wg.grad().to_vector(), wr.grad().to_vector());
}

TEST(PackedWeight, LinearIsMatmulWithTheTransposeValuesAndGradients) {
  Generator gen(11);
  PackedWeight packed;
  const Tensor w = randn_param({13, 300}, gen);  // (out, in), in over one packed block
  expect_same_as_matmul(randn_param({2, 9, 300}, gen), w, packed);          // (B, n, in)
  expect_same_as_matmul(randn_param({5, 300}, gen), w, packed);             // (n, in)
  expect_same_as_matmul(transpose(randn_param({300, 6}, gen)), w, packed);  // a strided x
  // float64 multiplies the usual way (nothing packed) and agrees too
  PackedWeight packed64;
  const Tensor w64 = randn_param({4, 6}, gen, DType::f64);
  expect_same_as_matmul(randn_param({3, 6}, gen, DType::f64), w64, packed64);
  EXPECT_EQ(packed64.transposed(w64), nullptr);
}

TEST(PackedWeight, FollowsItsWeightWhenWrittenReplacedOrFreed) {
  Generator gen(3);
  PackedWeight packed;
  const Tensor x = randn_param({1, 5, 8}, gen);
  Tensor w = randn_param({6, 8}, gen);
  expect_same_as_matmul(x, w, packed);
  const kernels::PackedB<float>* first = packed.transposed(w);
  EXPECT_EQ(packed.transposed(w), first);  // unchanged weight: kept
  // written in place, as AdamW and loading weights do
  float* p = w.mutable_data<float>();
  for (int64_t i = 0; i < w.numel(); ++i) p[i] = -2.0f * p[i] + 0.5f;
  expect_same_as_matmul(x, w, packed);
  // an optimiser step
  Tensor g = linear(x, w, packed);
  sum(g).backward();
  train::AdamW opt({{"w", w}}, train::AdamWOptions{});
  const std::vector<double> before = w.to_vector();
  opt.step(0.1);
  ASSERT_NE(w.to_vector(), before);
  expect_same_as_matmul(x, w, packed);
  // replaced by another tensor of the same shape
  w = randn_param({6, 8}, gen);
  expect_same_as_matmul(x, w, packed);
  // freed, and its memory handed out again (the storage cache reuses blocks of
  // the same size): the packing of the dead tensor must not be taken for it
  const float* old_address = w.data<float>();
  w = Tensor();
  Tensor reused = randn_param({6, 8}, gen);
  SCOPED_TRACE(reused.data<float>() == old_address ? "same address reused" : "a different address");
  expect_same_as_matmul(x, reused, packed);
  // a view of another shape into the same storage
  expect_same_as_matmul(randn_param({1, 5, 6}, gen), reshape(reused, {8, 6}), packed);
}

TEST(PackedWeight, BadShapesGetMatmulsMessage) {
  Generator gen(5);
  PackedWeight packed;
  const Tensor w = randn_param({6, 8}, gen);
  EXPECT_GLASS_ERROR([&] { (void)linear(randn_param({2, 7}, gen), w, packed); }, {"matmul", "inner sizes differ"});
  EXPECT_GLASS_ERROR([&] { (void)linear(randn_param({2, 8}, gen, DType::f64), w, packed); }, {"matmul", "dtypes differ"});
  EXPECT_GLASS_ERROR([&] { (void)linear(randn_param({2, 8}, gen), randn_param({1, 6, 8}, gen), packed); },
                     {"linear", "(out, in)", "(1, 6, 8)"});
}

// The model packs its weights at the first forward; writing them afterwards
// (randomising in place, an AdamW step) must show in the next forward exactly
// as in a model that never packed them.
TEST(PackedWeight, ModelForwardFollowsWeightUpdates) {
  nn::Config c;
  c.vocab = 19;
  c.context = 12;
  c.d = 16;
  c.blocks = 2;
  c.heads = 2;
  c.hidden = 24;
  c.dtype = DType::f32;
  nn::Model used(c), fresh(c);
  const std::vector<int32_t> ids = {1, 5, 2, 9, 4, 4, 7, 0, 3, 18};
  (void)used.forward(ids, 1);  // packs every weight
  Generator gen(99);
  auto named_used = used.named_parameters(), named_fresh = fresh.named_parameters();
  for (size_t i = 0; i < named_used.size(); ++i) {
    Tensor& a = named_used[i].second;
    const std::vector<float> v = random_values<float>(gen, a.numel());
    std::copy(v.begin(), v.end(), a.mutable_data<float>());
    std::copy(v.begin(), v.end(), named_fresh[i].second.mutable_data<float>());
  }
  nn::Model::Output out_used = used.forward(ids, 1), out_fresh = fresh.forward(ids, 1);
  EXPECT_EQ(out_used.logits.to_vector(), out_fresh.logits.to_vector());
  // one AdamW step on both, from the same gradients
  out_used.loss.backward();
  out_fresh.loss.backward();
  train::AdamW opt_used(used.named_parameters(), train::AdamWOptions{}),
      opt_fresh(fresh.named_parameters(), train::AdamWOptions{});
  opt_used.step(0.05);
  opt_fresh.step(0.05);
  nn::Model fresh_copy(c);  // never ran: packs only now
  auto named_copy = fresh_copy.named_parameters();
  named_fresh = fresh.named_parameters();
  for (size_t i = 0; i < named_copy.size(); ++i)
    std::copy_n(named_fresh[i].second.data<float>(), named_fresh[i].second.numel(), named_copy[i].second.mutable_data<float>());
  const std::vector<double> after = used.forward(ids, 1).logits.to_vector();
  EXPECT_EQ(after, fresh_copy.forward(ids, 1).logits.to_vector());
  EXPECT_NE(after, out_used.logits.to_vector());  // the step did change the output
}

}  // namespace
