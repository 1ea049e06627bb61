#pragma once
// Moving a Model's parameters to and from safetensors. Keys and shapes are
// the ones Model::visit names (docs/model.md); nothing here lists them again.
// Every file records the model's Config in its metadata (config_json.h).
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "glass/io/safetensors.h"
#include "glass/nn/model.h"

namespace glass::io {

// Every parameter, in the model's dtype, under its docs/model.md name, and the
// model's config under "glassllm.config" in the metadata.
std::vector<uint8_t> save_weights(nn::Model& model, const std::map<std::string, std::string>& metadata = {});

// Copies the file's values into every parameter of `model` (cast to the
// model's dtype), in place: handles to the parameters (an optimizer's, the
// page's) stay valid. Refuses a file whose config's architecture differs from
// the model's (naming the field; a file without a config is the default
// architecture: pre-norm, RMSNorm, residuals), a missing key, an extra key or
// a wrong shape, naming it; on any error the model is left unchanged.
void load_weights(nn::Model& model, std::span<const uint8_t> bytes);
void load_weights(nn::Model& model, const std::vector<std::pair<std::string, Tensor>>& tensors);
// The checks load_weights makes on the tensors, without loading: throws on the first problem.
void check_weights(nn::Model& model, const std::vector<std::pair<std::string, Tensor>>& tensors);

// The configuration of a weights file, checked against its tensors before any
// model is built. With "glassllm.config" in the metadata: that config, refused
// if a field is out of range or disagrees with the tensors (sizes, block
// count, dtype), naming the field and the tensor. Without it (files written
// before configs were recorded): the default architecture with vocab, d,
// hidden and blocks from the shapes, and heads, context and rope_base from
// the older metadata keys of those names if present.
nn::Config config_of(const SafetensorsFile& file);
nn::Config config_from_weights(std::span<const uint8_t> bytes);

// A model built from the file's own config with the file's values, in `dtype`.
std::unique_ptr<nn::Model> load_model(std::span<const uint8_t> bytes, DType dtype);

// Non-finite parameters (NaN or +-infinity). A file holding them is loaded, not
// refused: it is well formed, and seeing where a diverged run's NaNs sit and
// how they spread is what the inspector is for; but every loader reports them
// by name (the CLI on stderr, the page beside the model's info), so no number
// computed from them passes for a healthy model's. docs/model.md, "Weights files".
struct NonFinite {
  std::string name;    // docs/model.md's name of the parameter
  int64_t count;       // how many of its values are NaN or infinite
  int64_t numel;       // of how many
};
// In Model::visit order; empty when every value is finite.
std::vector<NonFinite> non_finite_parameters(nn::Model& model);
// One line naming them, e.g. "weights: 2 parameters hold NaN or infinite values:
// tok_emb.weight (2 of 32768), head.weight (all 32768); every output computed
// from them will be NaN or infinite", or "" if there are none. At most 8 names.
std::string non_finite_warning(const std::vector<NonFinite>& found);

}  // namespace glass::io
