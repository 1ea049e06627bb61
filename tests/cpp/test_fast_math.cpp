// The float32 exp used by exp, sigmoid, silu and softmax, against std::exp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "glass/tensor/fast_math.h"

namespace {

// distance in units in the last place between two positive finite floats
int64_t ulps(float a, float b) {
  int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  return std::abs(static_cast<int64_t>(ia) - static_cast<int64_t>(ib));
}

TEST(FastMath, ExpWithinTwoUlpOverTheNormalRange) {
  int64_t worst = 0;
  float worst_x = 0;
  // every 1/4096 from -87 to 88.7: results from about 1.6e-38 to 3.3e38, all normal floats
  for (float x = -87.0f; x <= 88.7f; x += 1.0f / 4096) {
    const float want = std::exp(x);
    const int64_t u = ulps(glass::detail::exp_f32(x), want);
    if (u > worst) worst = u, worst_x = x;
  }
  EXPECT_LE(worst, 2) << "at x = " << worst_x;
}

TEST(FastMath, ExpEdges) {
  using glass::detail::exp_f32;
  EXPECT_EQ(exp_f32(0.0f), 1.0f);
  EXPECT_EQ(exp_f32(-std::numeric_limits<float>::infinity()), 0.0f);  // a causal mask's -inf gives exactly 0
  EXPECT_EQ(exp_f32(-200.0f), 0.0f);
  EXPECT_TRUE(std::isinf(exp_f32(89.0f)));
  EXPECT_TRUE(std::isinf(exp_f32(std::numeric_limits<float>::infinity())));
  EXPECT_TRUE(std::isnan(exp_f32(std::numeric_limits<float>::quiet_NaN())));
  // subnormal results: small but not flushed wrongly
  EXPECT_NEAR(exp_f32(-100.0f) / std::exp(-100.0f), 1.0f, 1e-3);
  EXPECT_FLOAT_EQ(exp_f32(88.5f), std::exp(88.5f));
}

}  // namespace
