#pragma once
// Linear without bias: y = x W^T with W stored (out, in), as PyTorch and the
// safetensors keys expect.
#include <string>

#include <span>

#include "glass/nn/module.h"
#include "glass/tensor/packed_weight.h"
#include "glass/tensor/random.h"
#include "glass/tensor/tensor.h"

namespace glass::nn {

class Linear {
 public:
  // W ~ normal(0, std)
  Linear(int64_t in, int64_t out, double std, Generator& gen, DType dtype);
  Tensor operator()(const Tensor& x) const;  // (..., in) -> (..., out)
  void visit(const std::string& prefix, const ParamVisitor& visit) { visit(prefix + "weight", weight); }

  Tensor weight;  // (out, in)

 private:
  mutable PackedWeight packed_;  // W^T for the product kernel, repacked when W changes
};

class Embedding {
 public:
  Embedding(int64_t vocab, int64_t d, double std, Generator& gen, DType dtype);
  // ids (B, n) -> (B, n, d)
  Tensor operator()(std::span<const int32_t> ids, const Shape& ids_shape) const;
  void visit(const std::string& prefix, const ParamVisitor& visit) { visit(prefix + "weight", weight); }

  Tensor weight;  // (V, d)
};

}  // namespace glass::nn
