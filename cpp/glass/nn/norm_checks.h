#pragma once
// The refusals every norm shares (RMSNorm, LayerNorm, the model's set_eps), so
// that each names the norm and the problem in the same words.
#include <cstdint>

#include "glass/tensor/tensor.h"

namespace glass::nn {

// eps must be finite and >= 0 (0 is allowed: the lab shows what it does to the zero vector).
void check_eps(const char* where, double eps);
// The width d of a norm must be positive.
void check_width(const char* where, int64_t d);
// x must be (..., d) and of the norm's dtype.
void check_norm_input(const char* where, const Tensor& x, int64_t d, DType dtype);

}  // namespace glass::nn
