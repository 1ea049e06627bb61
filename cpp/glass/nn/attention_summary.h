#pragma once
// What each attention head does on one text, in four numbers, from the
// pattern snapshots a run recorded (blocks.i.attn.pattern, the model's own
// softmax). With A the head's (n, n) weights of batch row 0 and the averages
// over the positions t = 1 .. n-1 (position 0 can only look at itself):
//
//   previous       mean_t A[t, t-1]             weight on the byte just before
//   same           mean_t A[t, t]               weight on the byte itself
//   first          mean_t A[t, 0]               weight on the text's first byte
//   mean_distance  mean_t sum_j A[t, j] (t - j) how far back it looks, in bytes
//
// A one-byte text has no such positions: every average is NaN.
#include <cstdint>
#include <vector>

#include "glass/nn/model.h"

namespace glass::nn {

struct HeadSummary {
  int64_t block = 0, head = 0;
  double previous = 0, same = 0, first = 0, mean_distance = 0;
};

struct AttentionSummary {
  std::vector<HeadSummary> heads;  // block by block, head by head
  // The pattern's own checks, over every block, head and position:
  double row_sum_max_error = 0;    // max_t |sum_{j <= t} A[t, j] - 1|
  double above_diagonal_max = 0;   // max_{j > t} |A[t, j]| (exactly 0: the causal mask)
};

// Throws if the run did not record patterns (ForwardOptions::record_patterns).
AttentionSummary attention_summary(const Model& model, const Model::Output& run);

}  // namespace glass::nn
