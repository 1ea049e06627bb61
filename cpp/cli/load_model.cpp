#include "cli/load_model.h"

#include "glass/io/model_weights.h"
#include "glass/io/safetensors.h"

namespace glass::cli {

std::unique_ptr<nn::Model> load_model(const std::string& path, DType dtype) {
  return io::load_model(io::read_file(path), dtype);
}

}  // namespace glass::cli
