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
//
// Every argument a binding takes from JavaScript is checked for its kind here
// before anything converts it: Embind itself (3.1.6, without ASSERTIONS) would
// pass a string for a number as NaN, read 0.5 or 2^32 as an int 0, and turn a
// wrong value for a std::string or a class into its own internal messages. A
// refusal is an Error "<what>: expected <kind>, got <the value>", where <what>
// is the op and parameter ("transpose axis0"); web/src/core/args.ts words the
// facade's checks the same way.

// A JS value as a message shows it: the number 0.5, the string "3", undefined,
// null, true, an array of 3, a Float32Array of 4, a Tensor, an object.
inline std::string describe_js(const val& v) {
  const std::string type = v.typeOf().as<std::string>();
  auto text = [&] { return val::global("String")(v).as<std::string>(); };
  if (type == "undefined") return "undefined";
  if (v.isNull()) return "null";
  if (type == "number") return "the number " + text();
  if (type == "bigint") return "the bigint " + text() + "n";
  if (type == "boolean") return text();
  if (type == "string") {
    std::string s = v.as<std::string>();
    if (s.size() > 40) s = s.substr(0, 40) + "...";
    return "the string \"" + s + "\"";
  }
  if (type == "symbol") return "a symbol";
  if (type == "function") return "a function";
  if (v.isArray()) return "an array of " + std::to_string(v["length"].as<unsigned>());
  const val ctor = v["constructor"];
  const val ctor_name = ctor.isUndefined() || ctor.isNull() ? val::undefined() : ctor["name"];
  const std::string name = ctor_name.isString() ? ctor_name.as<std::string>() : "";
  if (val::global("ArrayBuffer").call<bool>("isView", v) && v["length"].isNumber())
    return "a " + name + " of " + std::to_string(v["length"].as<unsigned>());
  if (name.empty() || name == "Object") return "an object";
  return "a " + name;
}

[[noreturn]] inline void expected(const std::string& what, const std::string& kind, const val& got) {
  throw glass::Error(what + ": expected " + kind + ", got " + describe_js(got));
}

inline constexpr const char* kInt32Kind = "a whole number from -2147483648 to 2147483647";

inline double number_from(const char* what, const val& v) {
  if (!v.isNumber()) expected(what, "a number", v);
  return v.as<double>();
}
inline bool is_whole(double d) { return std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9007199254740992.0; }
// A whole number a double holds exactly (|d| <= 2^53): sizes, offsets, seeds.
inline int64_t whole_from(const char* what, double d) {
  if (!is_whole(d)) throw glass::Error(std::string(what) + ": expected a whole number, got " + format_scalar(d));
  return static_cast<int64_t>(d);
}
inline int64_t int64_from(const char* what, const val& v) {
  if (!v.isNumber()) expected(what, "a whole number", v);
  return whole_from(what, v.as<double>());
}
// An int parameter (an axis): whole and in int32 range, never wrapped (2^32 is not 0).
inline int int_from(const char* what, const val& v) {
  if (!v.isNumber()) expected(what, kInt32Kind, v);
  const double d = v.as<double>();
  if (!is_whole(d) || d < INT32_MIN || d > INT32_MAX) expected(what, kInt32Kind, v);
  return static_cast<int>(d);
}
inline bool bool_from(const char* what, const val& v) {
  if (v.typeOf().as<std::string>() != "boolean") expected(what, "true or false", v);
  return v.as<bool>();
}
inline std::string string_from(const char* what, const val& v) {
  if (!v.isString()) expected(what, "a string", v);
  return v.as<std::string>();
}
inline DType dtype_from(const char* what, const val& v) {
  if (!v.isString()) expected(what, "'float32' or 'float64'", v);
  try {
    return parse_dtype(v.as<std::string>());
  } catch (const glass::Error& e) {
    throw glass::Error(std::string(what) + ": " + e.what());
  }
}

