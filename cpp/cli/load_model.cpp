#include "cli/load_model.h"

#include <cstdio>

#include "glass/io/model_weights.h"
#include "glass/io/safetensors.h"

namespace glass::cli {

std::unique_ptr<nn::Model> load_model(const std::string& path, DType dtype) {
  auto model = io::load_model(io::read_file(path), dtype);
  // loaded, but never silently: docs/model.md, "Weights files"
  const std::string warning = io::non_finite_warning(io::non_finite_parameters(*model));
  if (!warning.empty()) std::fprintf(stderr, "glassllm: warning: %s (%s)\n", warning.c_str(), path.c_str());
  return model;
}

}  // namespace glass::cli
