#include "cli/host_probe.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <system_error>
#include <thread>
#include <vector>

namespace glass::cli {

double cache_line_round_trip_ns() {
  // the same bounce as bench/host_check.mjs: one thread writes odd values,
  // the other answers each with the next even one
  constexpr int kWarmUp = 2000;  // untimed: the other thread starting, and being scheduled
  constexpr int kBounces = 20000;
  double best = 0;
  for (int run = 0; run < 3; ++run) {
    alignas(64) std::atomic<int> cell{0};
    std::thread other;
    try {
      other = std::thread([&cell] {
        for (int v = 1; v < 2 * (kWarmUp + kBounces); v += 2) {
          while (cell.load(std::memory_order_acquire) != v) {
          }
          cell.store(v + 1, std::memory_order_release);
        }
      });
    } catch (const std::system_error&) {
      return 0;
    }
    auto bounce = [&cell](int from, int to) {
      for (int v = from; v < to; v += 2) {
        cell.store(v, std::memory_order_release);
        while (cell.load(std::memory_order_acquire) != v + 1) {
        }
      }
    };
    bounce(1, 2 * kWarmUp + 1);
    const auto t0 = std::chrono::steady_clock::now();
    bounce(2 * kWarmUp + 1, 2 * (kWarmUp + kBounces));
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / kBounces;
    other.join();
    best = run == 0 ? ns : std::min(best, ns);
  }
  return best;
}

SharedWrite shared_write_us() {
  constexpr std::size_t kFloats = (std::size_t{3} << 20) / sizeof(float);  // 3 MB: the training step's largest tensors
  constexpr int kRuns = 5;
  enum Step { kWriteOwnHalf, kReadOwnHalf, kReadAll, kStop };
  std::vector<float> mem(kFloats, 1.0f);
  auto run_step = [&mem](int s, int who) {  // who: 0 this thread, 1 the other
    const std::size_t half_begin = who == 0 ? 0 : kFloats / 2, half_end = who == 0 ? kFloats / 2 : kFloats;
    if (s == kWriteOwnHalf) {
      for (std::size_t i = half_begin; i < half_end; ++i) mem[i] = mem[i] * 0.5f + 1.0f;
      return;
    }
    const std::size_t begin = s == kReadAll ? 0 : half_begin, end = s == kReadAll ? kFloats : half_end;
    float sum = 0;
    for (std::size_t i = begin; i < end; i += 16) sum += mem[i];  // one load per 64-byte line
    if (sum == -1.0f) mem[begin] = 0;                              // keeps the loads
  };
  alignas(64) std::atomic<int> asked{0};  // steps handed to the other thread so far
  alignas(64) std::atomic<int> done{0};   // steps it has finished
  std::atomic<int> kind{kStop};           // the step asked for (written before `asked`)
  std::thread other;
  try {
    other = std::thread([&] {
      for (int n = 1;; ++n) {
        while (asked.load(std::memory_order_acquire) < n) {
        }
        const int s = kind.load(std::memory_order_relaxed);
        if (s == kStop) return;
        run_step(s, 1);
        done.store(n, std::memory_order_release);
      }
    });
  } catch (const std::system_error&) {
    return {};
  }
  int n = 0;
  auto both = [&](int s) {  // step s on both threads; its wall time in microseconds
    const auto t0 = std::chrono::steady_clock::now();
    kind.store(s, std::memory_order_relaxed);
    asked.store(++n, std::memory_order_release);
    if (s == kStop) return 0.0;
    run_step(s, 0);
    while (done.load(std::memory_order_acquire) < n) {
    }
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  };
  SharedWrite best{1e300, 1e300};
  for (int run = 0; run < kRuns; ++run) {
    both(kWriteOwnHalf);
    both(kReadOwnHalf);
    best.own_us = std::min(best.own_us, both(kWriteOwnHalf));
    both(kReadAll);
    best.shared_us = std::min(best.shared_us, both(kWriteOwnHalf));
  }
  both(kStop);
  other.join();
  return best;
}

}  // namespace glass::cli
