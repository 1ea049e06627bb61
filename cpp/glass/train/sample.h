#pragma once
// Text from a model, one byte at a time: what `glassllm generate` prints, what
// the Train view shows every few steps and what the generation lesson steps
// through. The model sees at most its context, so a long text slides. Seeded:
// the same model, prompt, settings and seed give the same bytes natively and in
// wasm.
//
// One step: the model's logits for the byte after the text, divided by the
// temperature T, kept only for the k largest (top-k), softmax over those, then
// one draw u ~ uniform[0, 1) walked along the bytes in order (inverse transform).
//   T = 0      greedy: the byte with the largest logit, ties to the lowest byte;
//              nothing is drawn, so the seed does not matter.
//   top_k = 0  (or the vocabulary size, 256) keeps every byte. Ties at the k-th
//              largest logit keep the lower bytes first.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "glass/nn/model.h"
#include "glass/tensor/random.h"

namespace glass::train {

struct SampleOptions {
  double temperature = 1.0;  // 0 (greedy) or more, finite
  int64_t top_k = 0;         // 0 .. vocabulary size; 0 = all
};

// The distribution one step draws from, given the logits (the scores of every
// byte): softmax(logits / T) over the top_k largest, 0 elsewhere (T = 0: all of
// it on the greedy byte). Refuses a bad T or k.
std::vector<double> next_byte_distribution(std::span<const double> logits, const SampleOptions& options);

// The byte the greedy rule takes: the largest logit, the lowest byte on a tie.
int32_t greedy_byte(std::span<const double> logits);

// One step, everything the lesson shows: the model's logits for the byte after
// `ids` (the last `context` of them), the distribution it draws from, the draw
// u (NaN at T = 0: nothing drawn) and the byte chosen.
struct SampleStep {
  std::vector<double> logits;  // (V,) from the model's last position
  std::vector<double> probs;   // (V,) next_byte_distribution(logits)
  double u = 0;                // in [0, 1): where the draw landed on the cumulative probabilities
  int32_t byte = 0;
};
SampleStep sample_step(const nn::Model& model, std::span<const int32_t> ids, const SampleOptions& options,
                       Generator& gen);

// Appends `length` bytes to `prompt` (at least one byte) and returns only the
// new ones; on_byte, if given, sees each byte as it is chosen. Runs without
// recording a graph.
std::vector<int32_t> sample_bytes(const nn::Model& model, std::vector<int32_t> prompt, int64_t length,
                                  const SampleOptions& options, Generator& gen,
                                  const std::function<void(int32_t)>& on_byte = nullptr);

// The same with every byte kept (top_k 0): the Train view's samples.
std::vector<int32_t> sample_bytes(const nn::Model& model, std::vector<int32_t> prompt, int64_t length,
                                  double temperature, Generator& gen,
                                  const std::function<void(int32_t)>& on_byte = nullptr);

}  // namespace glass::train
