#include "glass/nn/interventions.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <regex>

#include "glass/tensor/autograd.h"
#include "glass/tensor/error.h"
#include "glass/tensor/ops.h"

namespace glass::nn {

namespace {

const char* kind_word(Intervention::Kind k) {
  switch (k) {
    case Intervention::Kind::zero: return "zero";
    case Intervention::Kind::scale: return "scale";
    case Intervention::Kind::ablate_head: return "ablateHead";
    case Intervention::Kind::eps: return "eps";
    case Intervention::Kind::identity_norm: return "identityNorm";
    case Intervention::Kind::unit_gamma: return "unitGamma";
  }
  return "?";
}

constexpr const char* kKinds = "zero, scale, ablateHead, eps, identityNorm, unitGamma";

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

double number_of(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    throw Error("intervention: " + what + " must be a number, got \"" + text + "\"");
  return v;
}

int64_t whole_of(const std::string& text, const std::string& what) {
  const double v = number_of(text, what);
  if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 1e9)
    throw Error("intervention: " + what + " must be a whole number, got \"" + text + "\"");
  return static_cast<int64_t>(v);
}

std::string join(const std::vector<std::string>& xs) {
  std::string out;
  for (const std::string& x : xs) out += (out.empty() ? "" : ", ") + x;
  return out;
}

std::vector<std::string> branch_names(const Model& m) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < m.blocks.size(); ++i)
    for (const char* s : {"attn", "ffn"}) out.push_back("blocks." + std::to_string(i) + "." + s);
  return out;
}

std::vector<std::string> norm_names(const Model& m) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < m.blocks.size(); ++i) {
    if (m.blocks[i].norm_attn) out.push_back("blocks." + std::to_string(i) + ".norm_attn");
    if (m.blocks[i].norm_ffn) out.push_back("blocks." + std::to_string(i) + ".norm_ffn");
  }
  if (m.norm_final) out.push_back("norm_final");
  return out;
}

// "blocks.2.ffn" -> (2, false); "blocks.0.attn" -> (0, true)
std::pair<std::size_t, bool> find_branch(const Model& m, const Intervention& iv) {
  static const std::regex re(R"(blocks\.(\d{1,4})\.(attn|ffn))");
  std::smatch mt;
  if (std::regex_match(iv.target, mt, re)) {
    const std::size_t i = std::stoul(mt[1]);
    if (i < m.blocks.size()) return {i, mt[2] == "attn"};
  }
  throw Error(std::string("intervention ") + kind_word(iv.kind) + ": no branch named \"" + iv.target +
              "\"; this model's branches are " + join(branch_names(m)));
}

// The norm a name means, and where its edit goes in `edits`.
NormEdit& find_norm(const Model& m, Edits& edits, const Intervention& iv) {
  static const std::regex re(R"(blocks\.(\d{1,4})\.norm[_.](attn|ffn))");
  std::smatch mt;
  const std::string where = std::string("intervention ") + kind_word(iv.kind) + ": ";
  if (norm_names(m).empty())
    throw Error(where + "this model has no norms (its config has norm = none), so there is no \"" + iv.target + "\"");
  if ((iv.target == "norm_final" || iv.target == "norm.final") && m.norm_final) return edits.norm_final;
  if (std::regex_match(iv.target, mt, re)) {
    const std::size_t i = std::stoul(mt[1]);
    if (i < m.blocks.size()) return mt[2] == "attn" ? edits.blocks[i].norm_attn : edits.blocks[i].norm_ffn;
  }
  throw Error(where + "no norm named \"" + iv.target + "\"; this model's norms are " + join(norm_names(m)));
}

}  // namespace

Intervention parse_intervention(const std::string& text) {
  const std::vector<std::string> f = split(text, ':');
  Intervention iv;
  const std::string& k = f[0];
  auto arity = [&](std::size_t n, const char* form) {
    if (f.size() != n) throw Error("intervention \"" + text + "\": expected " + form);
  };
  if (k == "zero") {
    arity(2, "zero:BRANCH (e.g. zero:blocks.2.ffn)");
    iv.kind = Intervention::Kind::zero;
  } else if (k == "scale") {
    arity(3, "scale:BRANCH:FACTOR (e.g. scale:blocks.0.attn:0.5)");
    iv.kind = Intervention::Kind::scale;
    iv.value = number_of(f[2], "the scale factor");
  } else if (k == "ablateHead") {
    arity(3, "ablateHead:BLOCK:HEAD (e.g. ablateHead:1:2)");
    iv.kind = Intervention::Kind::ablate_head;
    iv.block = whole_of(f[1], "the block");
    iv.head = whole_of(f[2], "the head");
    return iv;
  } else if (k == "eps") {
    arity(3, "eps:NORM:VALUE (e.g. eps:blocks.3.norm_ffn:1e-2)");
    iv.kind = Intervention::Kind::eps;
    iv.value = number_of(f[2], "eps");
  } else if (k == "identityNorm") {
    arity(2, "identityNorm:NORM (e.g. identityNorm:norm_final)");
    iv.kind = Intervention::Kind::identity_norm;
  } else if (k == "unitGamma") {
    arity(2, "unitGamma:NORM (e.g. unitGamma:blocks.0.norm_attn)");
    iv.kind = Intervention::Kind::unit_gamma;
  } else {
    throw Error("intervention \"" + text + "\": unknown kind \"" + k + "\"; the kinds are " + kKinds);
  }
  iv.target = f[1];
  return iv;
}

