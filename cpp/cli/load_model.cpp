#include "cli/load_model.h"

#include "glass/io/model_weights.h"
#include "glass/io/safetensors.h"

namespace glass::cli {

std::unique_ptr<nn::Model> load_model(const std::string& path, DType dtype) {
  const std::vector<uint8_t> bytes = io::read_file(path);
  nn::Config cfg = io::config_from_weights(bytes);
  cfg.dtype = dtype;
  auto model = std::make_unique<nn::Model>(cfg);
  io::load_weights(*model, bytes);
  return model;
}

}  // namespace glass::cli
