#pragma once
// Named intermediate tensors of one forward run (docs/model.md's snapshot names),
// in the order the model computes them. Each is marked retain_grad, so after
// backward its grad() is the total derivative of the loss with respect to it,
// through every later use.
#include <string>
#include <utility>
#include <vector>

#include "glass/tensor/tensor.h"

namespace glass::nn {

class Snapshots {
 public:
  // stream_only: keep only the stream's snapshots, without retaining their
  // gradients (what a training step reports: the residual stream's RMS by depth).
  Snapshots() = default;
  explicit Snapshots(bool stream_only) : stream_only_(stream_only) {}
  // stream: t is the residual stream between sublayers (what the next one
  // reads): the embedding, then the output of every attention and SwiGLU
  // sublayer, whatever the variant calls it.
  void add(const std::string& name, Tensor t, bool stream = false);
  // Throws glass::Error listing the known names if `name` is not one.
  // TransformerLens names resolve through the stream (below).
  const Tensor& get(const std::string& name) const;
  bool has(const std::string& name) const;
  const std::vector<std::pair<std::string, Tensor>>& items() const { return items_; }
  // Names of the stream's snapshots in order: 1 + 2 * blocks of them.
  std::vector<std::string> stream() const;
  // blocks.{i}.hook_resid_pre / mid / post -> the stream entering block i,
  // after its attention sublayer, after the block; any other name unchanged.
  std::string resolve(const std::string& name) const;

 private:
  std::vector<std::pair<std::string, Tensor>> items_;
  std::vector<std::size_t> stream_;  // indices into items_
  bool stream_only_ = false;
};

// The same aliases for the default (pre-norm, residual) model's names,
// without a run: blocks.{i}.hook_resid_pre / hook_resid_mid / hook_resid_post.
// Returns the docs/model.md name, or the input unchanged if it is not an alias.
std::string resolve_alias(const std::string& name);

}  // namespace glass::nn
