#pragma once
// The residual ledger (docs/model.md, "Residual ledger"): in a model whose
// blocks add their branches to the stream (pre-norm or no norms, residuals on),
// the last stream is exactly
//
//   X_K = embed + sum_i attn_i + sum_i ffn_i
//
// so it can be split into those contributions. Backward, the gradient at the
// embedding splits the same way into the part that came down the residual path
// alone and the part whose last branch (nearest the embedding) was branch k:
//
//   g_0 = g_K + sum_k J_{F_k}(X_k)^T g_{k+1}
//
// where X_k is the stream entering sublayer k, F_k its branch (norm included),
// g_k = dL/dX_k. Each term J_{F_k}^T g_{k+1} is computed on its own, by
// differentiating the branch alone, so the sum is a live check of the model's
// residual structure, not an identity.
//
// Post-norm blocks normalise each sum and a model without residuals keeps only
// its last branch: neither stream is such a sum, and residual_ledger refuses
// them with a message saying so.
#include <optional>
#include <string>
#include <vector>

#include "glass/nn/model.h"

namespace glass::nn {

struct LedgerTerm {
  std::string name;             // "embed", "blocks.i.attn", "blocks.i.ffn"; backward: "residual path" first
  std::vector<double> norm;     // per position t: ||c_t||
  std::vector<double> share;    // per position: <c_t, x_t> / ||x_t||^2, x the total (shares sum to 1)
  double total_norm = 0;        // over all positions: ||c|| (Frobenius)
  double total_share = 0;       // <c, x> / ||x||^2 over all positions
};

struct ResidualLedger {
  std::string total_name;          // the last stream's snapshot: "blocks.{last}.resid.ffn"
  std::vector<double> total_norm;  // per position ||x_t||
  std::vector<LedgerTerm> terms;   // embed, then attn and ffn of each block
  double max_abs_diff = 0;         // max |embed + sum attn + sum ffn - x|, summed in the run's dtype in the forward's order

  bool has_grad = false;           // after a backward pass:
  std::vector<double> grad_total_norm;  // per position ||g_0,t||, g_0 = dL/d embed
  std::vector<LedgerTerm> grad_terms;   // "residual path" (g_K), then each branch's J^T g term
  std::vector<double> grad_through_identity;  // per sublayer k: ||g_{k+1}||, what (I + J)^T's identity passes on
  double grad_max_abs_diff = 0;    // max |g_K + sum_k J^T g_{k+1} - g_0|
};

// nullopt if the model's stream is a sum of its branches; otherwise why not.
std::optional<std::string> ledger_refusal(const Config& cfg);

// Batch row 0 of a run that recorded snapshots; the gradient side needs the
// run's backward to have run (snapshot gradients defined).
ResidualLedger residual_ledger(const Model& model, const Model::Output& run);

}  // namespace glass::nn
