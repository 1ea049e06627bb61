#pragma once
// AdamW (Loshchilov and Hutter, 2019) with decoupled weight decay, applied to
// matrices only: gammas (and any other vector) are not pulled toward zero.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "glass/tensor/tensor.h"

namespace glass::train {

struct AdamWOptions {
  double beta1 = 0.9;
  double beta2 = 0.95;
  double eps = 1e-8;
  double weight_decay = 0.1;
};

class AdamW {
 public:
  using Params = std::vector<std::pair<std::string, Tensor>>;
  AdamW(Params params, AdamWOptions options = {});

  // One update with learning rate lr from each parameter's grad(); parameters
  // without a gradient are left alone. Writes parameter values in place.
  void step(double lr);
  int64_t steps() const { return t_; }

  // Moments as named tensors ("m.<name>", "v.<name>") for checkpoints.
  std::vector<std::pair<std::string, Tensor>> state() const;
  void load_state(const std::map<std::string, Tensor>& state, int64_t steps);

 private:
  Params params_;
  AdamWOptions opt_;
  std::vector<Tensor> m_, v_;  // each like its parameter, float64-free: same dtype
  int64_t t_ = 0;
};

// Scales all gradients so their global L2 norm is at most max_norm; returns
// the norm before clipping (what the progress line shows).
double clip_grad_norm(const AdamW::Params& params, double max_norm);

}  // namespace glass::train
