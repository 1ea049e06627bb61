// Embind registrations of every op in the op table (glass/tensor/op_table.inc):
// no op is listed here by hand. For each GLASS_OP(name, facade, (params), call)
// this file makes a struct Op_name whose run(params) makes the call, and
// registers `name` with Embind through Bound<Op_name>, which takes each
// parameter in its JavaScript form (JsArg below) and converts it to the core's.
// scripts/gen_op_table.py writes the TypeScript side from the same table.
//
// Ownership and errors as in bindings.cpp: every op returns a new Tensor
// handle that JS must delete, and a core error reaches JS as an Error with the
// core's message (guard, marshal.h). A value JS passes that is not of the
// parameter's kind, or that the core type cannot hold (1.5 as a size, 2^32 as
// an axis), is an error naming the op and the parameter:
// "reshape shape: expected a whole number at item 0, got the number 1.5".
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cctype>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "glass/glass.h"
#include "marshal.h"

namespace glass::wasm {
namespace {

// ---- JsArg<core parameter type>: the type Embind receives, and from(js, what)
// to the core's. `what` ("reshape shape") starts any error message. The same
// list, with the TypeScript types, is TYPES in scripts/gen_op_table.py.
template <class T>
struct JsArg;  // a type not listed here cannot be a table parameter (a compile error)

template <class T>
struct Plain {  // passed as is: Embind converts these itself
  using type = T;
  static T from(T v, const char*) { return v; }
};
// A tensor is checked by the facade (web/src/core/args.ts), which holds the
// user's value; Embind refuses anything that is not a live Tensor handle.
template <> struct JsArg<const Tensor&> : Plain<const Tensor&> {};
// The rest arrive as any JS value and are checked for their kind (marshal.h)
// before conversion: nothing is coerced (a string is not NaN, 2^32 is not 0).
template <> struct JsArg<double> {
  using type = val;
  static double from(const val& v, const char* what) { return number_from(what, v); }
};
template <> struct JsArg<int> {
  using type = val;
  static int from(const val& v, const char* what) { return int_from(what, v); }
};
template <> struct JsArg<bool> {
  using type = val;
  static bool from(const val& v, const char* what) { return bool_from(what, v); }
};
template <> struct JsArg<int64_t> {
  using type = val;  // Embind in 3.1.6 has no int64 without BigInt
  static int64_t from(const val& v, const char* what) { return int64_from(what, v); }
};
template <> struct JsArg<const Shape&> {
  using type = val;
  static Shape from(const val& v, const char* what) { return int64s_from(what, v); }
};
template <> struct JsArg<const std::vector<int>&> {
  using type = val;
  static std::vector<int> from(const val& v, const char* what) { return ints_from(what, v); }
};
template <> struct JsArg<std::span<const int32_t>> {
  using type = val;
  // a temporary that lives until the call returns, viewed by the op as a span
  static std::vector<int32_t> from(const val& v, const char* what) { return ids_from(what, v); }
};
template <> struct JsArg<const std::vector<Tensor>&> {
  using type = val;
  static std::vector<Tensor> from(const val& v, const char* what) { return tensors_from(what, v); }
};
template <> struct JsArg<DType> {
  using type = val;
  static DType from(const val& v, const char* what) { return dtype_from(what, v); }
};

// "op p1", "op p2", ... (camelCase) from the stringified parameter list "(const Tensor& x, int p1 = -1, ...)":
// the last word before each top-level comma (and before any default).
std::vector<std::string> argument_labels(const char* op, const std::string& params) {
  std::vector<std::string> out;
  std::string decl;
  int depth = 0;
  auto finish = [&] {
    std::string d = decl.substr(0, decl.find('='));
    while (!d.empty() && d.back() == ' ') d.pop_back();
    const std::size_t start = d.find_last_of(" &*") + 1;
    std::string name;  // as JavaScript spells it (ids_shape -> idsShape), as args.ts names it
    for (std::size_t k = start; k < d.size(); ++k) {
      if (d[k] == '_' && k + 1 < d.size()) name += static_cast<char>(std::toupper(static_cast<unsigned char>(d[++k])));
      else name += d[k];
    }
    out.push_back(std::string(op) + " " + name);
    decl.clear();
  };
  for (std::size_t i = 1; i + 1 < params.size(); ++i) {  // inside the outer parentheses
    const char c = params[i];
    if (c == '(' || c == '<') ++depth;
    if (c == ')' || c == '>') --depth;
    if (c == ',' && depth == 0) {
      finish();
    } else {
      decl += c;
    }
  }
  if (!decl.empty()) finish();
  return out;
}

// Bound<Op>::call: Op::run with each parameter taken in its JS form.
template <class Op, class Fn = decltype(&Op::run)>
struct Bound;
template <class Op, class... A>
struct Bound<Op, Tensor (*)(A...)> {
  static Tensor call(typename JsArg<A>::type... args) {
    return call_with(std::index_sequence_for<A...>{}, std::forward<typename JsArg<A>::type>(args)...);
  }

 private:
  template <std::size_t... I>
  static Tensor call_with(std::index_sequence<I...>, typename JsArg<A>::type... args) {
    static const std::vector<std::string> what = argument_labels(Op::name, Op::parameters);  // once per op
    return Op::run(JsArg<A>::from(std::forward<typename JsArg<A>::type>(args), I < what.size() ? what[I].c_str() : Op::name)...);
  }
};

// One struct per table entry. (Not named after the op itself: inside a struct
// `div`, the call div(a, b) would name the struct.)
namespace table {
#define GLASS_OP(js_name, facade, params, core_call) \
  struct Op_##js_name {                              \
    static constexpr const char* name = #js_name;    \
    static constexpr const char* parameters = #params; \
    static Tensor run params { return core_call; }   \
  };
#include "glass/tensor/op_table.inc"
#undef GLASS_OP
}  // namespace table

}  // namespace
}  // namespace glass::wasm

EMSCRIPTEN_BINDINGS(glass_ops) {
  using namespace glass::wasm;
#define GLASS_OP(js_name, facade, params, core_call) \
  emscripten::function(#js_name, guard<&Bound<table::Op_##js_name>::call>);
#include "glass/tensor/op_table.inc"
#undef GLASS_OP
}
