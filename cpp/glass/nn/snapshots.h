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
  void add(const std::string& name, Tensor t);
  // Throws glass::Error listing the known names if `name` is not one.
  const Tensor& get(const std::string& name) const;
  bool has(const std::string& name) const;
  const std::vector<std::pair<std::string, Tensor>>& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, Tensor>> items_;
};

// TransformerLens names that map one to one onto ours:
// blocks.{i}.hook_resid_pre / hook_resid_mid / hook_resid_post.
// Returns the docs/model.md name, or the input unchanged if it is not an alias.
std::string resolve_alias(const std::string& name);

}  // namespace glass::nn
