// glassllm bench [--runs N] [--warmup N] [--batch B] [--ctx N] [--dtype f32|f64] [--seed S] [--weights W]
//                [model flags: --blocks --d --heads --norm --norm-kind --no-residual --eps --init-scale]
//                [--threads N]
// Wall-clock timings (on N threads, default the machine's cores) of the default model (or the model the
// flags describe, or W), median over N runs after the warm-up runs:
//   forward 1 x ctx        inference forward (no graph recorded)
//   fwd+bwd B x ctx        forward with graph + mean next-byte cross-entropy + backward
//   train step B x ctx     zero_grad + fwd+bwd + AdamW update (lr 1e-3)
// One line per row, "bench <name> median_ms <x> min_ms <y> runs <n>", so
// scripts/bench_native.sh can read it next to PyTorch's figures; before them
// one "machine:" line says what produced them: the CPU, the vector unit the
// build's matrix product uses, its register tile, and the threads.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/host_probe.h"
#include "cli/load_model.h"
#include "cli/model_flags.h"
#include "cli/threads_flag.h"
#include "glass/tensor/autograd.h"
#include "glass/tensor/gemm.h"
#include "glass/tensor/thread_pool.h"
#include "glass/train/adamw.h"

namespace glass::cli {

namespace {

void time_it(const char* name, int64_t warmup, int64_t runs, const std::function<void()>& fn) {
  using clock = std::chrono::steady_clock;
  for (int64_t i = 0; i < warmup; ++i) fn();
  std::vector<double> ms;
  for (int64_t i = 0; i < runs; ++i) {
    const auto t0 = clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  const double median = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  std::printf("bench %-22s median_ms %10.3f min_ms %10.3f runs %lld\n", name, median, ms.front(),
              static_cast<long long>(runs));
  std::fflush(stdout);
}

// "AMD EPYC" from /proc/cpuinfo's first "model name" line (Linux), else "unknown CPU".
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "unknown CPU" : line.substr(start);
  }
  return "unknown CPU";
}

}  // namespace

int run_bench(const Argv& argv) {
  const Args args(argv, with_threads_flag(with_model_flags({"runs", "warmup", "batch", "seed", "weights"})), kModelSwitches);
  const int threads = apply_threads_flag(args);
  const int64_t runs = args.integer("runs", 10, 1, 100000);
  const int64_t warmup = args.integer("warmup", 2, 0, 100000);
  const int64_t batch = args.integer("batch", 16, 1, 4096);
  const DType dtype = args.dtype("dtype", DType::f32);
  const auto seed = static_cast<uint64_t>(args.integer("seed", 0, 0, INT64_MAX));

  std::unique_ptr<nn::Model> model;
  if (auto w = args.text_or("weights")) {
    refuse_model_flags(args, "--weights (the file's own config is used)", {"ctx", "dtype"});
    model = load_model(*w, dtype);
  } else {
    model = std::make_unique<nn::Model>(config_from_flags(args), seed);
  }
  const int64_t ctx = args.integer("ctx", model->config().context, 2, model->config().context);

  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int32_t> byte(0, 255);
  std::vector<int32_t> one(static_cast<std::size_t>(ctx)), many(static_cast<std::size_t>(batch * ctx));
  for (auto& b : one) b = byte(rng);
  for (auto& b : many) b = byte(rng);

  const kernels::GemmTile tile = kernels::gemm_tile();
  std::printf("machine: %s, %d cores; matrix product built for %s, register tile %d x %d (float32); %d thread%s\n",
              cpu_model().c_str(), hardware_threads(), tile.isa, tile.rows, tile.cols_f32, threads,
              threads == 1 ? "" : "s");
  std::printf("glassllm bench: %s, %s, %d thread%s, forward 1 x %lld, training step %lld x %lld, "
              "%lld warm-up + %lld timed runs\n",
              describe_config(model->config()).c_str(), std::string(dtype_name(dtype)).c_str(), threads,
              threads == 1 ? "" : "s", static_cast<long long>(ctx), static_cast<long long>(batch),
              static_cast<long long>(ctx), static_cast<long long>(warmup), static_cast<long long>(runs));

  const std::string n1 = std::to_string(ctx), nb = std::to_string(batch) + "x" + std::to_string(ctx);
  volatile double sink = 0;  // keeps the results observable
  time_it(("forward_1x" + n1).c_str(), warmup, runs, [&] {
    NoGradGuard no_grad;
    sink = sink + model->forward(one, 1).loss.item();
  });
  // The page's run (the inspector, glass.model.bench): every snapshot kept with its gradient.
  time_it(("inspect_1x" + n1).c_str(), warmup, runs, [&] {
    model->zero_grad();
    const Tensor loss = model->forward(one, 1, /*record_snapshots=*/true).loss;
    loss.backward();
    sink = sink + loss.item();
  });
  time_it(("fwd_bwd_" + nb).c_str(), warmup, runs, [&] {
    model->zero_grad();
    const Tensor loss = model->forward(many, batch).loss;
    loss.backward();
    sink = sink + loss.item();
  });
  train::AdamW adamw(model->named_parameters());
  // with threads, where the host has put them (each side of the step's timing): bench:native prints it by round
  auto where = [&](const char* when) {
    if (threads > 1)
      std::printf("host round_trip_ns %.0f (a cache line to another thread and back, %s the training step)\n",
                  cache_line_round_trip_ns(), when);
  };
  where("before");
  time_it(("train_step_" + nb).c_str(), warmup, runs, [&] {
    model->zero_grad();
    const Tensor loss = model->forward(many, batch).loss;
    loss.backward();
    adamw.step(1e-3);
    sink = sink + loss.item();
  });
  where("after");
  if (threads > 1) {
    const SharedWrite w = shared_write_us();
    std::printf("host shared_write_us %.0f %.0f (3 MB written by 2 threads, after each wrote its half / after both read "
                "all of it)\n",
                w.own_us, w.shared_us);
  }
  return 0;
}

}  // namespace glass::cli
