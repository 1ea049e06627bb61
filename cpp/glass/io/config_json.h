#pragma once
// A model's Config as the small JSON object a weights file carries in its
// safetensors metadata (all metadata values are strings, so the object is
// stored as text under one key):
//
//   "__metadata__": { "glassllm.config": "{\"vocab\":256,\"context\":128,\"d\":128,...}", ... }
//
// Fields and their JSON types are listed in docs/model.md ("Weights files").
#include <string>
#include <string_view>

#include "glass/nn/config.h"

namespace glass::io {

inline constexpr const char* kConfigKey = "glassllm.config";

// Every field, in a fixed order; numbers as the shortest text that reads back
// to the same double.
std::string config_to_json(const nn::Config& c);

// The object config_to_json writes. Refuses, naming the field: an unknown
// field, a value of the wrong JSON type (sizes must be whole numbers), an
// unknown word (norm "mid"), and anything validate() refuses. A field that is
// absent takes its default, so files written before a field existed still read.
nn::Config config_from_json(std::string_view text);

// Which fields two configs must share for one's weights to be loaded into a
// model built from the other: the architecture (sizes, norms, residuals, RoPE),
// or every field (a training checkpoint: eps, init scale and dtype too).
enum class ConfigFields { architecture, all };
// "" if a and b agree on those fields, else the first that differs, e.g.
// "norm: post vs pre".
std::string config_difference(const nn::Config& a, const nn::Config& b, ConfigFields fields);

}  // namespace glass::io
