// Embind bindings for the GlassLLM core: thin marshalling only. The ops
// themselves are registered from the op table (op_bindings.cpp); here is the
// rest: the Tensor class, construction, autograd, RMSNorm.
//
// Every entry point goes through guard<&f> (marshal.h), so a glass::Error (or
// any std::exception) reaches JS as an `Error` with the core's message.
//
// Ownership across the boundary: every Tensor, RMSNorm, Generator and
// NoGradGuard returned to JS is a new Embind handle that JS must `.delete()`.
// A Tensor handle is a copy of the C++ Tensor (a shared_ptr), so deleting it
// frees the values only when nothing else (a graph, a norm's gamma, another
// handle) still holds them. The TypeScript facade in web/src/core owns these
// handles through scopes; raw users of this module must delete them by hand.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <string>

#include "glass/glass.h"
#include "glass/tensor/thread_pool.h"
#include "marshal.h"

namespace glass::wasm {
namespace {

using nn::RMSNorm;

// Every argument but a Tensor handle arrives as a JS value and is checked for
// its kind first (marshal.h): "zeros shape: expected an array of whole numbers, got the number 3".
BackwardOptions backward_options_from(const val& options) {
  BackwardOptions out;
  if (options.isUndefined() || options.isNull()) return out;
  if (options.typeOf().as<std::string>() != "object") expected("backward options", "an object", options);
  const val graph = options["retainGraph"];
  const val grads = options["retainGrads"];
  out.retain_graph = !graph.isUndefined() && bool_from("backward retainGraph", graph);
  out.retain_grads = !grads.isUndefined() && bool_from("backward retainGrads", grads);
  return out;
}

// ---- construction ----
Tensor from_array(val data, val shape, val dtype) {
  const std::vector<double> values = doubles_from("tensor data", data);
  return Tensor::from_vector(values, int64s_from("tensor shape", shape), dtype_from("tensor dtype", dtype));
}
Tensor scalar(val value, val dtype) {
  const double v = number_from("scalar value", value);
  return Tensor::scalar(v, dtype_from("scalar dtype", dtype));
}
Tensor zeros(val shape, val dtype) {
  const Shape s = int64s_from("zeros shape", shape);
  return Tensor::zeros(s, dtype_from("zeros dtype", dtype));
}
Tensor ones(val shape, val dtype) {
  const Shape s = int64s_from("ones shape", shape);
  return Tensor::ones(s, dtype_from("ones dtype", dtype));
}
Tensor full(val shape, val value, val dtype) {
  const Shape s = int64s_from("full shape", shape);
  const double v = number_from("full value", value);
  return Tensor::full(s, v, dtype_from("full dtype", dtype));
}
Tensor randn(val shape, Generator& gen, val dtype) {
  const Shape s = int64s_from("randn shape", shape);
  return Tensor::randn(s, gen, dtype_from("randn dtype", dtype));
}
Tensor uniform(val shape, val low, val high, Generator& gen, val dtype) {
  const Shape s = int64s_from("uniform shape", shape);
  const double lo = number_from("uniform low", low);
  const double hi = number_from("uniform high", high);
  return Tensor::uniform(s, lo, hi, gen, dtype_from("uniform dtype", dtype));
}
Generator* make_generator(val seed) {
  const int64_t s = int64_from("Generator seed", seed);
  if (s < 0) throw Error("Generator seed: must be >= 0, got " + std::to_string(s));
  return new Generator(static_cast<uint64_t>(s));
}

// ---- Tensor methods (first argument is the handle) ----
val shape_of(const Tensor& t) { return js_numbers(t.shape()); }
val strides_of(const Tensor& t) { return js_numbers(t.strides()); }
std::string dtype_of_tensor(const Tensor& t) { return std::string(dtype_name(t.dtype())); }
double numel_of(const Tensor& t) { return static_cast<double>(t.numel()); }
int ndim_of(const Tensor& t) { return t.ndim(); }
val data_of(const Tensor& t) { return js_values(t); }
double item_of(const Tensor& t) { return t.item(); }
bool is_contiguous(const Tensor& t) { return t.is_contiguous(); }
std::string name_of(const Tensor& t) { return t.name(); }
void set_name(Tensor& t, val name) { t.set_name(string_from("Tensor name", name)); }
bool requires_grad(const Tensor& t) { return t.requires_grad(); }
void set_requires_grad(Tensor& t, val on) { t.set_requires_grad(bool_from("Tensor requiresGrad", on)); }
bool is_leaf(const Tensor& t) { return t.is_leaf(); }
val grad_of(const Tensor& t) { return js_tensor_or_null(t.grad()); }
void zero_grad(Tensor& t) { t.zero_grad(); }
void retain_grad(Tensor& t) { t.retain_grad(); }
void backward(const Tensor& t, val options) { t.backward(backward_options_from(options)); }
void backward_with(const Tensor& t, const Tensor& upstream, val options) {
  t.backward(upstream, backward_options_from(options));
}
Tensor detach(const Tensor& t) { return t.detach(); }
Tensor contiguous(const Tensor& t) { return t.contiguous(); }
Tensor clone_of(const Tensor& t) { return t.clone(); }
Tensor to_dtype(const Tensor& t, val dtype) { return t.to(dtype_from("to dtype", dtype)); }
std::string describe_tensor(const Tensor& t) { return describe(t); }

// ---- autograd ----
bool is_grad_enabled() { return grad_enabled(); }
NoGradGuard* make_no_grad() { return new NoGradGuard(); }

// Nodes as plain objects; `value` and `grad` are new Tensor handles or null.
val trace(const Tensor& root) {
  val out = val::array();
  const std::vector<GraphNode> nodes = trace_graph(root);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const GraphNode& n = nodes[i];
    val node = val::object();
    node.set("id", n.id);
    node.set("op", n.op);
    node.set("detail", n.detail);
    node.set("name", n.name);
    node.set("inputs", js_numbers(n.inputs));
    node.set("shape", js_numbers(n.shape));
    node.set("dtype", std::string(dtype_name(n.dtype)));
    node.set("requiresGrad", n.requires_grad);
    node.set("value", js_tensor_or_null(n.value));
    node.set("grad", js_tensor_or_null(n.grad));
    out.set(i, node);
  }
  return out;
}

// ---- nn::RMSNorm ----
RMSNorm* make_rmsnorm(val d, val eps, val dtype) {
  const int64_t width = int64_from("RMSNorm d", d);
  const double e = number_from("RMSNorm eps", eps);
  return new RMSNorm(width, e, dtype_from("RMSNorm dtype", dtype));
}
Tensor rmsnorm_call(const RMSNorm& norm, const Tensor& x) { return norm(x); }
double rmsnorm_eps(const RMSNorm& norm) { return norm.eps(); }
void rmsnorm_set_eps(RMSNorm& norm, val eps) { norm.set_eps(number_from("RMSNorm eps", eps)); }
double rmsnorm_dim(const RMSNorm& norm) { return static_cast<double>(norm.dim()); }
std::string rmsnorm_dtype(const RMSNorm& norm) { return std::string(dtype_name(norm.dtype())); }
Tensor rmsnorm_gamma(const RMSNorm& norm) { return norm.gamma(); }
void rmsnorm_set_gamma(RMSNorm& norm, const Tensor& gamma) { norm.set_gamma(gamma); }

// The kernels' threads (thread_pool.h). The count arrives as a JS number: a
// fraction or a huge value is refused here, before the int conversion.
void set_threads_of(double n) {
  if (!(std::trunc(n) == n && std::abs(n) < 1e6))
    throw Error("setThreads: the thread count must be a whole number between 1 and " + std::to_string(max_threads()));
  set_threads(static_cast<int>(n));
}
int threads_of() { return threads(); }
int max_threads_of() { return max_threads(); }

// A deliberate wasm trap (RuntimeError: unreachable), for testing that the app
// restarts a dead worker. Never called by the app itself.
void debug_trap() { __builtin_trap(); }

}  // namespace
}  // namespace glass::wasm

