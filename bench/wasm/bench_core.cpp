// The same kernels as bench/native, timed with std::chrono in the wasm build
// (run under Node; Google Benchmark is not available for Emscripten here).
// Prints one line per case: best-of-N time and GFLOP/s or elements/s.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

#include "glass/glass.h"
#include "glass/nn/model.h"

namespace {

using namespace glass;

// Best time of `reps` runs after a warm-up, in seconds.
double best_seconds(const std::function<void()>& run, int reps) {
  run();
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

void report_flops(const char* name, double flops, const std::function<void()>& run) {
  const double s = best_seconds(run, 100);
  std::printf("%-44s %9.3f ms %8.1f GFLOP/s\n", name, s * 1e3, flops / s / 1e9);
}

void report_items(const char* name, double items, const std::function<void()>& run) {
  const double s = best_seconds(run, 200);
  std::printf("%-44s %9.3f ms %8.1f M items/s\n", name, s * 1e3, items / s / 1e6);
}

}  // namespace

int main() {
  Generator gen(1);
  std::printf("GlassLLM wasm core benchmark (best of N, float32 unless named)\n");
  for (int64_t m : {128, 512}) {
    for (DType dt : {DType::f32, DType::f64}) {
      const Tensor a = Tensor::randn({m, 128}, gen, dt), b = Tensor::randn({128, 384}, gen, dt);
      char name[64];
      std::snprintf(name, sizeof name, "matmul %lldx128 @ 128x384 %s", static_cast<long long>(m),
                    dt == DType::f32 ? "f32" : "f64");
      report_flops(name, 2.0 * m * 128 * 384, [&] { (void)matmul(a, b); });
    }
  }
  {
    const Tensor x = Tensor::randn({128, 128}, gen), w = Tensor::randn({384, 128}, gen);
    report_flops("matmul x @ W^T (128x128, W 384x128)", 2.0 * 128 * 128 * 384, [&] { (void)matmul(x, transpose(w)); });
    const Tensor q = Tensor::randn({4, 128, 32}, gen), k = Tensor::randn({4, 32, 128}, gen);
    report_flops("batched matmul 4x128x32 @ 4x32x128", 2.0 * 4 * 128 * 32 * 128, [&] { (void)matmul(q, k); });
  }
  {
    const Tensor a = Tensor::randn({128, 384}, gen), b = Tensor::randn({128, 384}, gen);
    report_items("add 128x384 + 128x384", 128.0 * 384, [&] { (void)add(a, b); });
    report_items("silu 128x384", 128.0 * 384, [&] { (void)silu(a); });
    const Tensor x = Tensor::randn({128, 128}, gen), g = Tensor::randn({128}, gen);
    report_items("mul 128x128 * (128,) broadcast", 128.0 * 128, [&] { (void)mul(x, g); });
    const Tensor r = Tensor::uniform({128, 1}, 1, 2, gen);
    report_items("div 128x128 / (128,1) broadcast", 128.0 * 128, [&] { (void)div(x, r); });
    const Tensor s = Tensor::randn({4, 128, 128}, gen);
    report_items("softmax 4x128x128 over the last axis", 4.0 * 128 * 128, [&] { (void)softmax(s, -1); });
  }
  {
    nn::RMSNorm norm(128);
    const Tensor x0 = Tensor::randn({128, 128}, gen);
    report_items("RMSNorm forward+backward 128x128", 128.0 * 128, [&] {
      Tensor x = x0.detach().set_requires_grad();
      sum(norm(x)).backward();
      norm.gamma().zero_grad();
    });
  }
  {
    // the default model on 128 bytes: what the inspector runs per prompt
    nn::Model model;
    std::vector<int32_t> ids(128);
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int32_t>((i * 37 + 11) % 256);
    const double s_fwd = best_seconds([&] {
      NoGradGuard no_grad;
      (void)model.forward(ids, 1, true).loss.item();
    }, 20);
    std::printf("%-44s %9.3f ms\n", "model forward 1x128 (with snapshots)", s_fwd * 1e3);
    const double s_both = best_seconds([&] {
      model.zero_grad();
      model.forward(ids, 1, true).loss.backward();
    }, 20);
    std::printf("%-44s %9.3f ms\n", "model forward + backward 1x128", s_both * 1e3);
  }
  return 0;
}
