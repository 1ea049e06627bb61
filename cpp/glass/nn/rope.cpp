#include "glass/nn/rope.h"

#include <cmath>

#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

Rope::Rope(int64_t head_dim, int64_t context, double base, DType dtype) : half_(head_dim / 2) {
  if (head_dim <= 0 || head_dim % 2 != 0 || context < 0)
    throw Error("rope: needs an even head width > 0 and a context >= 0, got head width " + std::to_string(head_dim) +
                " and context " + std::to_string(context));
  // (context, head_dim) tables: empty_like_shape checks the size before anything
  // is allocated; written in place (no double-precision copies of large tables)
  cos_ = empty_like_shape({context, head_dim}, dtype, "rope");
  sin_ = empty_like_shape({context, head_dim}, dtype, "rope");
  dispatch(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* pc = cos_.mutable_data<T>();
    T* ps = sin_.mutable_data<T>();
    for (int64_t pos = 0; pos < context; ++pos)
      for (int64_t j = 0; j < head_dim; ++j) {
        // angles in double, rounded once to the model's dtype
        const int64_t i = j % half_;
        const double angle = static_cast<double>(pos) * std::pow(base, -2.0 * static_cast<double>(i) / head_dim);
        pc[pos * head_dim + j] = static_cast<T>(std::cos(angle));
        ps[pos * head_dim + j] = static_cast<T>(std::sin(angle));
      }
  });
}

Tensor Rope::operator()(const Tensor& x, int64_t offset) const {
  const int64_t n = x.ndim() < 2 ? 0 : x.size(-2), k = x.ndim() < 1 ? 0 : x.size(-1);
  if (x.ndim() < 2 || k != 2 * half_ || offset < 0 || offset + n > cos_.size(0))
    throw Error("rope: input " + to_string(x.shape()) + " at position " + std::to_string(offset) + " needs head width " +
                std::to_string(2 * half_) + " and positions 0 to " + std::to_string(cos_.size(0) - 1));
  const Tensor c = slice(cos_, 0, offset, offset + n);  // (n, k), broadcast over the leading axes
  const Tensor s = slice(sin_, 0, offset, offset + n);  // (n, k)
  return glass::rope(x, c, s);                           // x * c + rotate_half(x) * s, (..., n, k)
}

}  // namespace glass::nn
