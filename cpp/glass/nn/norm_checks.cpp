#include "glass/nn/norm_checks.h"

#include <cmath>
#include <string>

#include "glass/tensor/error.h"

namespace glass::nn {

void check_eps(const char* where, double eps) {
  if (!std::isfinite(eps) || eps < 0)
    throw Error(std::string(where) + ": eps must be finite and >= 0, got " + format_scalar(eps));
}

void check_width(const char* where, int64_t d) {
  if (d <= 0) throw Error(std::string(where) + ": width d must be positive, got " + std::to_string(d));
}

void check_norm_input(const char* where, const Tensor& x, int64_t d, DType dtype) {
  if (x.ndim() < 1 || x.shape().back() != d)
    throw Error(std::string(where) + ": input must be (..., " + std::to_string(d) + "), got shape " + to_string(x.shape()));
  if (x.dtype() != dtype)
    throw Error(std::string(where) + ": input is " + describe(x) + " but this norm is " + std::string(dtype_name(dtype)) +
                " (cast the input with .to(...))");
}

}  // namespace glass::nn
