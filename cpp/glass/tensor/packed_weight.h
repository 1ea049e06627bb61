#pragma once
// A Linear layer's W^T, packed for the product kernel at its first use and
// reused while W is unchanged. Valid only for the same Storage (held weakly,
// so a freed one is never mistaken for a new one at the same address), at
// the same version (every Tensor::mutable_data, as in AdamW or loading
// weights, moves it), view and dtype; otherwise it is packed again.
#include <cstdint>
#include <memory>

#include "glass/tensor/gemm.h"
#include "glass/tensor/tensor.h"

namespace glass {

class PackedWeight {
 public:
  // W^T for w (out, in), float32 and contiguous: the (in, out) operand of
  // x @ W^T. Null for any other w (the caller multiplies the usual way).
  const kernels::PackedB<float>* transposed(const Tensor& w);

 private:
  std::weak_ptr<Storage> source_;
  uint64_t version_ = 0;
  int64_t offset_ = 0, out_ = 0, in_ = 0;
  kernels::PackedB<float> packed_;
};

}  // namespace glass
