#include "glass/nn/residual_ledger.h"

#include <cmath>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

namespace {

Tensor row0(const Tensor& t) { return slice(t, 0, 0, 1); }

// Per-position and total norms and shares of c against the total x, both (1, n, d).
LedgerTerm term(const std::string& name, const Tensor& c, const Tensor& x) {
  const int64_t n = x.size(1), d = x.size(2);
  const std::vector<double> vc = c.to_vector(), vx = x.to_vector();
  LedgerTerm out;
  out.name = name;
  double cc_all = 0, cx_all = 0, xx_all = 0;
  for (int64_t t = 0; t < n; ++t) {
    double cc = 0, cx = 0, xx = 0;
    for (int64_t j = 0; j < d; ++j) {
      const double a = vc[static_cast<std::size_t>(t * d + j)], b = vx[static_cast<std::size_t>(t * d + j)];
      cc += a * a;
      cx += a * b;
      xx += b * b;
    }
    out.norm.push_back(std::sqrt(cc));
    out.share.push_back(xx > 0 ? cx / xx : NAN);
    cc_all += cc;
    cx_all += cx;
    xx_all += xx;
  }
  out.total_norm = std::sqrt(cc_all);
  out.total_share = xx_all > 0 ? cx_all / xx_all : NAN;
  return out;
}

std::vector<double> row_norms(const Tensor& x) {
  const int64_t n = x.size(1), d = x.size(2);
  const std::vector<double> v = x.to_vector();
  std::vector<double> out;
  for (int64_t t = 0; t < n; ++t) {
    double s = 0;
    for (int64_t j = 0; j < d; ++j) s += v[static_cast<std::size_t>(t * d + j)] * v[static_cast<std::size_t>(t * d + j)];
    out.push_back(std::sqrt(s));
  }
  return out;
}

double frobenius(const Tensor& x) {
  double s = 0;
  for (double v : row_norms(x)) s += v * v;
  return std::sqrt(s);
}

double max_abs_diff(const Tensor& a, const Tensor& b) {
  const std::vector<double> va = a.to_vector(), vb = b.to_vector();
  double m = 0;
  for (std::size_t j = 0; j < va.size(); ++j) {
    const double dlt = std::fabs(va[j] - vb[j]);
    m = std::isnan(dlt) ? INFINITY : std::max(m, dlt);
  }
  return m;
}

}  // namespace

std::optional<std::string> ledger_refusal(const Config& cfg) {
  if (!cfg.residual)
    return std::string(
        "the residual ledger needs residual connections: without them each sublayer's output replaces the stream, "
        "so the last stream is only the last branch's output, not a sum of contributions");
  if (cfg.norm == NormPlacement::post)
    return std::string(
        "the residual ledger needs the norms before the branches (pre-norm) or no norms: a post-norm block "
        "normalises each residual sum, so the last stream is not a sum of the embedding and the branches' outputs");
  return std::nullopt;
}

ResidualLedger residual_ledger(const Model& model, const Model::Output& run) {
  if (auto why = ledger_refusal(model.config())) throw Error("residual ledger: " + *why);
  if (!run.logits.defined() || run.snapshots.items().empty())
    throw Error("residual ledger: the run recorded no snapshots (run the model with snapshots first)");
  const Snapshots& s = run.snapshots;
  const std::size_t blocks = model.blocks.size();
  const std::vector<std::string> stream = s.stream();  // embed, then after each sublayer: 1 + 2 * blocks
  ResidualLedger L;
  L.total_name = stream.back();
  const Tensor x = row0(s.get(L.total_name));
  L.total_norm = row_norms(x);

  std::vector<std::string> parts{"embed"};
  for (std::size_t i = 0; i < blocks; ++i)
    for (const char* b : {"attn", "ffn"}) parts.push_back("blocks." + std::to_string(i) + "." + b);
  {
    NoGradGuard no_grad;
    Tensor sum;  // in the run's dtype, added in the forward pass's order
    for (const std::string& name : parts) {
      const Tensor c = row0(s.get(name));
      sum = sum.defined() ? sum + c : c;
      L.terms.push_back(term(name, c, x));
    }
    L.max_abs_diff = max_abs_diff(sum, x);
  }

  // Backward: needs every stream snapshot's gradient.
  for (const std::string& name : stream)
    if (!s.get(name).grad().defined()) return L;
  L.has_grad = true;
  const Tensor g0 = row0(s.get("embed").grad());
  L.grad_total_norm = row_norms(g0);
  const Tensor gK = row0(s.get(stream.back()).grad());
  L.grad_terms.push_back(term("residual path", gK, g0));
  Tensor sum = gK;
  for (std::size_t k = 0; k + 1 < stream.size(); ++k) {
    const std::size_t i = k / 2;
    const bool is_attn = k % 2 == 0;
    // The branch alone, on the stream that entered it, with detached weights (their
    // gradients from the run stay as they are): x -> F(x), then J^T g_{k+1} by backward.
    Block branch_only = model.blocks[i];
    branch_only.visit("", [](const std::string&, Tensor& p) { p = p.detach(); });
    const Tensor xin = s.get(stream[k]).detach().set_requires_grad();
    const Tensor g_next = s.get(stream[k + 1]).grad();
    const Tensor f = branch_only.branch(is_attn, xin, model.rope(), run.edits.block(i));
    f.backward(g_next.contiguous());
    const Tensor vjp = row0(xin.grad());
    L.grad_terms.push_back(term(parts[k + 1], vjp, g0));
    L.grad_through_identity.push_back(frobenius(row0(g_next)));
    NoGradGuard no_grad;
    sum = sum + vjp;
  }
  L.grad_max_abs_diff = max_abs_diff(sum, g0);
  return L;
}

}  // namespace glass::nn
