#include "glass/nn/snapshots.h"

#include <regex>

#include "glass/tensor/error.h"

namespace glass::nn {

void Snapshots::add(const std::string& name, Tensor t, bool stream) {
  if (stream_only_ && !stream) return;
  if (!stream_only_) t.retain_grad();
  if (stream) stream_.push_back(items_.size());
  items_.emplace_back(name, std::move(t));
}

std::vector<std::string> Snapshots::stream() const {
  std::vector<std::string> names;
  for (std::size_t i : stream_) names.push_back(items_[i].first);
  return names;
}

namespace {
// (block, 0 pre / 1 mid / 2 post) of a TransformerLens name, or block -1
std::pair<int, int> parse_alias(const std::string& name) {
  static const std::regex alias(R"(blocks\.(\d{1,4})\.hook_resid_(pre|mid|post))");
  std::smatch m;
  if (!std::regex_match(name, m, alias)) return {-1, 0};
  return {std::stoi(m[1]), m[2] == "pre" ? 0 : m[2] == "mid" ? 1 : 2};
}
}  // namespace

std::string Snapshots::resolve(const std::string& name) const {
  const auto [block, where] = parse_alias(name);
  if (block < 0) return name;
  const std::size_t at = 2 * static_cast<std::size_t>(block) + static_cast<std::size_t>(where);
  return at < stream_.size() ? items_[stream_[at]].first : name;
}

bool Snapshots::has(const std::string& name) const {
  const std::string key = resolve(name);
  for (const auto& [n, t] : items_)
    if (n == key) return true;
  return false;
}

const Tensor& Snapshots::get(const std::string& name) const {
  const std::string key = resolve(name);
  for (const auto& [n, t] : items_)
    if (n == key) return t;
  std::string known;
  for (const auto& [n, t] : items_) known += (known.empty() ? "" : ", ") + n;
  throw Error("snapshot '" + name + "' does not exist; known: " + known);
}

std::string resolve_alias(const std::string& name) {
  const auto [block, where] = parse_alias(name);
  if (block < 0) return name;
  if (where == 1) return "blocks." + std::to_string(block) + ".resid.attn";
  if (where == 2) return "blocks." + std::to_string(block) + ".resid.ffn";
  // resid_pre of block 0 is the embedding; of block i, the previous block's output
  return block == 0 ? "embed" : "blocks." + std::to_string(block - 1) + ".resid.ffn";
}

}  // namespace glass::nn
