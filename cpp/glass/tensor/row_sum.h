#pragma once
// Internal: the sum of one contiguous row, as every reduction over the last
// axis takes it (ops_reduce.cpp's sum and mean): in double, four chains for
// the FPU, joined pairwise. One definition, so a kernel that sums a row in a
// pass of its own (div_by_rows.cpp) gets the very bits the composed sum or
// mean gives.
#include <cstdint>

namespace glass::detail {

// value(j) for j in [0, len) is each term, in the row's dtype; the result is
// unscaled and unrounded (the caller scales it and rounds to its dtype).
template <class F> double row_sum(int64_t len, F&& value) {
  double acc[4] = {0, 0, 0, 0};
  int64_t j = 0;
  for (; j + 4 <= len; j += 4)
    for (int u = 0; u < 4; ++u) acc[u] += static_cast<double>(value(j + u));
  for (; j < len; ++j) acc[0] += static_cast<double>(value(j));
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

}  // namespace glass::detail
