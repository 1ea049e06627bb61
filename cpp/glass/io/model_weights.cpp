#include "glass/io/model_weights.h"

#include <algorithm>
#include <set>

#include "glass/io/safetensors.h"
#include "glass/tensor/error.h"

namespace glass::io {

std::vector<uint8_t> save_weights(nn::Model& model, const std::map<std::string, std::string>& metadata) {
  std::map<std::string, std::string> meta = metadata;
  const nn::Config& c = model.config();
  meta.emplace("heads", std::to_string(c.heads));
  meta.emplace("context", std::to_string(c.context));
  meta.emplace("rope_base", std::to_string(c.rope_base));
  meta.emplace("format", "glassllm");
  NamedTensors tensors = model.named_parameters();
  for (auto& [name, t] : tensors) t = t.detach();
  return serialize_safetensors(tensors, meta);
}

void load_weights(nn::Model& model, std::span<const uint8_t> bytes) { load_weights(model, parse_safetensors(bytes).tensors); }

namespace {
std::map<std::string, Tensor> by_name(const NamedTensors& tensors) {
  std::map<std::string, Tensor> found;
  for (const auto& [name, t] : tensors)
    if (!found.emplace(name, t).second) throw Error("weights: tensor \"" + name + "\" appears twice");
  return found;
}
}  // namespace

void check_weights(nn::Model& model, const NamedTensors& tensors) {
  const std::map<std::string, Tensor> found = by_name(tensors);
  std::set<std::string> expected;
  model.visit([&](const std::string& name, Tensor& p) {
    expected.insert(name);
    auto it = found.find(name);
    if (it == found.end()) throw Error("weights: missing tensor \"" + name + "\" (expected shape " + to_string(p.shape()) + ")");
    if (it->second.shape() != p.shape())
      throw Error("weights: tensor \"" + name + "\" has shape " + to_string(it->second.shape()) + ", expected " +
                  to_string(p.shape()));
  });
  for (const auto& [name, t] : found)
    if (!expected.count(name)) throw Error("weights: unexpected tensor \"" + name + "\" (not a parameter of this model)");
}

void load_weights(nn::Model& model, const NamedTensors& tensors) {
  check_weights(model, tensors);  // a refused file must leave the model as it was
  const std::map<std::string, Tensor> found = by_name(tensors);
  model.visit([&](const std::string& name, Tensor& p) {
    const Tensor src = found.at(name).to(p.dtype()).contiguous();
    dispatch(p.dtype(), [&](auto tag) {
      using T = decltype(tag);
      std::copy_n(src.data<T>(), p.numel(), p.mutable_data<T>());
    });
  });
}

nn::Config config_from_weights(std::span<const uint8_t> bytes) {
  const SafetensorsFile file = parse_safetensors(bytes);
  std::map<std::string, Shape> shapes;
  for (const auto& [name, t] : file.tensors) shapes[name] = t.shape();
  auto shape_of = [&](const std::string& name, std::size_t rank) {
    auto it = shapes.find(name);
    if (it == shapes.end() || it->second.size() != rank)
      throw Error("weights: cannot read the configuration: \"" + name + "\" is missing or not " +
                  std::to_string(rank) + "-d");
    return it->second;
  };
  nn::Config c;
  const Shape emb = shape_of("tok_emb.weight", 2);
  c.vocab = emb[0];
  c.d = emb[1];
  c.hidden = shape_of("blocks.0.ffn.w_gate.weight", 2)[0];
  int64_t blocks = 0;
  while (shapes.count("blocks." + std::to_string(blocks) + ".norm_attn.gamma")) ++blocks;
  c.blocks = blocks;
  auto meta_int = [&](const char* key, int64_t fallback) {
    auto it = file.metadata.find(key);
    if (it == file.metadata.end()) return fallback;
    try {
      return static_cast<int64_t>(std::stoll(it->second));
    } catch (...) {
      throw Error(std::string("weights: metadata \"") + key + "\" is not a whole number: \"" + it->second + "\"");
    }
  };
  c.heads = meta_int("heads", c.heads);
  c.context = meta_int("context", c.context);
  if (!file.tensors.empty()) c.dtype = file.tensors.front().second.dtype();
  c.validate();
  return c;
}

}  // namespace glass::io
