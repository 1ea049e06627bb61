#pragma once
// The training loop: sample a batch, forward, mean next-byte cross-entropy,
// backward, clip the global gradient norm, AdamW step on a warmup + cosine
// schedule. Checkpoints hold the weights, the optimizer moments, the step and
// the sampler's state, so a resumed run continues exactly as an
// uninterrupted one would.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "glass/nn/model.h"
#include "glass/train/adamw.h"
#include "glass/train/corpus.h"
#include "glass/train/schedule.h"

namespace glass::train {

struct TrainOptions {
  int64_t steps = 2000;
  int64_t batch = 16;
  double lr = 1e-3;           // peak
  int64_t warmup = 100;
  double clip = 1.0;          // global gradient norm; 0 turns clipping off
  double weight_decay = 0.1;  // matrices only
  uint64_t seed = 0;
  int64_t eval_every = 250;   // validation loss every N steps (and at the end); 0: only at the end
  int64_t eval_windows = 0;   // 0: all validation windows
};

struct Progress {
  int64_t step = 0;  // steps done
  int64_t total = 0;
  double loss = 0;   // this step's training loss
  double lr = 0;
  double grad_norm = 0;  // before clipping
  std::vector<double> block_grad_norms;  // per block, over its parameters, before clipping
  double tokens_per_second = 0;
  double eta_seconds = 0;
  std::optional<double> val_loss;  // set on evaluation steps
};

class Trainer {
 public:
  Trainer(nn::Model& model, const Corpus& corpus, TrainOptions options);

  // Runs from the current step to options.steps. on_step is called after
  // every step; on_checkpoint after every evaluation and at the end.
  void run(const std::function<void(const Progress&)>& on_step,
           const std::function<void(const Progress&)>& on_checkpoint);
  // Mean loss over the validation windows, without recording a graph.
  double validation_loss() const;

  std::vector<uint8_t> checkpoint() const;           // safetensors bytes, with the model's config
  void restore(std::span<const uint8_t> checkpoint);  // refuses a mismatched model (any config field) or options
  int64_t step() const { return step_; }

 private:
  nn::Model& model_;
  const Corpus& corpus_;
  TrainOptions opt_;
  AdamW adamw_;
  Schedule schedule_;
  Generator sampler_;
  int64_t step_ = 0;
};

// The global L2 norm of the gradients of each block's parameters
// ("blocks.i." names), block by block; 0 for a block without gradients.
std::vector<double> block_grad_norms(nn::Model& model);

}  // namespace glass::train