// An array or a typed array (not a string, a number, or an object with a length).
inline bool is_array_like(const val& v) {
  if (v.isArray()) return true;
  return val::global("ArrayBuffer").call<bool>("isView", v) && !v.instanceof(val::global("DataView"));
}

// A JS array of numbers (or a typed array) as doubles.
inline std::vector<double> doubles_from(const char* what, const val& v) {
  if (!is_array_like(v)) expected(what, "an array of numbers", v);
  return emscripten::convertJSArrayToNumberVector<double>(v);
}

// A JS array of whole numbers as int64 (shapes). Embind in 3.1.6 has no
// int64 without BigInt, so sizes travel as doubles and are checked here.
inline std::vector<int64_t> int64s_from(const char* what, const val& v) {
  if (!is_array_like(v)) expected(what, "an array of whole numbers", v);
  if (v.isArray()) {  // the conversion below would read "2" as 2 and true as 1: each item must be a number
    const auto n = v["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i)
      if (!v[i].isNumber()) expected(what, "a whole number at item " + std::to_string(i), v[i]);
  }
  const std::vector<double> ds = emscripten::convertJSArrayToNumberVector<double>(v);
  std::vector<int64_t> out;
  out.reserve(ds.size());
  for (std::size_t i = 0; i < ds.size(); ++i) {
    if (!is_whole(ds[i]))  // a string or boolean item arrives as NaN or 0/1: name what it really is
      throw glass::Error(std::string(what) + ": expected a whole number at item " + std::to_string(i) + ", got " +
                         describe_js(v[i]));
    out.push_back(static_cast<int64_t>(ds[i]));
  }
  return out;
}

// Axes and ids: whole numbers in int32 range (range checks against the
// tensor or the vocabulary are the core's job).
inline std::vector<int> ints_from(const char* what, const val& v) {
  std::vector<int> out;
  std::size_t i = 0;
  for (int64_t x : int64s_from(what, v)) {
    if (x < INT32_MIN || x > INT32_MAX)
      throw glass::Error(std::string(what) + ": expected " + kInt32Kind + " at item " + std::to_string(i) + ", got " +
                         describe_js(v[i]));
    out.push_back(static_cast<int>(x));
    ++i;
  }
  return out;
}
inline std::vector<int32_t> ids_from(const char* what, const val& v) {
  const std::vector<int> xs = ints_from(what, v);
  return std::vector<int32_t>(xs.begin(), xs.end());
}

// A JS array of Tensor handles; each element is copied (a cheap handle copy).
// Each item must be a live Tensor handle (Embind's own conversion would fail
// with its internals): "concat xs: expected a Tensor at item 1, got the number 5".
inline std::vector<Tensor> tensors_from(const char* what, const val& v) {
  if (!v.isArray()) expected(what, "an array of Tensors", v);
  const val tensor_class = val::module_property("Tensor");
  const auto n = v["length"].as<unsigned>();
  std::vector<Tensor> out;
  out.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    const val item = v[i];
    if (!item.instanceof(tensor_class)) expected(what, "a Tensor at item " + std::to_string(i), item);
    if (item.call<bool>("isDeleted"))
      throw glass::Error(std::string(what) + " item " + std::to_string(i) + ": the Tensor was disposed (deleted)");
    out.push_back(item.as<Tensor>());
  }
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

// A model snapshot (1, ...) as {shape, data} with its batch axis (always 1 in
// the page's runs) removed: what the inspector, the lessons and the
// interpretability tools copy out.
inline val batchless(const Tensor& t) {
  Shape shape = t.shape();
  if (!shape.empty()) shape.erase(shape.begin());
  val out = val::object();
  out.set("shape", js_numbers(shape));
  out.set("data", js_values(t));
  return out;
}

// A defined Tensor as a new JS handle; an undefined one as null.
inline val js_tensor_or_null(const Tensor& t) { return t.defined() ? val(t) : val::null(); }

}  // namespace glass::wasm
