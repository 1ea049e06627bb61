#pragma once
// Changes a forward pass can make for one run only, without touching the
// weights: what an intervention (interventions.h) compiles to, and the nudge
// of one coordinate that the gradient check (gradient_check.h) uses.
//
// The forward pass reads them through a pointer that is null for a plain run,
// so a run without edits does exactly what it did before they existed.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "glass/nn/norm.h"

namespace glass::nn {

// One norm's change: another eps, gamma replaced by ones (beta kept), or the
// norm replaced by the identity (its output is its input).
struct NormEdit {
  std::optional<double> eps;
  bool unit_gamma = false;
  bool identity = false;
  bool any() const { return eps.has_value() || unit_gamma || identity; }
};

struct BlockEdits {
  double attn_scale = 1.0;          // the attention branch's output times this (0: zeroed)
  double ffn_scale = 1.0;           // the SwiGLU branch's output times this
  std::vector<bool> ablated_heads;  // head h's output (before wo) set to zero; empty: none
  NormEdit norm_attn, norm_ffn;
};

// Adds delta to element `index` (row-major, batch axis included) of the
// snapshot `name` as the forward pass produces it, before anything reads it.
struct Nudge {
  std::string name;
  int64_t index = 0;
  double delta = 0;
};

struct Edits {
  std::vector<BlockEdits> blocks;  // one per block, or empty: no block is changed
  NormEdit norm_final;
  std::optional<Nudge> nudge;

  const BlockEdits* block(std::size_t i) const { return i < blocks.size() ? &blocks[i] : nullptr; }
};

// norm(x) with `edit` applied (none: norm(x) itself). The edited norm is a
// copy: the model's norm, its eps and its gamma are never changed.
Tensor apply_norm(const Norm& norm, const Tensor& x, const NormEdit* edit);

// t, or t with the nudge added if the nudge names `name` (checked against t's size).
Tensor nudged(const Edits* edits, const std::string& name, const Tensor& t);

}  // namespace glass::nn
