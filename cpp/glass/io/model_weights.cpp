#include "glass/io/model_weights.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cctype>
#include <memory>
#include <set>

#include "glass/io/config_json.h"
#include "glass/tensor/error.h"

namespace glass::io {

std::vector<uint8_t> save_weights(nn::Model& model, const std::map<std::string, std::string>& metadata) {
  std::map<std::string, std::string> meta = metadata;
  meta[kConfigKey] = config_to_json(model.config());
  meta.emplace("format", "glassllm");
  NamedTensors tensors = model.named_parameters();
  for (auto& [name, t] : tensors) t = t.detach();
  return serialize_safetensors(tensors, meta);
}

namespace {

std::map<std::string, Tensor> by_name(const NamedTensors& tensors) {
  std::map<std::string, Tensor> found;
  for (const auto& [name, t] : tensors)
    if (!found.emplace(name, t).second) throw Error("weights: tensor \"" + name + "\" appears twice");
  return found;
}

std::string variant_of(const nn::Config& c) {
  return std::string(nn::placement_name(c.norm)) + "-norm, " + std::string(nn::norm_kind_name(c.norm_kind)) +
         (c.residual ? ", residuals" : ", no residuals");
}

// The config of a file that has none: the default architecture, sizes from shapes.
nn::Config legacy_config(const SafetensorsFile& file) {
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
  // the whole value must be the number: "4x", " 4" and "" are refused, not read as 4 or 0
  auto meta_int = [&](const char* key, int64_t fallback) {
    auto it = file.metadata.find(key);
    if (it == file.metadata.end()) return fallback;
    const std::string& v = it->second;
    int64_t x = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size())
      throw Error(std::string("weights: metadata \"") + key + "\" is not a whole number: \"" + v.substr(0, 40) + "\"");
    return x;
  };
  c.heads = meta_int("heads", c.heads);
  c.context = meta_int("context", c.context);
  if (auto it = file.metadata.find("rope_base"); it != file.metadata.end()) {
    const std::string& v = it->second;
    char* end = nullptr;
    const double x = v.empty() || std::isspace(static_cast<unsigned char>(v[0])) ? NAN : std::strtod(v.c_str(), &end);
    if (std::isnan(x) || end != v.c_str() + v.size())
      throw Error("weights: metadata \"rope_base\" is not a number: \"" + v.substr(0, 40) + "\"");
    c.rope_base = x;  // infinity and out-of-range values are validate()'s to refuse
  }
  if (!file.tensors.empty()) c.dtype = file.tensors.front().second.dtype();
  try {
    c.validate();
  } catch (const Error& e) {
    throw Error(std::string("weights: ") + e.what());
  }
  return c;
}

// The sizes a config gives the tensors that carry them, checked before a
// model is built, so a message can name the field.
void check_sizes(const nn::Config& c, const SafetensorsFile& file) {
  std::map<std::string, Tensor> found;
  for (const auto& [name, t] : file.tensors) found.emplace(name, t);
  auto expect = [&](const std::string& name, const Shape& want, const std::string& fields) {
    auto it = found.find(name);
    if (it == found.end()) throw Error("weights: missing tensor \"" + name + "\" (expected shape " + to_string(want) + ")");
    if (it->second.shape() != want)
      throw Error("weights: the file's config says " + fields + " but \"" + name + "\" has shape " +
                  to_string(it->second.shape()) + ", not " + to_string(want));
  };
  const std::string vd = "vocab " + std::to_string(c.vocab) + ", d " + std::to_string(c.d);
  expect("tok_emb.weight", {c.vocab, c.d}, vd);
  expect("head.weight", {c.vocab, c.d}, vd);
  expect("blocks.0.ffn.w_gate.weight", {c.hidden, c.d}, "hidden " + std::to_string(c.hidden) + ", d " + std::to_string(c.d));
  int64_t blocks = 0;  // 1 + the highest block index any tensor names
  for (const auto& [name, t] : file.tensors) {
    if (!name.starts_with("blocks.")) continue;
    const std::size_t dot = name.find('.', 7);
    const std::string index = name.substr(7, dot == std::string::npos ? std::string::npos : dot - 7);
    if (index.empty() || index.size() > 4 || !std::all_of(index.begin(), index.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
      throw Error("weights: unexpected tensor \"" + name + "\" (not a parameter of this model)");
    blocks = std::max<int64_t>(blocks, std::stoll(index) + 1);
  }
  if (blocks != c.blocks)
    throw Error("weights: the file's config says blocks " + std::to_string(c.blocks) + " but its tensors name " +
                std::to_string(blocks) + " blocks (blocks.0 ... blocks." + std::to_string(blocks - 1) + ")");
  for (const auto& [name, t] : file.tensors)
    if (t.dtype() != c.dtype)
      throw Error("weights: the file's config says dtype " + std::string(dtype_name(c.dtype)) + " but \"" + name +
                  "\" is " + std::string(dtype_name(t.dtype())));
}

}  // namespace

nn::Config config_of(const SafetensorsFile& file) {
  auto it = file.metadata.find(kConfigKey);
  if (it == file.metadata.end()) {
    const nn::Config c = legacy_config(file);
    check_sizes(c, file);  // the shapes it was read from must agree with each other too
    return c;
  }
  nn::Config c;
  try {
    c = config_from_json(it->second);
  } catch (const Error& e) {
    throw Error(std::string("weights: ") + e.what());
  }
  // keys older files carried beside it must not disagree with it
  for (const auto& [key, value] : std::map<std::string, std::string>{
           {"heads", std::to_string(c.heads)}, {"context", std::to_string(c.context)}}) {
    auto old = file.metadata.find(key);
    if (old != file.metadata.end() && old->second != value)
      throw Error("weights: metadata \"" + key + "\" is \"" + old->second + "\" but the file's config says " + key +
                  " " + value);
  }
  check_sizes(c, file);
  return c;
}

nn::Config config_from_weights(std::span<const uint8_t> bytes) { return config_of(parse_safetensors(bytes)); }

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
    if (!expected.count(name))
      throw Error("weights: unexpected tensor \"" + name + "\" (not a parameter of this model: " +
                  variant_of(model.config()) + ")");
}

void load_weights(nn::Model& model, std::span<const uint8_t> bytes) {
  const SafetensorsFile file = parse_safetensors(bytes);
  const bool has_config = file.metadata.count(kConfigKey) > 0;
  nn::Config file_cfg = model.config();  // without a config: the default variant, sizes checked by shape below
  if (has_config) {
    file_cfg = config_of(file);
  } else {
    file_cfg.norm = nn::Config{}.norm;
    file_cfg.norm_kind = nn::Config{}.norm_kind;
    file_cfg.residual = nn::Config{}.residual;
  }
  const std::string diff = config_difference(file_cfg, model.config(), ConfigFields::architecture);
  if (!diff.empty())
    throw Error("weights: the file's model differs from this one in " + diff + " (file vs model)" +
                (has_config ? "" : "; a file without \"" + std::string(kConfigKey) + "\" is the default model"));
  load_weights(model, file.tensors);
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

std::unique_ptr<nn::Model> load_model(std::span<const uint8_t> bytes, DType dtype) {
  const SafetensorsFile file = parse_safetensors(bytes);
  nn::Config cfg = config_of(file);
  cfg.dtype = dtype;
  auto model = std::make_unique<nn::Model>(cfg);
  load_weights(*model, file.tensors);
  return model;
}

std::vector<NonFinite> non_finite_parameters(nn::Model& model) {
  std::vector<NonFinite> out;
  model.visit([&](const std::string& name, Tensor& p) {
    const Tensor c = p.contiguous();
    int64_t bad = 0;
    dispatch(c.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* v = c.template data<T>();
      for (int64_t i = 0; i < c.numel(); ++i) bad += std::isfinite(v[i]) ? 0 : 1;
    });
    if (bad > 0) out.push_back({name, bad, c.numel()});
  });
  return out;
}

std::string non_finite_warning(const std::vector<NonFinite>& found) {
  if (found.empty()) return "";
  constexpr std::size_t kShown = 8;
  std::string names;
  for (std::size_t i = 0; i < found.size() && i < kShown; ++i) {
    const NonFinite& f = found[i];
    names += (i ? ", " : "") + f.name + " (" +
             (f.count == f.numel ? "all " + std::to_string(f.numel) : std::to_string(f.count) + " of " + std::to_string(f.numel)) +
             ")";
  }
  if (found.size() > kShown) names += " and " + std::to_string(found.size() - kShown) + " more";
  const std::string what = found.size() == 1 ? "1 parameter holds" : std::to_string(found.size()) + " parameters hold";
  return "weights: " + what + " NaN or infinite values: " + names +
         "; every output computed from them will be NaN or infinite";
}

}  // namespace glass::io
