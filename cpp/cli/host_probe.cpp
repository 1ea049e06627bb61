#include "cli/host_probe.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <system_error>
#include <thread>

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

}  // namespace glass::cli
