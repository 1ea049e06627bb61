#pragma once
// Reverse-mode autograd: the graph that ops record, the backward pass that
// walks it, and a read-only view of it for the inspector.
//
// Every primitive op records one Node: its name, its inputs and a backward
// rule. A rule receives the gradients to fill first (one slot per input, left
// undefined for inputs that need none), then the upstream gradient of the op's
// output; what forward saved lives in the rule's captures. Rules are written
// with Tensor ops under a no-grad scope, so they read like the math.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "glass/tensor/tensor.h"

namespace glass {

using BackwardRule = std::function<void(std::vector<Tensor>& dinputs, const Tensor& dout)>;

struct Node {
  Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  // Tears the graph below this node down with a loop: the default destructor
  // would recurse once per op and overflow the stack on deep graphs.
  ~Node();

  std::string op;      // "mul", "mean", ... : what the inspector shows
  std::string detail;  // op arguments worth showing: "axis=-1, keepdim", "eps=1e-06"
  std::vector<Tensor> inputs;
  BackwardRule backward;
  std::weak_ptr<TensorImpl> output;  // weak: the output owns this node
  Shape out_shape;
  DType out_dtype = DType::f32;
  bool freed = false;  // set once backward released inputs and rule
};

// While alive, ops record no graph (used inside backward rules, for
// inference and for optimizer updates). Nests.
class NoGradGuard {
 public:
  NoGradGuard();
  ~NoGradGuard();
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  bool previous_;
};
bool grad_enabled();

// Called by every primitive after computing `out`: if grad mode is on and any
// input requires grad, gives `out` a Node with this rule. Returns `out`.
Tensor record(Tensor out, std::string op, std::vector<Tensor> inputs, BackwardRule rule, std::string detail = {});

// The engine behind Tensor::backward: topological order by an explicit stack
// (no recursion: deep graphs must not overflow the wasm stack).
void run_backward(const Tensor& root, const Tensor& upstream, const BackwardOptions& options);

// ---- inspection ----
struct GraphNode {
  int id = 0;               // index in the returned vector (inputs come first)
  std::string op;           // "leaf" for tensors no op made
  std::string detail;
  std::string name;         // Tensor::set_name, if any
  std::vector<int> inputs;  // ids of this node's inputs, in argument order
  Shape shape;
  DType dtype = DType::f32;
  bool requires_grad = false;
  Tensor value;  // undefined if the tensor no longer exists
  Tensor grad;   // after backward with retain_grads (or on leaves): its gradient
};
// Every tensor `root` depends on through recorded ops, inputs before users,
// the root last. Throws if the graph was freed by a backward pass.
std::vector<GraphNode> trace_graph(const Tensor& root);

}  // namespace glass
