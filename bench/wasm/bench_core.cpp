// The same kernels as bench/native, timed with std::chrono in the wasm build
// (run under Node; Google Benchmark is not available for Emscripten here).
// Prints one line per case: best-of-N time and GFLOP/s or elements/s.
//   glass_wasm_bench.js [--threads N] [--model-only] [--jobs]
// --threads: the wasm-threads build (-pthread) computes on N threads, V8 without
// a browser around it: scripts/bench.sh runs the model rows on 1 thread and on
// every core, the core's own thread scaling beside the page's (bench/browser).
// --jobs: then where forward + backward spends its time: the pool's jobs by
// their chunks (glass::count_jobs) and by kernel, and the serial rest. Run on 1 and on N
// threads, it says which kernels gain from the threads and how much of a run
// no thread count shortens.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "glass/glass.h"
#include "glass/nn/model.h"
#include "glass/tensor/kernel_name.h"
#include "glass/tensor/thread_pool.h"

namespace {

using namespace glass;

// Milliseconds of each of `reps` runs after `warmup` untimed ones, sorted.
std::vector<double> sorted_ms(const std::function<void()>& run, int reps, int warmup = 1) {
  for (int i = 0; i < warmup; ++i) run();
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms;
}

// Best time of `reps` runs after a warm-up, in seconds.
double best_seconds(const std::function<void()>& run, int reps) { return sorted_ms(run, reps).front() / 1e3; }

void report_flops(const char* name, double flops, const std::function<void()>& run) {
  const double s = best_seconds(run, 100);
  std::printf("%-44s %9.3f ms %8.1f GFLOP/s\n", name, s * 1e3, flops / s / 1e9);
}

void report_items(const char* name, double items, const std::function<void()>& run) {
  const double s = best_seconds(run, 200);
  std::printf("%-44s %9.3f ms %8.1f M items/s\n", name, s * 1e3, items / s / 1e6);
}

// A whole model run: the best and the median of `reps` after kWarmUpRuns
// untimed ones (thread speed-ups are read from medians, as in the other thread
// benchmarks). V8 first runs wasm from its baseline compiler and recompiles each
// function in the background once it has run often, for tens of runs of the
// model; those compiles also take the second core from a 2-thread run. After two
// warm-up runs, Node 20 on a 2-core AMD EPYC (Zen 5), threaded build, 2 threads:
// forward best 4.7 ms, median 12.7 (its first ~30 runs 9-26 ms); after 60, best
// 4.0, median 4.2, and every one of the 40 runs 4.0-7.3 (on 1 thread, warm:
// 6.5-7.2 ms). bench/browser/threads.mjs warms up the same way.
constexpr int kWarmUpRuns = 60;
void report_run(const char* name, const std::function<void()>& run, int reps) {
  const std::vector<double> ms = sorted_ms(run, reps, kWarmUpRuns);
  std::printf("%-44s %9.3f ms (median %.3f ms of %d)\n", name, ms.front(), ms[ms.size() / 2], reps);
}

void kernel_rows(Generator& gen);

// `run` `reps` times with the pool's jobs counted: per run, each size of job's
// count and time, then the time outside the pool.
void report_jobs(const char* name, const std::function<void()>& run, int reps) {
  run();
  count_jobs(true);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) run();
  const double total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps;
  count_jobs(false);
  std::printf("%s, where a run's time goes (mean of %d runs, %d thread%s):\n", name, reps, threads(),
              threads() == 1 ? "" : "s");
  double in_jobs = 0;
  for (const JobCount& c : counted_jobs()) {
    const double ms = c.seconds * 1e3 / reps;
    in_jobs += ms;
    const double all = static_cast<double>(c.chunks * c.jobs);
    std::printf("  jobs of %3lld chunks: %6.1f per run, %8.3f ms per run (%.2f us each); the caller ran %.0f%% of "
                "the chunks, %.0f%% from another thread's range\n",
                static_cast<long long>(c.chunks), static_cast<double>(c.jobs) / reps, ms, ms * 1e3 * reps / c.jobs,
                100 * c.caller_chunks / all, 100 * c.caller_took / all);
  }
  std::printf("  in the pool's jobs %.3f ms, outside them (serial) %.3f ms, of %.3f ms per run\n", in_jobs,
              total_ms - in_jobs, total_ms);
  // the same jobs by kernel, most time first, each with the serial time just
  // before its jobs: when the host puts the two cores far apart, these say
  // which kernels pay for data the other core wrote
  // (one op may have several: a path for each layout, each its own type of
  // body; they are added up under the op's name)
  std::vector<std::pair<std::string, JobCount>> named;
  for (const JobCount& c : counted_kernels()) {
    const std::string name = kernel_name(c.kernel);
    auto same = std::find_if(named.begin(), named.end(), [&](const auto& n) { return n.first == name; });
    if (same == named.end())
      named.emplace_back(name, c);
    else
      same->second.add(c);
  }
  std::stable_sort(named.begin(), named.end(), [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
  std::printf("  by kernel, per run: jobs (the most chunks of one), time in them, serial time just before them:\n");
  for (const auto& [name, c] : named)
    std::printf("    %-50s %6.1f (%3lld) %8.3f ms %8.3f ms\n", name.c_str(), static_cast<double>(c.jobs) / reps,
                static_cast<long long>(c.chunks), c.seconds * 1e3 / reps, c.serial_before * 1e3 / reps);
  if (max_threads() == 1)
    std::printf("  (a build without threads: its matrix products skip the pool, so they count as outside it)\n");
}

}  // namespace

int main(int argc, char** argv) {
  bool model_only = false, jobs = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--model-only") == 0) {
      model_only = true;
    } else if (std::strcmp(argv[i], "--jobs") == 0) {
      jobs = true;
    } else if (std::strcmp(argv[i], "--threads") == 0) {
      // the whole argument a number, in range ("2x", "", or no value at all is refused)
      const char* text = i + 1 < argc ? argv[++i] : "";
      char* end = nullptr;
      const long n = std::strtol(text, &end, 10);
      if (*text == '\0' || *end != '\0' || n < 1 || n > max_threads()) {
        std::fprintf(stderr, "glass_wasm_bench: --threads must be a whole number from 1 to %d in this build, got '%s'\n",
                     max_threads(), text);
        return 2;
      }
      set_threads(static_cast<int>(n));
    } else {
      std::fprintf(stderr, "glass_wasm_bench: unknown argument '%s' (usage: [--threads N] [--model-only] [--jobs])\n", argv[i]);
      return 2;
    }
  }
  Generator gen(1);
  std::printf("GlassLLM wasm core benchmark (best of N, float32 unless named), %d thread%s\n", threads(),
              threads() == 1 ? "" : "s");
  if (!model_only) kernel_rows(gen);
  {
    // the default model on 128 bytes: what the inspector runs per prompt
    nn::Model model;
    std::vector<int32_t> ids(128);
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int32_t>((i * 37 + 11) % 256);
    report_run("model forward 1x128 (with snapshots)", [&] {
      NoGradGuard no_grad;
      (void)model.forward(ids, 1, true).loss.item();
    }, 40);
    const auto forward_backward = [&] {
      model.zero_grad();
      model.forward(ids, 1, true).loss.backward();
    };
    report_run("model forward + backward 1x128", forward_backward, 40);
    if (jobs) report_jobs("model forward + backward 1x128", forward_backward, 20);
  }
  return 0;
}

namespace {

void kernel_rows(Generator& gen) {
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
}

}  // namespace
