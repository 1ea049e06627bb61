#pragma once
// The one walk over parameters: every module has visit(prefix, fn) calling
// fn(full_name, tensor) for each parameter it owns, in a fixed order. The
// names (docs/model.md's safetensors keys) come from this walk alone, for
// saving, loading, the inspector and the optimizer.
#include <functional>
#include <string>

#include "glass/tensor/tensor.h"

namespace glass::nn {

using ParamVisitor = std::function<void(const std::string& name, Tensor& param)>;

}  // namespace glass::nn
