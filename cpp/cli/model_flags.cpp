#include "cli/model_flags.h"

#include "glass/tensor/error.h"

namespace glass::cli {

const std::set<std::string> kModelFlags = {"blocks", "d", "heads", "ctx", "norm", "norm-kind", "eps", "init-scale", "dtype"};
const std::set<std::string> kModelSwitches = {"no-residual"};

std::set<std::string> with_model_flags(std::set<std::string> known) {
  known.insert(kModelFlags.begin(), kModelFlags.end());
  return known;
}

namespace {
template <class Parse>
auto word(const Args& args, const std::string& flag, Parse parse, decltype(parse("")) fallback) {
  auto v = args.text_or(flag);
  if (!v) return fallback;
  try {
    return parse(*v);
  } catch (const Error& e) {
    std::string msg = e.what();
    if (msg.starts_with("Config: ")) msg = msg.substr(8);
    throw UsageError{"--" + flag + ": " + msg};
  }
}
}  // namespace

nn::Config config_from_flags(const Args& args) {
  nn::Config c;
  c.blocks = args.integer("blocks", c.blocks, nn::kBlocksRange.min, nn::kBlocksRange.max);
  c.d = args.integer("d", c.d, nn::kDRange.min, nn::kDRange.max);
  c.heads = args.integer("heads", c.heads, 1, c.d);
  c.context = args.integer("ctx", c.context, nn::kContextRange.min, nn::kContextRange.max);
  c.hidden = 3 * c.d;
  c.norm = word(args, "norm", nn::parse_placement, c.norm);
  c.norm_kind = word(args, "norm-kind", nn::parse_norm_kind, c.norm_kind);
  c.residual = !args.has("no-residual");
  c.eps = args.number("eps", c.eps, 0, 1e6);
  c.init_scale = word(args, "init-scale", nn::parse_init_scale, c.init_scale);
  c.dtype = args.dtype("dtype", c.dtype);
  if (c.d % c.heads != 0 || c.head_dim() % 2 != 0)
    throw UsageError{"--heads must divide --d into an even head width (RoPE rotates pairs): d " + std::to_string(c.d) +
                     ", heads " + std::to_string(c.heads) +
                     (c.d % c.heads ? "" : ", width " + std::to_string(c.head_dim()))};
  try {
    c.validate();
  } catch (const Error& e) {
    throw UsageError{e.what()};
  }
  return c;
}

std::string describe_config(const nn::Config& c) {
  std::string norm = c.norm == nn::NormPlacement::none ? "no norms"
                     : std::string(nn::placement_name(c.norm)) + "-norm " +
                           (c.norm_kind == nn::NormKind::rms ? "RMSNorm" : "LayerNorm");
  return std::to_string(c.blocks) + " blocks, d " + std::to_string(c.d) + ", " + std::to_string(c.heads) + " heads, " +
         norm + (c.residual ? ", residuals" : ", no residuals");
}

void refuse_model_flags(const Args& args, const std::string& source, const std::set<std::string>& allowed) {
  std::set<std::string> all = kModelFlags;
  all.insert(kModelSwitches.begin(), kModelSwitches.end());
  for (const std::string& flag : all)
    if (!allowed.count(flag) && args.has(flag)) throw UsageError{"--" + flag + " cannot be used with " + source};
}

}  // namespace glass::cli
