#pragma once
// Tensor: an n-d array of float32 or float64 with an optional autograd history.
//
// Ownership, stated first because everything else follows from it:
// - A Tensor is a cheap handle (a shared_ptr) to a TensorImpl. Copying a Tensor
//   copies the handle: both names see the same values, gradient and history.
// - A TensorImpl views a Storage (shared_ptr) through shape, strides and offset.
//   Views (reshape of a contiguous tensor, transpose, permute, detach) share the
//   Storage; every op that computes writes a fresh Storage. No op writes into an
//   input, so views never see values change under them.
// - A TensorImpl made by an op on inputs that require grad owns its grad_fn, the
//   Node that made it. A Node owns handles to its inputs (and whatever its
//   backward rule saved), so the graph lives exactly as long as its outputs do.
//   A Node never holds its own output strongly (that would be a cycle).
// - backward() frees the graph as it goes unless asked to keep it
//   (BackwardOptions::retain_graph).
// - grad is a separate Tensor, written by backward(): accumulated into leaves
//   that require grad, and into non-leaves only if retain_grad() was called or
//   BackwardOptions::retain_grads is set.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "glass/tensor/dtype.h"
#include "glass/tensor/shape.h"
#include "glass/tensor/storage.h"

namespace glass {

struct Node;
struct TensorImpl;

// A nested list of numbers, so tests and examples can write {{3, 4}, {6, 8}}.
struct Nested {
  bool is_leaf = false;
  double value = 0;
  std::vector<Nested> items;
  Nested(double v) : is_leaf(true), value(v) {}  // NOLINT(implicit): {{3, 4}} must read naturally
  Nested(std::initializer_list<Nested> list) : items(list) {}
};

struct BackwardOptions {
  bool retain_graph = false;  // keep the graph so backward can run again / be inspected
  bool retain_grads = false;  // store the gradient of every non-leaf tensor as well
};

class Generator;

class Tensor {
 public:
  Tensor() = default;  // an undefined tensor: defined() is false
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  // ---- construction ----
  // From nested lists: Tensor::of({{3, 4}}, DType::f64) has shape (1, 2).
  static Tensor of(const Nested& values, DType dtype = DType::f32);
  // From flat row-major values; values.size() must equal numel(shape).
  static Tensor from_vector(std::span<const double> values, const Shape& shape, DType dtype = DType::f32);
  static Tensor from_f32(std::span<const float> values, const Shape& shape);
  static Tensor from_f64(std::span<const double> values, const Shape& shape);
  static Tensor scalar(double value, DType dtype = DType::f32);
  static Tensor zeros(const Shape& shape, DType dtype = DType::f32);
  static Tensor ones(const Shape& shape, DType dtype = DType::f32);
  static Tensor full(const Shape& shape, double value, DType dtype = DType::f32);
  // Standard normal from a seeded generator: the same seed gives the same
  // numbers natively and in wasm.
  static Tensor randn(const Shape& shape, Generator& gen, DType dtype = DType::f32);
  static Tensor uniform(const Shape& shape, double low, double high, Generator& gen, DType dtype = DType::f32);

  // ---- metadata ----
  bool defined() const { return impl_ != nullptr; }
  const Shape& shape() const;
  const Strides& strides() const;
  int64_t offset() const;
  DType dtype() const;
  int ndim() const;
  int64_t numel() const;
  int64_t size(int axis) const;  // negative axes count from the end
  bool is_contiguous() const;
  const std::string& name() const;
  Tensor& set_name(std::string name);  // shown by the graph inspector

  // ---- values ----
  double item() const;                                  // only for one-element tensors
  double at(std::initializer_list<int64_t> index) const;  // bounds-checked
  std::vector<double> to_vector() const;                // row-major copy
  std::vector<float> to_f32() const;
  // Pointer to contiguous row-major values of type T; throws if the tensor is
  // not contiguous or T does not match dtype().
  template <class T> const T* data() const;
  template <class T> T* mutable_data();

  // ---- autograd ----
  bool requires_grad() const;
  Tensor& set_requires_grad(bool on = true);  // only on leaves
  bool is_leaf() const;
  Tensor grad() const;  // undefined until a backward pass writes it
  void zero_grad();     // drops the gradient (the next backward starts from zero)
  void retain_grad();   // ask backward() to store this non-leaf's gradient
  // From a one-element tensor (upstream gradient 1) ...
  void backward(const BackwardOptions& options = {}) const;
  // ... or with an explicit upstream gradient of the same shape and dtype.
  void backward(const Tensor& upstream, const BackwardOptions& options = {}) const;
  Tensor detach() const;  // same values, no history
  std::shared_ptr<Node> grad_fn() const;

  // ---- views and copies ----
  Tensor contiguous() const;  // itself if already contiguous
  Tensor clone() const;       // a fresh contiguous copy, with history
  Tensor to(DType dtype) const;  // explicit cast, differentiable

  TensorImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }

 private:
  const TensorImpl& checked() const;
  std::shared_ptr<TensorImpl> impl_;
};

struct TensorImpl {
  std::shared_ptr<Storage> storage;
  Shape shape;
  Strides strides;
  int64_t offset = 0;
  DType dtype = DType::f32;
  bool requires_grad = false;
  bool retains_grad = false;
  std::string name;
  Tensor grad;
  std::shared_ptr<Node> grad_fn;
};

// A fresh contiguous tensor with UNINITIALISED values and no history: for
// ops, which write every element of their output. The shape is checked
// (checked_numel): a bad one is an Error naming `op`. Ops whose output can be
// larger than their inputs check it themselves first, under their own name.
Tensor empty_like_shape(const Shape& shape, DType dtype, const char* op = "tensor");

std::string describe(const Tensor& t);  // "float32 (2, 3)"

}  // namespace glass
