#pragma once
// Shapes, strides and numpy broadcasting. All sizes are int64_t so the same code
// is exact in wasm32 (32-bit size_t) and natively.
#include <cstdint>
#include <string>
#include <vector>

namespace glass {

using Shape = std::vector<int64_t>;
using Strides = std::vector<int64_t>;  // in elements, not bytes

// Plain products, for shapes that passed check_shape / checked_numel (every
// Tensor's shape did): their counts and strides cannot overflow. A shape from
// outside (a caller, a file) goes through checked_numel first (checked.h).
int64_t numel(const Shape& shape);
Strides contiguous_strides(const Shape& shape);
std::string to_string(const Shape& shape);  // "(2, 3)"; "()" for a scalar

// numpy broadcasting: align from the right; sizes must match or be 1.
// Throws glass::Error naming `op` and both shapes.
Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b);

// Maps a possibly negative axis into [0, ndim); throws naming `op`, the axis
// and the shape otherwise.
int normalize_axis(const char* op, int axis, const Shape& shape);

// "%g" of a scalar, for messages and graph details: 1e-06, not 0.000001.
std::string format_scalar(double value);

// Checks every size is >= 0 and the element count is within the cap
// (checked_numel in checked.h); names `op` and the shape otherwise.
void check_shape(const char* op, const Shape& shape);

}  // namespace glass
