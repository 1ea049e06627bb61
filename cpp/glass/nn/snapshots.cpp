#include "glass/nn/snapshots.h"

#include <regex>

#include "glass/tensor/error.h"

namespace glass::nn {

void Snapshots::add(const std::string& name, Tensor t) {
  t.retain_grad();
  items_.emplace_back(name, std::move(t));
}

bool Snapshots::has(const std::string& name) const {
  const std::string key = resolve_alias(name);
  for (const auto& [n, t] : items_)
    if (n == key) return true;
  return false;
}

const Tensor& Snapshots::get(const std::string& name) const {
  const std::string key = resolve_alias(name);
  for (const auto& [n, t] : items_)
    if (n == key) return t;
  std::string known;
  for (const auto& [n, t] : items_) known += (known.empty() ? "" : ", ") + n;
  throw Error("snapshot '" + name + "' does not exist; known: " + known);
}

std::string resolve_alias(const std::string& name) {
  static const std::regex alias(R"(blocks\.(\d+)\.hook_resid_(pre|mid|post))");
  std::smatch m;
  if (!std::regex_match(name, m, alias)) return name;
  const int block = std::stoi(m[1]);
  if (m[2] == "mid") return "blocks." + std::to_string(block) + ".resid.attn";
  if (m[2] == "post") return "blocks." + std::to_string(block) + ".resid.ffn";
  // resid_pre of block 0 is the embedding; of block i, the previous block's output
  return block == 0 ? "embed" : "blocks." + std::to_string(block - 1) + ".resid.ffn";
}

}  // namespace glass::nn
