#include "glass/nn/linear.h"

#include "glass/tensor/ops.h"

namespace glass::nn {

namespace {
Tensor init_normal(const Shape& shape, double std, Generator& gen, DType dtype) {
  return (Tensor::randn(shape, gen, dtype) * std).detach().set_requires_grad();
}
}  // namespace

Linear::Linear(int64_t in, int64_t out, double std, Generator& gen, DType dtype)
    : weight(init_normal({out, in}, std, gen, dtype)) {}

Tensor Linear::operator()(const Tensor& x) const { return linear(x, weight, packed_); }

Embedding::Embedding(int64_t vocab, int64_t d, double std, Generator& gen, DType dtype)
    : weight(init_normal({vocab, d}, std, gen, dtype)) {}

Tensor Embedding::operator()(std::span<const int32_t> ids, const Shape& ids_shape) const {
  return embedding(weight, ids, ids_shape);
}

}  // namespace glass::nn