EMSCRIPTEN_BINDINGS(glass_core) {
  namespace em = emscripten;
  using namespace glass;
  using namespace glass::wasm;

  em::class_<Tensor>("Tensor")
      .function("shape", guard<&shape_of>)
      .function("strides", guard<&strides_of>)
      .function("dtype", guard<&dtype_of_tensor>)
      .function("numel", guard<&numel_of>)
      .function("ndim", guard<&ndim_of>)
      .function("data", guard<&data_of>)
      .function("item", guard<&item_of>)
      .function("isContiguous", guard<&is_contiguous>)
      .function("name", guard<&name_of>)
      .function("setName", guard<&set_name>)
      .function("requiresGrad", guard<&requires_grad>)
      .function("setRequiresGrad", guard<&set_requires_grad>)
      .function("isLeaf", guard<&is_leaf>)
      .function("grad", guard<&grad_of>)
      .function("zeroGrad", guard<&zero_grad>)
      .function("retainGrad", guard<&retain_grad>)
      .function("backward", guard<&backward>)
      .function("backwardWith", guard<&backward_with>)
      .function("detach", guard<&detach>)
      .function("contiguous", guard<&contiguous>)
      .function("clone", guard<&clone_of>)
      .function("to", guard<&to_dtype>)
      .function("describe", guard<&describe_tensor>);

  em::class_<Generator>("Generator").constructor(guard<&make_generator>);

  em::class_<NoGradGuard>("NoGradGuard").constructor(guard<&make_no_grad>);
  em::function("gradEnabled", guard<&is_grad_enabled>);

  em::class_<nn::RMSNorm>("RMSNorm")
      .constructor(guard<&make_rmsnorm>)
      .function("call", guard<&rmsnorm_call>)
      .function("eps", guard<&rmsnorm_eps>)
      .function("setEps", guard<&rmsnorm_set_eps>)
      .function("dim", guard<&rmsnorm_dim>)
      .function("dtype", guard<&rmsnorm_dtype>)
      .function("gamma", guard<&rmsnorm_gamma>)
      .function("setGamma", guard<&rmsnorm_set_gamma>);

  // construction
  em::function("fromArray", guard<&from_array>);
  em::function("scalar", guard<&scalar>);
  em::function("zeros", guard<&zeros>);
  em::function("ones", guard<&ones>);
  em::function("full", guard<&full>);
  em::function("randn", guard<&randn>);
  em::function("uniform", guard<&uniform>);

  // autograd inspection
  em::function("traceGraph", guard<&trace>);

  // threads (1 in the build without them)
  em::function("setThreads", guard<&set_threads_of>);
  em::function("threads", guard<&threads_of>);
  em::function("maxThreads", guard<&max_threads_of>);

  // testing only: kills the module the way a core bug would
  em::function("debugTrap", &debug_trap);
}
