#include "glass/tensor/shape.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"

namespace glass {

int64_t numel(const Shape& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

Strides contiguous_strides(const Shape& shape) {
  Strides st(shape.size());
  int64_t acc = 1;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    st[i] = acc;
    acc *= shape[i];
  }
  return st;
}

std::string to_string(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b) {
  const std::size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (std::size_t i = 0; i < n; ++i) {
    // align from the right
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw Error(std::string(op) + ": shapes " + to_string(a) + " and " + to_string(b) +
                  " cannot broadcast: axis " + std::to_string(static_cast<int>(i) - static_cast<int>(n)) + " is " +
                  std::to_string(da) + " vs " + std::to_string(db) + " (sizes must match or one must be 1)");
    out[i] = da == 1 ? db : da;
  }
  // the result can be larger than both inputs
  if (const std::string problem = size_problem(out); !problem.empty())
    throw Error(std::string(op) + ": shapes " + to_string(a) + " and " + to_string(b) + " broadcast to " +
                to_string(out) + ", which " + problem);
  return out;
}

int normalize_axis(const char* op, int axis, const Shape& shape) {
  const int ndim = static_cast<int>(shape.size());
  if (axis < -ndim || axis >= ndim)
    throw Error(std::string(op) + ": axis " + std::to_string(axis) + " is out of range for shape " + to_string(shape) +
                " with " + std::to_string(ndim) + " dimension" + (ndim == 1 ? "" : "s") +
                (ndim == 0 ? "" : " (valid: " + std::to_string(-ndim) + " to " + std::to_string(ndim - 1) + ")"));
  return axis < 0 ? axis + ndim : axis;
}

std::string format_scalar(double value) {
  // the words a learner typed (JavaScript's spelling), not printf's "nan"/"inf"
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

void check_shape(const char* op, const Shape& shape) { checked_numel(op, shape); }

}  // namespace glass
