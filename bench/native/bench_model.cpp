// Google Benchmark for the default model (float32, one thread): inference
// forward on 1 x 128 bytes, and one training step on 16 x 128 (forward, mean
// next-byte cross-entropy, backward, AdamW). `npm run bench:native` times the
// same step against PyTorch.
#include <benchmark/benchmark.h>

#include "glass/glass.h"
#include "glass/nn/model.h"
#include "glass/train/adamw.h"

namespace {

using namespace glass;

std::vector<int32_t> bytes(int64_t n, uint64_t seed) {
  Generator gen(seed);
  std::vector<int32_t> ids(static_cast<std::size_t>(n));
  for (auto& b : ids) b = static_cast<int32_t>(gen.next_u64() % 256);
  return ids;
}

void BM_ModelForward1x128(benchmark::State& state) {
  nn::Model model;
  const auto ids = bytes(128, 1);
  NoGradGuard no_grad;
  for (auto _ : state) benchmark::DoNotOptimize(model.forward(ids, 1).loss.item());
  state.SetItemsProcessed(state.iterations() * 128);
}
BENCHMARK(BM_ModelForward1x128)->Unit(benchmark::kMillisecond);

void BM_TrainStep16x128(benchmark::State& state) {
  nn::Model model;
  train::AdamW adamw(model.named_parameters());
  const auto ids = bytes(16 * 128, 2);
  for (auto _ : state) {
    model.zero_grad();
    const Tensor loss = model.forward(ids, 16).loss;
    loss.backward();
    adamw.step(1e-3);
    benchmark::DoNotOptimize(loss.item());
  }
  state.SetItemsProcessed(state.iterations() * 16 * 128);
}
BENCHMARK(BM_TrainStep16x128)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
