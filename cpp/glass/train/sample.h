#pragma once
// Text from a model, one byte at a time: what `glassllm generate` prints and
// what the Train view shows every few steps. The model sees at most its
// context, so a long text slides. Seeded: the same model, prompt, temperature
// and seed give the same bytes natively and in wasm.
#include <cstdint>
#include <functional>
#include <vector>

#include "glass/nn/model.h"
#include "glass/tensor/random.h"

namespace glass::train {

// Appends `length` bytes to `prompt` (at least one byte) and returns only the
// new ones. Temperature 0 takes the most likely byte; otherwise softmax(logits
// / temperature) is sampled with gen. on_byte, if given, sees each byte as it
// is chosen. Runs without recording a graph.
std::vector<int32_t> sample_bytes(const nn::Model& model, std::vector<int32_t> prompt, int64_t length,
                                  double temperature, Generator& gen,
                                  const std::function<void(int32_t)>& on_byte = nullptr);

}  // namespace glass::train
