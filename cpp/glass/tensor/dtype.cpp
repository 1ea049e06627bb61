#include "glass/tensor/dtype.h"

#include "glass/tensor/error.h"

namespace glass {

DType parse_dtype(std::string_view name) {
  if (name == "float32" || name == "f32") return DType::f32;
  if (name == "float64" || name == "f64") return DType::f64;
  throw Error("unknown dtype '" + std::string(name) + "': expected float32 (f32) or float64 (f64)");
}

}  // namespace glass
