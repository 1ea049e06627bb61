#pragma once
// exp for float32 as inline arithmetic the compiler can vectorise (a call to
// expf per element cannot be): silu, sigmoid and softmax spend most of their
// time in exp. Cephes' method: exp(x) = 2^n * exp(r) with n = round(x / ln 2)
// and |r| <= ln 2 / 2, exp(r) by a degree-7 polynomial; measured against
// std::exp over [-104, 88.7] within 2 ulp (tests/cpp/test_fast_math.cpp).
// float64 keeps std::exp: it is the reference dtype.
#include <cmath>
#include <cstdint>

// For kernel lambdas whose body inlines exp: marked, they are inlined into
// the element loop (and vectorised) instead of being called per element.
#define GLASS_KERNEL __attribute__((always_inline))

namespace glass::detail {

// always_inline: the vectoriser only sees through it once it is inlined.
[[gnu::always_inline]] inline float exp_f32(float x) {
  // Branch-free (selects, no early returns) so loops over it vectorise.
  // Clamp first: beyond the range exp is 0 or inf anyway, and a NaN must not
  // reach the integer conversion (the comparisons send it to the low end).
  float xc = x >= -104.0f ? x : -104.0f;
  xc = xc <= 88.72284f ? xc : 88.72284f;
  // round to nearest by adding and removing 1.5 * 2^23 (exact for |n| < 2^22):
  // unlike nearbyint, which clang leaves as a libm call in wasm, it vectorises everywhere
  constexpr float kRound = 12582912.0f;
  const float t = xc * 1.44269504088896341f + kRound;  // 1.5 * 2^23 + n: the low mantissa bits hold n
  const float n = t - kRound;
  // r = x - n ln2 in two parts, so r keeps its low bits
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  // 2^n as two factors, each a normal float, so n from -150 to 128 works
  // (__builtin_bit_cast: libc++ 13, the wasm build's, has no std::bit_cast)
  // n as an integer from t's bits (t and kRound share an exponent, so their
  // bit patterns differ by n): an integer subtraction, where a float-to-int
  // conversion is a long instruction sequence in wasm SIMD on x86
  const int32_t k = __builtin_bit_cast(int32_t, t) - __builtin_bit_cast(int32_t, kRound);
  const int32_t k1 = k >> 1, k2 = k - k1;  // a shift, not / 2: wasm SIMD has no cheap signed halving
  const float s1 = __builtin_bit_cast(float, static_cast<uint32_t>(k1 + 127) << 23);
  const float s2 = __builtin_bit_cast(float, static_cast<uint32_t>(k2 + 127) << 23);
  const float y = p * s1 * s2;
  return x != x ? x : (x < -104.0f ? 0.0f : (x > 88.72284f ? INFINITY : y));
}

// exp in the tensor's dtype: the fast path for float, std::exp for double.
[[gnu::always_inline]] inline float exp_of(float x) { return exp_f32(x); }
inline double exp_of(double x) { return std::exp(x); }

// sigmoid and silu's derivative, shared by silu, sigmoid and the fused
// swiglu, so each computes the same bits. always_inline: their loops stay
// vectorisable.
template <class T> [[gnu::always_inline]] inline T sigmoid_of(T v) {
  // exp of -|v| only, so it never overflows; branch-free so it vectorises
  const T e = exp_of(-std::abs(v));
  const T s = T(1) / (T(1) + e);
  return v >= 0 ? s : e * s;
}
// g * d silu(v)/dv = g * (s + v s (1 - s)) = g * s * (1 + v (1 - s)), s = sigmoid(v)
template <class T> [[gnu::always_inline]] inline T silu_grad_with(T g, T v, T s) {
  return g * s * (T(1) + v * (T(1) - s));
}
template <class T> [[gnu::always_inline]] inline T silu_grad(T g, T v) { return silu_grad_with(g, v, sigmoid_of(v)); }

}  // namespace glass::detail
