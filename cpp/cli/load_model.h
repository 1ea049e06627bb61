#pragma once
// Reading a weights file into a Model whose configuration comes from the
// file itself (shapes and metadata).
#include <memory>
#include <string>

#include "glass/nn/model.h"

namespace glass::cli {

std::unique_ptr<nn::Model> load_model(const std::string& path, DType dtype);

}  // namespace glass::cli
