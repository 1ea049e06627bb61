#pragma once
// Learning rate: linear warmup from 0 to peak over `warmup` steps, then a
// cosine decay to min_ratio * peak at `total` steps.
#include <cstdint>

namespace glass::train {

struct Schedule {
  double peak = 1e-3;
  int64_t warmup = 100;
  int64_t total = 1000;
  double min_ratio = 0.1;

  double at(int64_t step) const;  // step counts from 0
};

}  // namespace glass::train
