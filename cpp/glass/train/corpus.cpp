#include "glass/train/corpus.h"

#include <algorithm>

#include "glass/tensor/error.h"

namespace glass::train {

Corpus::Corpus(std::string text, double val_fraction, int64_t ctx) : text_(std::move(text)), ctx_(ctx) {
  if (!(val_fraction > 0 && val_fraction < 1))
    throw Error("corpus: validation fraction must be between 0 and 1, got " + std::to_string(val_fraction));
  if (ctx < 2) throw Error("corpus: context must be at least 2 bytes, got " + std::to_string(ctx));
  const auto n = static_cast<int64_t>(text_.size());
  split_ = split_at(n, val_fraction);
  if (split_ < ctx + 1 || n - split_ < ctx)
    throw Error("corpus: " + std::to_string(n) + " bytes are too few for training and validation windows of " +
                std::to_string(ctx) + " bytes (at least " + std::to_string(min_bytes(val_fraction, ctx)) +
                " are needed)");
}

int64_t Corpus::split_at(int64_t n, double val_fraction) {
  return n - static_cast<int64_t>(static_cast<double>(n) * val_fraction);
}

int64_t Corpus::min_bytes(double val_fraction, int64_t ctx) {
  // the held-out part floor(n * f) must reach ctx: start just below ctx / f and walk up
  int64_t n = std::max<int64_t>(ctx + 1, static_cast<int64_t>(static_cast<double>(ctx) / val_fraction) - 2);
  while (split_at(n, val_fraction) < ctx + 1 || n - split_at(n, val_fraction) < ctx) ++n;
  return n;
}

std::vector<int32_t> Corpus::sample_batch(Generator& gen, int64_t batch) const {
  std::vector<int32_t> ids;
  ids.reserve(static_cast<std::size_t>(batch * ctx_));
  const uint64_t starts = static_cast<uint64_t>(split_ - ctx_ + 1);  // every window lies inside the training part
  for (int64_t b = 0; b < batch; ++b) {
    const auto start = static_cast<int64_t>(gen.next_u64() % starts);
    for (int64_t i = 0; i < ctx_; ++i) ids.push_back(static_cast<unsigned char>(text_[start + i]));
  }
  return ids;
}

std::vector<std::vector<int32_t>> Corpus::validation_windows() const {
  std::vector<std::vector<int32_t>> windows;
  for (int64_t start = split_; start + ctx_ <= static_cast<int64_t>(text_.size()); start += ctx_) {
    std::vector<int32_t> w(static_cast<std::size_t>(ctx_));
    for (int64_t i = 0; i < ctx_; ++i) w[i] = static_cast<unsigned char>(text_[start + i]);
    windows.push_back(std::move(w));
  }
  return windows;
}

}  // namespace glass::train
