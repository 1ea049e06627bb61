#pragma once
// Marshalling between JS values and the core's types, plus the one wrapper that
// turns a C++ exception into a JS Error. Nothing here computes anything: every
// function either converts a value or calls straight into cpp/glass.
//
// Errors: guard<&f> is a plain function with f's signature that calls f and, if
// f throws (glass::Error or any std::exception), throws a JS `Error` whose
// message is exactly e.what(). Build with -fwasm-exceptions, or C++ catch
// blocks never run in wasm.
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "glass/glass.h"

namespace glass::wasm {

using emscripten::val;

// Throws a JS Error carrying `message`. Called outside any C++ catch block, so
// the C++ exception that produced the message is fully finished first.
[[noreturn]] inline void throw_js_error(const std::string& message) {
  val::global("Error").new_(message).throw_();
}

template <auto F>
struct Guarded;

template <class R, class... A, R (*F)(A...)>
struct Guarded<F> {
  static R call(A... args) {
    std::string message;
    try {
      return F(std::forward<A>(args)...);
    } catch (const std::exception& e) {
      message = e.what();
    } catch (...) {
      message = "unknown C++ exception in the GlassLLM core";
    }
    throw_js_error(message);
  }
};

// guard<&f>: f with C++ exceptions rethrown as JS Errors (same message).
template <auto F>
inline constexpr auto guard = &Guarded<F>::call;

// ---- JS -> C++ ----

// A JS array of numbers (or a typed array) as doubles.
inline std::vector<double> doubles_from(const val& v) { return emscripten::convertJSArrayToNumberVector<double>(v); }

// A JS array of whole numbers as int64 (shapes, axes). Embind in 3.1.6 has no
// int64 without BigInt, so sizes travel as doubles and are checked here.
inline int64_t whole_from(const char* what, double d) {
  if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9007199254740992.0) {
    throw glass::Error(std::string(what) + ": expected a whole number, got " + std::to_string(d));
  }
  return static_cast<int64_t>(d);
}

inline std::vector<int64_t> int64s_from(const char* what, const val& v) {
  std::vector<int64_t> out;
  for (double d : doubles_from(v)) out.push_back(whole_from(what, d));
  return out;
}

inline std::vector<int> ints_from(const char* what, const val& v) {
  std::vector<int> out;
  for (int64_t i : int64s_from(what, v)) out.push_back(static_cast<int>(i));
  return out;
}

// Token ids / class targets: whole numbers in int32 range (range checks
// against the vocabulary are the core's job).
inline std::vector<int32_t> ids_from(const char* what, const val& v) {
  std::vector<int32_t> out;
  for (int64_t i : int64s_from(what, v)) {
    if (i < INT32_MIN || i > INT32_MAX) throw glass::Error(std::string(what) + ": id " + std::to_string(i) + " is out of int32 range");
    out.push_back(static_cast<int32_t>(i));
  }
  return out;
}

// A JS array of Tensor handles; each element is copied (a cheap handle copy).
inline std::vector<Tensor> tensors_from(const val& v) {
  const auto n = v["length"].as<unsigned>();
  std::vector<Tensor> out;
  out.reserve(n);
  for (unsigned i = 0; i < n; ++i) out.push_back(v[i].as<Tensor>());
  return out;
}

// ---- C++ -> JS ----

template <class T>
val js_numbers(const std::vector<T>& xs) {
  val out = val::array();
  for (std::size_t i = 0; i < xs.size(); ++i) out.set(i, static_cast<double>(xs[i]));
  return out;
}

// A copy of the values as a Float32Array or Float64Array (never a view over
// the wasm heap, which detaches when memory grows).
inline val js_values(const Tensor& t) {
  if (t.dtype() == DType::f32) {
    const std::vector<float> v = t.to_f32();
    return val::global("Float32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
  }
  const std::vector<double> v = t.to_vector();
  return val::global("Float64Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
}

// A defined Tensor as a new JS handle; an undefined one as null.
inline val js_tensor_or_null(const Tensor& t) { return t.defined() ? val(t) : val::null(); }

}  // namespace glass::wasm
