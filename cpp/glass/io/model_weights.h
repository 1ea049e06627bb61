#pragma once
// Moving a Model's parameters to and from safetensors. Keys and shapes are
// the ones Model::visit names (docs/model.md); nothing here lists them again.
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "glass/nn/model.h"

namespace glass::io {

// Every parameter, in the model's dtype, under its docs/model.md name.
std::vector<uint8_t> save_weights(nn::Model& model, const std::map<std::string, std::string>& metadata = {});

// Copies the file's values into every parameter of `model` (cast to the
// model's dtype), in place: handles to the parameters (an optimizer's, the
// page's) stay valid. Refuses a missing key, an extra key or a wrong shape,
// naming it; on any error the model is left unchanged.
void load_weights(nn::Model& model, std::span<const uint8_t> bytes);
void load_weights(nn::Model& model, const std::vector<std::pair<std::string, Tensor>>& tensors);
// The checks load_weights makes, without loading: throws on the first problem.
void check_weights(nn::Model& model, const std::vector<std::pair<std::string, Tensor>>& tensors);

// The configuration a weights file implies (d, blocks, vocab, hidden from the
// shapes; heads and context from metadata if present, else the defaults).
nn::Config config_from_weights(std::span<const uint8_t> bytes);

}  // namespace glass::io
