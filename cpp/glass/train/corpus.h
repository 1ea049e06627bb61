#pragma once
// A training text split into a training part and a held-out validation part
// (the last `val_fraction` of the bytes), with random training windows and
// the fixed validation windows the loss target is measured on.
#include <cstdint>
#include <string>
#include <vector>

#include "glass/tensor/random.h"

namespace glass::train {

class Corpus {
 public:
  // Throws if the text is too short to give both parts at least ctx + 1 bytes.
  Corpus(std::string text, double val_fraction, int64_t ctx);

  // B random windows of ctx bytes from the training part, row-major (B * ctx).
  std::vector<int32_t> sample_batch(Generator& gen, int64_t batch) const;
  // Non-overlapping ctx-byte windows covering the validation part, in order
  // (a trailing remainder shorter than ctx is dropped).
  std::vector<std::vector<int32_t>> validation_windows() const;

  int64_t train_bytes() const { return split_; }
  int64_t val_bytes() const { return static_cast<int64_t>(text_.size()) - split_; }
  int64_t ctx() const { return ctx_; }
  // The fewest bytes a text needs for this split and context.
  static int64_t min_bytes(double val_fraction, int64_t ctx);

 private:
  static int64_t split_at(int64_t n, double val_fraction);  // where the held-out part starts

  std::string text_;
  int64_t split_;
  int64_t ctx_;
};

}  // namespace glass::train
