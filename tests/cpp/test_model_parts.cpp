// The parts of a block the lessons show (nn::AttentionParts, nn::SwiGLUParts)
// and RoPE at an offset: they are the forward pass's own computation, so the
// parts' output is the model's snapshot to the bit, and each intermediate is
// checked against its definition with plain ops (docs/model.md).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "glass/nn/model.h"
#include "gradcheck.h"

namespace {

using namespace glass;
using glass_test::values_near;

nn::Config tiny() {
  nn::Config c;
  c.vocab = 11;
  c.context = 6;
  c.d = 8;
  c.blocks = 2;
  c.heads = 2;
  c.hidden = 12;
  c.eps = 1e-5;
  c.dtype = DType::f64;
  return c;
}

// Weights larger than the initialisation, so softmax and silu are not in their linear regime.
void randomise(nn::Model& model, uint64_t seed) {
  Generator gen(seed);
  model.visit([&](const std::string& name, Tensor& p) {
    double* w = p.mutable_data<double>();
    for (int64_t j = 0; j < p.numel(); ++j) w[j] = name.ends_with(".gamma") ? 1.0 + 0.3 * gen.normal() : 0.5 * gen.normal();
  });
}

const std::vector<int32_t> kIds = {3, 1, 4, 1, 5, 9};

TEST(ModelParts, AttentionPartsAreTheForwardPassOwnComputation) {
  nn::Model model(tiny(), 7);
  randomise(model, 11);
  const auto run = model.forward(kIds, 1, /*record_snapshots=*/true);
  NoGradGuard no_grad;
  const int64_t n = 6, h = 2, k = 4;
  for (int b = 0; b < 2; ++b) {
    const std::string prefix = "blocks." + std::to_string(b) + ".";
    const nn::AttentionParts p = model.blocks[b].attn.parts(run.snapshots.get(prefix + "norm.attn"), model.rope());
    // the output is the snapshot the forward pass recorded, bit for bit
    EXPECT_EQ(p.out.to_vector(), run.snapshots.get(prefix + "attn").to_vector()) << b;
    EXPECT_EQ(p.q.shape(), Shape({1, h, n, k}));
    EXPECT_EQ(p.weights.shape(), Shape({1, h, n, n}));
    EXPECT_EQ(p.heads.shape(), Shape({1, h, n, k}));
    // scores: q.k / sqrt(k) on and below the diagonal, 0 above; weights: softmax rows, 0 above
    const std::vector<double> full = (matmul(p.q, transpose(p.k)) * (1.0 / std::sqrt(static_cast<double>(k)))).to_vector();
    const std::vector<double> scores = p.scores.to_vector(), weights = p.weights.to_vector();
    for (int64_t hh = 0; hh < h; ++hh)
      for (int64_t i = 0; i < n; ++i) {
        double row = 0;
        for (int64_t j = 0; j < n; ++j) {
          const size_t at = static_cast<size_t>((hh * n + i) * n + j);
          if (j > i) {
            EXPECT_EQ(scores[at], 0.0);
            EXPECT_EQ(weights[at], 0.0);
          } else {
            EXPECT_NEAR(scores[at], full[at], 1e-12);
          }
          row += weights[at];
        }
        EXPECT_NEAR(row, 1.0, 1e-12);
      }
    // each head's output is its weights times v
    EXPECT_TRUE(values_near(p.heads.to_vector(), matmul(p.weights, p.v).to_vector(), 1e-12, 1e-12));
  }
}

TEST(ModelParts, SwiGLUPartsAreTheForwardPassOwnComputation) {
  nn::Model model(tiny(), 7);
  randomise(model, 12);
  const auto run = model.forward(kIds, 1, true);
  NoGradGuard no_grad;
  for (int b = 0; b < 2; ++b) {
    const std::string prefix = "blocks." + std::to_string(b) + ".";
    const nn::SwiGLUParts p = model.blocks[b].ffn.parts(run.snapshots.get(prefix + "norm.ffn"));
    EXPECT_EQ(p.out.to_vector(), run.snapshots.get(prefix + "ffn").to_vector()) << b;
    EXPECT_EQ(p.gate.shape(), Shape({1, 6, 12}));
    EXPECT_EQ(p.act.to_vector(), silu(p.gate).to_vector());
    EXPECT_EQ(p.hidden.to_vector(), (p.act * p.up).to_vector());
  }
}

TEST(ModelParts, RopeAtAnOffsetIsRopeOfThoseRows) {
  const nn::Config c = tiny();
  const nn::Rope rope(c.head_dim(), c.context, c.rope_base, DType::f64);
  Generator gen(5);
  const Tensor x = Tensor::randn({2, 6, 4}, gen, DType::f64);  // (h, n, k)
  const std::vector<double> whole = rope(x).to_vector();
  for (int64_t offset : {0, 1, 3}) {
    const std::vector<double> part = rope(slice(x, 1, offset, 6), offset).to_vector();  // rows offset..5
    size_t at = 0;
    for (int64_t hh = 0; hh < 2; ++hh)
      for (int64_t row = offset; row < 6; ++row)
        for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(part[at++], whole[static_cast<size_t>((hh * 6 + row) * 4 + j)]) << offset;
  }
  EXPECT_THROW(rope(slice(x, 1, 0, 2), 5), Error);   // positions 5 and 6: past the context of 6
  EXPECT_THROW(rope(x, -1), Error);
  EXPECT_THROW(rope(Tensor::randn({4}, gen, DType::f64)), Error);  // one axis: no positions
}

}  // namespace
