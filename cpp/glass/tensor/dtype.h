#pragma once
// Element types a Tensor can hold. float32 is the default; float64 exists so
// that gradients can be checked against finite differences and so a learner can
// see what rounding does.
#include <cstddef>
#include <string>
#include <string_view>

namespace glass {

enum class DType { f32, f64 };

inline constexpr std::size_t dtype_size(DType t) { return t == DType::f32 ? 4 : 8; }
inline constexpr std::string_view dtype_name(DType t) { return t == DType::f32 ? "float32" : "float64"; }

// Accepts "float32"/"f32" and "float64"/"f64"; anything else is a glass::Error
// that quotes the bad name.
DType parse_dtype(std::string_view name);

// Calls f with a value of the C++ element type for t: f(float{}) or f(double{}).
template <class F>
decltype(auto) dispatch(DType t, F&& f) {
  if (t == DType::f32) return f(float{});
  return f(double{});
}

template <class T> inline constexpr DType dtype_of = DType::f32;
template <> inline constexpr DType dtype_of<double> = DType::f64;

}  // namespace glass
