#pragma once
// The training loop: sample a batch, forward, mean next-byte cross-entropy,
// backward, clip the global gradient norm, AdamW step on a warmup + cosine
// schedule. Checkpoints hold the weights, the optimizer moments, the step and
// the sampler's state, so a resumed run continues exactly as an
// uninterrupted one would.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "glass/nn/model.h"
#include "glass/tensor/error.h"
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
  // RMS of the residual stream over the batch, by depth: the embedding, then the
  // stream after each block (docs/model.md, "The residual stream by depth").
  std::vector<double> resid_rms;
  double seconds = 0;  // this step's time (forward, backward, update; not the evaluation)
  double tokens_per_second = 0;
  double eta_seconds = 0;
  std::optional<double> val_loss;  // set on evaluation steps
};

// A step whose loss or gradient is not finite (NaN or infinity). The update
// was not applied: the weights, the optimizer moments, the step count and the
// sampler are as they were before the step, so the run keeps its last good state.
class Diverged : public Error {
 public:
  // what: "loss", or the parameter group whose gradient blew up first seen
  // from the loss ("head", "norm_final", "blocks.7", "tok_emb"), or "gradient".
  Diverged(int64_t step, std::string what, const std::string& message)
      : Error(message), step_(step), what_(std::move(what)) {}
  int64_t step() const { return step_; }  // the step that failed (1-based)
  const std::string& what_blew_up() const { return what_; }

 private:
  int64_t step_;
  std::string what_;
};

class Trainer {
 public:
  Trainer(nn::Model& model, const Corpus& corpus, TrainOptions options);

  // One step: sample a batch, forward, backward, clip, AdamW (and the
  // validation loss on evaluation steps). Throws Diverged, changing nothing,
  // if the loss or a gradient is not finite; past options.steps, Error.
  Progress train_step();
  // Runs train_step() from the current step to options.steps. on_step is
  // called after every step; on_checkpoint after every evaluation and at the
  // end. tokens_per_second and eta_seconds average over this call's steps.
  void run(const std::function<void(const Progress&)>& on_step,
           const std::function<void(const Progress&)>& on_checkpoint);
  bool done() const { return step_ >= opt_.steps; }
  const TrainOptions& options() const { return opt_; }
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

// The name of the first parameter group with a non-finite gradient, looking
// from the loss back to the input (head, norm_final, blocks.n-1 ... blocks.0,
// tok_emb: a gradient that blows up spoils everything before it), or nothing.
std::optional<std::string> non_finite_gradient(nn::Model& model);

// sqrt(mean(t^2)) over every element, accumulated in float64.
double rms(const Tensor& t);

}  // namespace glass::train