std::string to_text(const Intervention& iv) {
  const std::string k = kind_word(iv.kind);
  switch (iv.kind) {
    case Intervention::Kind::ablate_head: return k + ":" + std::to_string(iv.block) + ":" + std::to_string(iv.head);
    case Intervention::Kind::scale:
    case Intervention::Kind::eps: return k + ":" + iv.target + ":" + format_scalar(iv.value);
    default: return k + ":" + iv.target;
  }
}

Edits compile_interventions(const Model& m, std::span<const Intervention> interventions) {
  Edits edits;
  if (interventions.empty()) return edits;
  edits.blocks.resize(m.blocks.size());
  const int64_t heads = m.config().heads;
  for (const Intervention& iv : interventions) {
    switch (iv.kind) {
      case Intervention::Kind::zero:
      case Intervention::Kind::scale: {
        const double by = iv.kind == Intervention::Kind::zero ? 0.0 : iv.value;
        if (!std::isfinite(by))
          throw Error("intervention scale: the factor must be a finite number, got " + format_scalar(by));
        const auto [i, is_attn] = find_branch(m, iv);
        (is_attn ? edits.blocks[i].attn_scale : edits.blocks[i].ffn_scale) *= by;
        break;
      }
      case Intervention::Kind::ablate_head: {
        const int64_t last = static_cast<int64_t>(m.blocks.size()) - 1;
        if (iv.block < 0 || iv.block > last)
          throw Error("intervention ablateHead: block " + std::to_string(iv.block) + " does not exist; this model's blocks are 0 to " +
                      std::to_string(last));
        if (iv.head < 0 || iv.head >= heads)
          throw Error("intervention ablateHead: head " + std::to_string(iv.head) + " does not exist; each block has heads 0 to " +
                      std::to_string(heads - 1));
        auto& flags = edits.blocks[static_cast<std::size_t>(iv.block)].ablated_heads;
        flags.resize(static_cast<std::size_t>(heads), false);
        flags[static_cast<std::size_t>(iv.head)] = true;
        break;
      }
      case Intervention::Kind::eps: {
        NormEdit& e = find_norm(m, edits, iv);
        if (!std::isfinite(iv.value) || iv.value < 0)
          throw Error("intervention eps: eps must be finite and >= 0, got " + format_scalar(iv.value));
        e.eps = iv.value;
        break;
      }
      case Intervention::Kind::identity_norm: find_norm(m, edits, iv).identity = true; break;
      case Intervention::Kind::unit_gamma: find_norm(m, edits, iv).unit_gamma = true; break;
    }
  }
  return edits;
}

std::vector<SnapshotChange> compare_snapshots(const Snapshots& a, const Snapshots& b) {
  std::vector<SnapshotChange> out;
  for (const auto& [name, tb] : b.items()) {
    if (!a.has(name)) continue;
    const Tensor& ta = a.get(name);
    if (ta.shape() != tb.shape()) continue;
    const std::vector<double> va = ta.to_vector(), vb = tb.to_vector();
    SnapshotChange c;
    c.name = name;
    double diff2 = 0, norm2 = 0;
    for (std::size_t j = 0; j < va.size(); ++j) {
      const double dlt = vb[j] - va[j];
      // NaN on one side only counts as a change; equal bits (NaN too) do not
      const bool differs = !(va[j] == vb[j]) && !(std::isnan(va[j]) && std::isnan(vb[j]));
      c.changed = c.changed || differs;
      if (differs) c.max_abs = std::max(c.max_abs, std::isnan(dlt) ? INFINITY : std::fabs(dlt));
      diff2 += differs ? dlt * dlt : 0.0;
      norm2 += va[j] * va[j];
    }
    c.rel_norm = norm2 > 0 ? std::sqrt(diff2 / norm2) : (diff2 > 0 ? INFINITY : 0.0);
    out.push_back(c);
  }
  return out;
}

std::vector<NextByte> top_next(const Tensor& logits, int64_t position, int64_t k) {
  const int64_t n = logits.size(1), vocab = logits.size(2);
  if (position < 0 || position >= n) throw Error("top_next: position " + std::to_string(position) + " is outside 0.." + std::to_string(n - 1));
  k = std::clamp<int64_t>(k, 1, vocab);
  std::vector<double> p;
  {
    NoGradGuard no_grad;
    p = softmax(slice(slice(logits, 0, 0, 1), 1, position, position + 1), -1).to_vector();  // (V,)
  }
  std::vector<int32_t> order(static_cast<std::size_t>(vocab));
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int32_t x, int32_t y) { return p[x] > p[y] || (p[x] == p[y] && x < y); });
  std::vector<NextByte> out;
  for (int64_t i = 0; i < k; ++i) out.push_back({order[i], p[order[i]]});
  return out;
}

}  // namespace glass::nn
