// Google Benchmark for the core's hot kernels, float32 unless named.
// Shapes are the default model's: d = 128, SwiGLU hidden 384, 128 positions.
// One thread: these are per-core figures, comparable with the wasm build's
// (npm run bench:native times the model on 1 and on N threads).
#include <benchmark/benchmark.h>

#include "glass/glass.h"
#include "glass/tensor/fused/fused.h"
#include "glass/tensor/thread_pool.h"

namespace {

using namespace glass;

const bool kOneThread = (set_threads(1), true);

// Shown as e.g. "FLOP/s=52.9G/s".
void set_flops(benchmark::State& state, double flops_per_iter) {
  state.counters["FLOP/s"] = benchmark::Counter(flops_per_iter, benchmark::Counter::kIsIterationInvariantRate);
}

// (m, 128) @ (128, 384): the SwiGLU up-projection on m positions
void BM_Matmul(benchmark::State& state) {
  const int64_t m = state.range(0), k = 128, n = 384;
  const DType dt = state.range(1) ? DType::f64 : DType::f32;
  Generator gen(1);
  const Tensor a = Tensor::randn({m, k}, gen, dt), b = Tensor::randn({k, n}, gen, dt);
  for (auto _ : state) benchmark::DoNotOptimize(matmul(a, b));
  set_flops(state, 2.0 * m * k * n);
}
BENCHMARK(BM_Matmul)->ArgsProduct({{128, 512}, {0, 1}})->ArgNames({"m", "f64"});

// y = x W^T with W stored (out, in) as in every Linear: a transposed view
void BM_MatmulTransposedWeight(benchmark::State& state) {
  Generator gen(2);
  const Tensor x = Tensor::randn({128, 128}, gen), w = Tensor::randn({384, 128}, gen);
  for (auto _ : state) benchmark::DoNotOptimize(matmul(x, transpose(w)));
  set_flops(state, 2.0 * 128 * 128 * 384);
}
BENCHMARK(BM_MatmulTransposedWeight);

// a weight's gradient dW = dY^T X over a 16 x 128 batch: dY (2048, out), X (2048, 128),
// A read transposed (packed strip by strip), the sum over every token
void BM_WeightGradient(benchmark::State& state) {
  const int64_t tokens = 2048, out = state.range(0), in = 128;
  Generator gen(4);
  const Tensor dy = Tensor::randn({tokens, out}, gen), x = Tensor::randn({tokens, in}, gen);
  for (auto _ : state) benchmark::DoNotOptimize(matmul(transpose(dy), x));
  set_flops(state, 2.0 * tokens * out * in);
}
BENCHMARK(BM_WeightGradient)->Arg(128)->Arg(384)->ArgNames({"out"});

// attention scores: (4 heads, 128, 32) @ (4, 32, 128)
void BM_BatchedMatmul(benchmark::State& state) {
  Generator gen(3);
  const Tensor q = Tensor::randn({4, 128, 32}, gen), k = Tensor::randn({4, 32, 128}, gen);
  for (auto _ : state) benchmark::DoNotOptimize(matmul(q, k));
  set_flops(state, 2.0 * 4 * 128 * 32 * 128);
}
BENCHMARK(BM_BatchedMatmul);

// causal attention over a 16 x 128 batch, 4 heads of 32: scores, softmax and mix,
// forward and backward (the products compute only the causal half: 6 products of
// about n * n / 2 * 32 multiply-adds for each of the 64 heads)
void BM_CausalAttention(benchmark::State& state) {
  Generator gen(5);
  auto leaf = [&] { return Tensor::randn({16, 4, 128, 32}, gen).set_requires_grad(); };
  const Tensor q = leaf(), k = leaf(), v = leaf();
  for (auto _ : state) {
    const Tensor out = causal_mix(causal_softmax(causal_scores(q, k)), v);  // (16, 4, 128, 32)
    sum(out).backward();
  }
  set_flops(state, 6 * 2.0 * 64 * (128.0 * 129 / 2) * 32);
}
BENCHMARK(BM_CausalAttention)->Unit(benchmark::kMillisecond);

// the same as one op (causal_attention: each head through every step while its matrices are in the cache)
void BM_CausalAttentionFused(benchmark::State& state) {
  Generator gen(5);
  auto leaf = [&] { return Tensor::randn({16, 4, 128, 32}, gen).set_requires_grad(); };
  const Tensor q = leaf(), k = leaf(), v = leaf();
  for (auto _ : state) {
    const Tensor out = causal_attention(q, k, v);  // (16, 4, 128, 32)
    sum(out).backward();
  }
  set_flops(state, 6 * 2.0 * 64 * (128.0 * 129 / 2) * 32);
}
BENCHMARK(BM_CausalAttentionFused)->Unit(benchmark::kMillisecond);

// causal attention's two forward products alone, 16 x 4 heads of (128, 32), no graph:
// where BM_CausalAttention's time goes, product by product
void BM_CausalScores(benchmark::State& state) {
  Generator gen(6);
  const Tensor q = Tensor::randn({16, 4, 128, 32}, gen), k = Tensor::randn({16, 4, 128, 32}, gen);
  for (auto _ : state) benchmark::DoNotOptimize(causal_scores(q, k));  // (16, 4, 128, 128)
  set_flops(state, 2.0 * 64 * (128.0 * 129 / 2) * 32);
}
BENCHMARK(BM_CausalScores);

void BM_CausalMix(benchmark::State& state) {
  Generator gen(7);
  const Tensor w = causal_softmax(Tensor::randn({16, 4, 128, 128}, gen)), v = Tensor::randn({16, 4, 128, 32}, gen);
  for (auto _ : state) benchmark::DoNotOptimize(causal_mix(w, v));  // (16, 4, 128, 32)
  set_flops(state, 2.0 * 64 * (128.0 * 129 / 2) * 32);
}
BENCHMARK(BM_CausalMix);

void BM_AddSameShape(benchmark::State& state) {
  Generator gen(4);
  const Tensor a = Tensor::randn({128, 384}, gen), b = Tensor::randn({128, 384}, gen);
  for (auto _ : state) benchmark::DoNotOptimize(add(a, b));
  state.SetItemsProcessed(state.iterations() * a.numel());
}
BENCHMARK(BM_AddSameShape);

// (128, 128) * (128,): gamma broadcast along rows, as in RMSNorm
void BM_MulBroadcastRow(benchmark::State& state) {
  Generator gen(5);
  const Tensor a = Tensor::randn({128, 128}, gen), g = Tensor::randn({128}, gen);
  for (auto _ : state) benchmark::DoNotOptimize(mul(a, g));
  state.SetItemsProcessed(state.iterations() * a.numel());
}
BENCHMARK(BM_MulBroadcastRow);

// (128, 128) / (128, 1): dividing each row by its r(x)
void BM_DivBroadcastColumn(benchmark::State& state) {
  Generator gen(6);
  const Tensor a = Tensor::randn({128, 128}, gen), r = Tensor::uniform({128, 1}, 1, 2, gen);
  for (auto _ : state) benchmark::DoNotOptimize(div(a, r));
  state.SetItemsProcessed(state.iterations() * a.numel());
}
BENCHMARK(BM_DivBroadcastColumn);

void BM_Silu(benchmark::State& state) {
  Generator gen(7);
  const Tensor a = Tensor::randn({128, 384}, gen);
  for (auto _ : state) benchmark::DoNotOptimize(silu(a));
  state.SetItemsProcessed(state.iterations() * a.numel());
}
BENCHMARK(BM_Silu);

void BM_SoftmaxRows(benchmark::State& state) {
  Generator gen(8);
  const Tensor a = Tensor::randn({4, 128, 128}, gen);
  for (auto _ : state) benchmark::DoNotOptimize(softmax(a, -1));
  state.SetItemsProcessed(state.iterations() * a.numel());
}
BENCHMARK(BM_SoftmaxRows);

// RMSNorm forward + backward on (128, 128): the lab's live recompute
void BM_RMSNormForwardBackward(benchmark::State& state) {
  Generator gen(9);
  nn::RMSNorm norm(128);
  const Tensor x0 = Tensor::randn({128, 128}, gen);
  for (auto _ : state) {
    Tensor x = x0.detach().set_requires_grad();
    sum(norm(x)).backward();
    benchmark::DoNotOptimize(x.grad());
    norm.gamma().zero_grad();
  }
}
BENCHMARK(BM_RMSNormForwardBackward);

}  // namespace

BENCHMARK_MAIN();
