// glassllm bench [--runs N] [--warmup N] [--batch B] [--ctx N] [--dtype f32|f64] [--seed S] [--weights W]
//                [model flags: --blocks --d --heads --norm --norm-kind --no-residual --eps --init-scale]
// Single-threaded wall-clock timings of the default model (or the model the
// flags describe, or W), median over N runs after the warm-up runs:
//   forward 1 x ctx        inference forward (no graph recorded)
//   fwd+bwd B x ctx        forward with graph + mean next-byte cross-entropy + backward
//   train step B x ctx     zero_grad + fwd+bwd + AdamW update (lr 1e-3)
// One line per row, "bench <name> median_ms <x> min_ms <y> runs <n>", so
// scripts/bench_native.sh can read it next to PyTorch's figures.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/load_model.h"
#include "cli/model_flags.h"
#include "glass/tensor/autograd.h"
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

}  // namespace

int run_bench(const Argv& argv) {
  const Args args(argv, with_model_flags({"runs", "warmup", "batch", "seed", "weights"}), kModelSwitches);
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

  std::printf("glassllm bench: %s, %s, 1 thread, forward 1 x %lld, training step %lld x %lld, "
              "%lld warm-up + %lld timed runs\n",
              describe_config(model->config()).c_str(), std::string(dtype_name(dtype)).c_str(),
              static_cast<long long>(ctx), static_cast<long long>(batch),
              static_cast<long long>(ctx), static_cast<long long>(warmup), static_cast<long long>(runs));

  const std::string n1 = std::to_string(ctx), nb = std::to_string(batch) + "x" + std::to_string(ctx);
  volatile double sink = 0;  // keeps the results observable
  time_it(("forward_1x" + n1).c_str(), warmup, runs, [&] {
    NoGradGuard no_grad;
    sink = sink + model->forward(one, 1).loss.item();
  });
  time_it(("fwd_bwd_" + nb).c_str(), warmup, runs, [&] {
    model->zero_grad();
    const Tensor loss = model->forward(many, batch).loss;
    loss.backward();
    sink = sink + loss.item();
  });
  train::AdamW adamw(model->named_parameters());
  time_it(("train_step_" + nb).c_str(), warmup, runs, [&] {
    model->zero_grad();
    const Tensor loss = model->forward(many, batch).loss;
    loss.backward();
    adamw.step(1e-3);
    sink = sink + loss.item();
  });
  return 0;
}

}  // namespace glass::cli
