#include "glass/train/schedule.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace glass::train {

double Schedule::at(int64_t step) const {
  if (step < warmup) return peak * static_cast<double>(step + 1) / static_cast<double>(warmup);
  const double span = static_cast<double>(std::max<int64_t>(1, total - warmup));
  const double progress = std::min(1.0, static_cast<double>(step - warmup) / span);
  const double cosine = 0.5 * (1.0 + std::cos(std::numbers::pi * progress));
  return peak * (min_ratio + (1.0 - min_ratio) * cosine);
}

}  // namespace glass::train
