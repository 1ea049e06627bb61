#pragma once
// The page's one loaded model and its last run, shared by the model bindings
// (model_bindings.cpp) and the interpretability bindings (interp_bindings.cpp).
#include <memory>
#include <vector>

#include "glass/io/model_weights.h"
#include "glass/nn/model.h"
#include "glass/tensor/error.h"

namespace glass::wasm {

struct ModelSession {
  std::unique_ptr<nn::Model> model;
  nn::Model::Output last;  // the last run: snapshots (and their grads after backward), and its edits
  std::vector<int32_t> last_ids;
  std::vector<io::NonFinite> non_finite;  // of the loaded weights: loaded, but reported (io/model_weights.h)
};

inline nn::Model& model_of(ModelSession& s) {
  if (!s.model) throw Error("model: no weights loaded yet (call loadWeights first)");
  return *s.model;
}

}  // namespace glass::wasm
