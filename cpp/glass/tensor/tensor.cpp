#include "glass/tensor/tensor.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "glass/tensor/autograd.h"
#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"
#include "glass/tensor/random.h"
#include "glass/tensor/strided.h"
#include "glass/tensor/thread_pool.h"

namespace glass {

// ---------------------------------------------------------------- construction

namespace {
Tensor allocate(const char* op, const Shape& shape, DType dtype, Storage::Init init) {
  const int64_t n = checked_numel(op, shape);
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::make_shared<Storage>(dtype, n, init);
  impl->shape = shape;
  impl->strides = contiguous_strides(shape);
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}
}  // namespace

Tensor empty_like_shape(const Shape& shape, DType dtype, const char* op) {
  return allocate(op, shape, dtype, Storage::Init::uninitialized);
}

namespace {

void nested_shape(const Nested& n, std::size_t depth, Shape& shape) {
  if (n.is_leaf) return;
  if (depth == shape.size()) shape.push_back(static_cast<int64_t>(n.items.size()));
  if (!n.items.empty()) nested_shape(n.items[0], depth + 1, shape);
}

void nested_flatten(const Nested& n, std::size_t depth, const Shape& shape, std::vector<double>& out) {
  if (n.is_leaf != (depth == shape.size()) || (!n.is_leaf && static_cast<int64_t>(n.items.size()) != shape[depth]))
    throw Error("Tensor::of: ragged nested list: expected every list at depth " + std::to_string(depth) +
                " to match shape " + to_string(shape));
  if (n.is_leaf) {
    out.push_back(n.value);
    return;
  }
  for (const Nested& item : n.items) nested_flatten(item, depth + 1, shape, out);
}

template <class T>
Tensor filled(const char* op, const Shape& shape, DType dtype, T&& value_at) {
  Tensor t = empty_like_shape(shape, dtype, op);
  dispatch(dtype, [&](auto tag) {
    using E = decltype(tag);
    E* p = t.mutable_data<E>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<E>(value_at(i));
  });
  return t;
}

}  // namespace

Tensor Tensor::of(const Nested& values, DType dtype) {
  Shape shape;
  nested_shape(values, 0, shape);
  std::vector<double> flat;
  nested_flatten(values, 0, shape, flat);
  return from_vector(flat, shape, dtype);
}

namespace {
// values.size() must be the shape's (checked) element count
void check_fill(const char* op, std::size_t values, const Shape& shape) {
  const int64_t n = checked_numel(op, shape);
  if (static_cast<uint64_t>(values) != static_cast<uint64_t>(n))
    throw Error(std::string(op) + ": " + std::to_string(values) + " values cannot fill shape " + to_string(shape) +
                " (" + std::to_string(n) + " elements)");
}
}  // namespace

Tensor Tensor::from_vector(std::span<const double> values, const Shape& shape, DType dtype) {
  check_fill("Tensor::from_vector", values.size(), shape);
  return filled("Tensor::from_vector", shape, dtype, [&](int64_t i) { return values[static_cast<std::size_t>(i)]; });
}

Tensor Tensor::from_f32(std::span<const float> values, const Shape& shape) {
  check_fill("Tensor::from_f32", values.size(), shape);
  return filled("Tensor::from_f32", shape, DType::f32, [&](int64_t i) { return values[static_cast<std::size_t>(i)]; });
}

Tensor Tensor::from_f64(std::span<const double> values, const Shape& shape) {
  return from_vector(values, shape, DType::f64);
}

Tensor Tensor::scalar(double value, DType dtype) { return full({}, value, dtype); }
Tensor Tensor::zeros(const Shape& shape, DType dtype) { return allocate("zeros", shape, dtype, Storage::Init::zeros); }
Tensor Tensor::ones(const Shape& shape, DType dtype) {
  return filled("ones", shape, dtype, [](int64_t) { return 1.0; });
}
Tensor Tensor::full(const Shape& shape, double value, DType dtype) {
  return filled("full", shape, dtype, [&](int64_t) { return value; });
}
Tensor Tensor::randn(const Shape& shape, Generator& gen, DType dtype) {
  return filled("Tensor::randn", shape, dtype, [&](int64_t) { return gen.normal(); });
}
Tensor Tensor::uniform(const Shape& shape, double low, double high, Generator& gen, DType dtype) {
  check_shape("Tensor::uniform", shape);
  if (!(low <= high) || !std::isfinite(low) || !std::isfinite(high))
    throw Error("Tensor::uniform: need finite low <= high, got " + std::to_string(low) + " and " + std::to_string(high));
  return filled("Tensor::uniform", shape, dtype, [&](int64_t) { return low + (high - low) * gen.uniform(); });
}

// ---------------------------------------------------------------- metadata

const TensorImpl& Tensor::checked() const {
  if (!impl_) throw Error("undefined tensor: it was never assigned (or a gradient was read before backward)");
  return *impl_;
}

const Shape& Tensor::shape() const { return checked().shape; }
const Strides& Tensor::strides() const { return checked().strides; }
int64_t Tensor::offset() const { return checked().offset; }
DType Tensor::dtype() const { return checked().dtype; }
int Tensor::ndim() const { return static_cast<int>(checked().shape.size()); }
int64_t Tensor::numel() const { return glass::numel(checked().shape); }
int64_t Tensor::size(int axis) const { return shape()[normalize_axis("size", axis, shape())]; }
const std::string& Tensor::name() const { return checked().name; }
Tensor& Tensor::set_name(std::string name) {
  checked();
  impl_->name = std::move(name);
  return *this;
}

bool Tensor::is_contiguous() const {
  const TensorImpl& t = checked();
  int64_t expected = 1;
  for (int i = static_cast<int>(t.shape.size()) - 1; i >= 0; --i) {
    if (t.shape[i] != 1 && t.strides[i] != expected) return false;
    expected *= t.shape[i];
  }
  return true;
}

// ---------------------------------------------------------------- values

double Tensor::item() const {
  if (numel() != 1)
    throw Error("item: needs a tensor with exactly one element, got shape " + to_string(shape()));
  return to_vector()[0];
}

double Tensor::at(std::initializer_list<int64_t> index) const {
  const TensorImpl& t = checked();
  if (static_cast<int>(index.size()) != ndim())
    throw Error("at: " + std::to_string(index.size()) + " indices for a tensor of shape " + to_string(t.shape));
  int64_t off = t.offset;
  int d = 0;
  for (int64_t i : index) {
    if (i < 0 || i >= t.shape[d])
      throw Error("at: index " + std::to_string(i) + " is out of range for axis " + std::to_string(d) +
                  " of shape " + to_string(t.shape));
    off += i * t.strides[d++];
  }
  return dispatch(t.dtype, [&](auto tag) { return static_cast<double>(t.storage->data<decltype(tag)>()[off]); });
}

std::vector<double> Tensor::to_vector() const {
  const Tensor c = detail::contiguous_values(*this);
  return dispatch(dtype(), [&](auto tag) {
    const auto* p = c.data<decltype(tag)>();
    return std::vector<double>(p, p + c.numel());
  });
}

std::vector<float> Tensor::to_f32() const {
  const Tensor c = detail::contiguous_values(*this);
  return dispatch(dtype(), [&](auto tag) {
    const auto* p = c.data<decltype(tag)>();
    return std::vector<float>(p, p + c.numel());
  });
}

template <class T> const T* Tensor::data() const {
  const TensorImpl& t = checked();
  if (t.dtype != dtype_of<T>)
    throw Error("data: tensor is " + std::string(dtype_name(t.dtype)) + ", asked for " +
                std::string(dtype_name(dtype_of<T>)));
  if (!is_contiguous()) throw Error("data: tensor of shape " + to_string(t.shape) + " is a non-contiguous view; call contiguous() first");
  return t.storage->data<T>() + t.offset;
}
template <class T> T* Tensor::mutable_data() {
  T* p = const_cast<T*>(data<T>());
  impl()->storage->bump_version();
  return p;
}
template const float* Tensor::data<float>() const;
template const double* Tensor::data<double>() const;
template float* Tensor::mutable_data<float>();
template double* Tensor::mutable_data<double>();

// ---------------------------------------------------------------- autograd

bool Tensor::requires_grad() const { return checked().requires_grad; }
bool Tensor::is_leaf() const { return checked().grad_fn == nullptr; }
std::shared_ptr<Node> Tensor::grad_fn() const { return checked().grad_fn; }
Tensor Tensor::grad() const { return checked().grad; }
void Tensor::zero_grad() {
  checked();
  impl_->grad = Tensor();
}
void Tensor::retain_grad() {
  checked();
  impl_->retains_grad = true;
}

Tensor& Tensor::set_requires_grad(bool on) {
  checked();
  if (!is_leaf())
    throw Error("set_requires_grad: only leaf tensors (made directly, not by an op) can change requires_grad; "
                "this one was made by '" + impl_->grad_fn->op + "' — use detach() first");
  impl_->requires_grad = on;
  return *this;
}

void Tensor::backward(const BackwardOptions& options) const {
  if (numel() != 1)
    throw Error("backward: without an upstream gradient the tensor must have one element, got shape " +
                to_string(shape()) + " (reduce it, e.g. with sum, or pass an upstream gradient)");
  run_backward(*this, Tensor::ones(shape(), dtype()), options);
}

void Tensor::backward(const Tensor& upstream, const BackwardOptions& options) const {
  if (upstream.shape() != shape() || upstream.dtype() != dtype())
    throw Error("backward: upstream gradient is " + describe(upstream) + " but the tensor is " + describe(*this));
  run_backward(*this, upstream, options);
}

Tensor Tensor::detach() const {
  auto impl = std::make_shared<TensorImpl>();
  const TensorImpl& t = checked();
  impl->storage = t.storage;
  impl->shape = t.shape;
  impl->strides = t.strides;
  impl->offset = t.offset;
  impl->dtype = t.dtype;
  impl->name = t.name;
  return Tensor(std::move(impl));
}

// ---------------------------------------------------------------- copies

namespace detail {
// Row-major copy of any strided view (broadcast views included), optionally
// converting the element type.
Tensor materialize(const Tensor& x, DType dtype) {
  Tensor out = empty_like_shape(x.shape(), dtype);
  dispatch(x.dtype(), [&](auto in_tag) {
    using I = decltype(in_tag);
    const I* src = x.impl()->storage->data<I>();
    dispatch(dtype, [&](auto out_tag) {
      using O = decltype(out_tag);
      O* const out_data = out.mutable_data<O>();
      const int64_t len = x.ndim() == 0 ? 1 : x.shape().back();
      const int64_t rows = len == 0 ? 0 : x.numel() / len;
      // large copies (attention's heads, permuted) are shared between threads by rows;
      // the strides copied once here, not in every chunk (a copy is a malloc)
      const std::array<Strides, 1> strides{x.strides()};
      auto copy_rows = [&](int64_t first, int64_t last) {
        O* dst = out_data + first * len;
        for_each_row_range<1>(x.shape(), strides, {x.offset()}, first, last, [&](auto off, int64_t n, auto st) {
          const I* s = src + off[0];
          for (int64_t i = 0; i < n; ++i) *dst++ = static_cast<O>(s[i * st[0]]);
        });
      };
      if (x.numel() < kParallelElements)
        copy_rows(0, std::max<int64_t>(rows, 1));
      else
        parallel_ranges(rows, grain_rows(len), copy_rows);
    });
  });
  return out;
}
}  // namespace detail

Tensor Tensor::contiguous() const {
  if (is_contiguous()) return *this;
  return clone();
}

Tensor Tensor::clone() const {
  Tensor out = detail::materialize(*this, dtype());
  return record(out, "copy", {*this}, [](std::vector<Tensor>& dx, const Tensor& dout) { dx[0] = dout; });
}

Tensor Tensor::to(DType target) const {
  if (target == dtype()) return *this;
  const DType source = dtype();
  Tensor out = detail::materialize(*this, target);
  return record(out, "cast", {*this},
                [source](std::vector<Tensor>& dx, const Tensor& dout) { dx[0] = detail::materialize(dout, source); },
                "to " + std::string(dtype_name(target)));
}

std::string describe(const Tensor& t) {
  if (!t.defined()) return "undefined";
  return std::string(dtype_name(t.dtype())) + " " + to_string(t.shape());
}

}  // namespace glass
