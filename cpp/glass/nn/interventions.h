#pragma once
// Interventions: change one part of the model for one run, forward and
// backward, and see what follows (docs/model.md, "Interventions"). They
// compile to Edits (edits.h), which the forward pass applies; the weights are
// never changed.
//
// Names (issue 12's spellings; docs/model.md maps them):
//   zero / scale   a branch: "blocks.{i}.attn" or "blocks.{i}.ffn" (the snapshot of that name)
//   ablateHead     block i, head h: that head's output before wo is set to zero
//   eps / identityNorm / unitGamma
//                  a norm: "blocks.{i}.norm_attn", "blocks.{i}.norm_ffn", "norm_final" (the
//                  parameter prefixes; the snapshot spellings "blocks.{i}.norm.attn", "norm.final"
//                  are accepted too)
// A name that does not exist, an index out of range or a bad number is refused
// with a glass::Error that lists what exists.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "glass/nn/edits.h"
#include "glass/nn/model.h"

namespace glass::nn {

struct Intervention {
  enum class Kind { zero, scale, ablate_head, eps, identity_norm, unit_gamma };
  Kind kind = Kind::zero;
  std::string target;  // branch or norm name (empty for ablate_head)
  double value = 0;    // scale: the factor; eps: the new eps
  int64_t block = -1, head = -1;  // ablate_head
};

// The text form, one per intervention (what the CLI, the PyTorch script and
// addresses use): "zero:blocks.2.ffn", "scale:blocks.0.attn:0.5",
// "ablateHead:1:2", "eps:blocks.3.norm_ffn:1e-2", "identityNorm:norm_final",
// "unitGamma:blocks.0.norm_attn".
Intervention parse_intervention(const std::string& text);
std::string to_text(const Intervention& iv);

// The edits that make `interventions` happen in `model`'s forward pass; refuses
// (glass::Error, listing what exists) anything that does not name a part of
// this model. Two interventions on the same part combine (scales multiply).
Edits compile_interventions(const Model& model, std::span<const Intervention> interventions);

// How one snapshot differs between two runs (b = with the intervention, a = without).
struct SnapshotChange {
  std::string name;
  double max_abs = 0;   // max |b - a|
  double rel_norm = 0;  // ||b - a|| / ||a|| (0 when both are 0)
  bool changed = false; // any element differs at all
};
// Every snapshot the two runs share, in the order of `b`.
std::vector<SnapshotChange> compare_snapshots(const Snapshots& a, const Snapshots& b);

// The k most likely next bytes after position `position` of batch row 0, with
// probabilities (softmax of logits (B, n, V) by the core), best first.
struct NextByte {
  int32_t byte = 0;
  double prob = 0;
};
std::vector<NextByte> top_next(const Tensor& logits, int64_t position, int64_t k);

}  // namespace glass::nn
