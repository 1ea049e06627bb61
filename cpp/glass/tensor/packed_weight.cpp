#include "glass/tensor/packed_weight.h"

namespace glass {

const kernels::PackedB<float>* PackedWeight::transposed(const Tensor& w) {
  if (!w.defined() || w.dtype() != DType::f32 || w.ndim() != 2 || !w.is_contiguous()) return nullptr;
  const std::shared_ptr<Storage>& storage = w.impl()->storage;
  const int64_t out = w.shape()[0], in = w.shape()[1];
  if (source_.lock() == storage && version_ == storage->version() && offset_ == w.offset() && out_ == out && in_ == in)
    return &packed_;
  // B = W^T (in, out): B(p, j) = W(j, p) = w[j * in + p]
  kernels::pack_weight<float>(in, out, w.data<float>(), 1, in, packed_);
  source_ = storage;
  version_ = storage->version();
  offset_ = w.offset();
  out_ = out;
  in_ = in;
  return &packed_;
}

}  // namespace glass
