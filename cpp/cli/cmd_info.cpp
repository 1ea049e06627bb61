// glassllm info --weights W: the configuration (the file's own) and a
// parameter table by kind, every figure counted from the loaded model.
#include <cstdio>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/load_model.h"
#include "cli/model_flags.h"

namespace glass::cli {

int run_info(const Argv& argv) {
  const Args args(argv, {"weights"});
  auto model = load_model(args.text("weights"), DType::f32);
  const nn::Config& c = model->config();
  std::printf("configuration\n");
  std::printf("  vocab %lld  context %lld  d %lld  blocks %lld  heads %lld (width %lld)  hidden %lld  eps %g  rope base %g\n",
              static_cast<long long>(c.vocab), static_cast<long long>(c.context), static_cast<long long>(c.d),
              static_cast<long long>(c.blocks), static_cast<long long>(c.heads), static_cast<long long>(c.head_dim()),
              static_cast<long long>(c.hidden), c.eps, c.rope_base);
  std::printf("  norm %s  norm-kind %s  residual %s  init-scale %s\n  %s\n",
              std::string(nn::placement_name(c.norm)).c_str(), std::string(nn::norm_kind_name(c.norm_kind)).c_str(),
              c.residual ? "on" : "off", std::string(nn::init_scale_name(c.init_scale)).c_str(),
              describe_config(c).c_str());
  std::printf("\nparameters by kind\n  %-10s %8s %12s\n", "kind", "tensors", "parameters");
  for (const nn::ParamGroup& g : model->parameter_table())
    std::printf("  %-10s %8lld %12lld\n", g.kind.c_str(), static_cast<long long>(g.tensors), static_cast<long long>(g.params));
  std::printf("  %-10s %8s %12lld\n", "total", "", static_cast<long long>(model->parameter_count()));
  std::printf("\nper block\n");
  for (int64_t i = 0; i < c.blocks; ++i)
    std::printf("  blocks.%lld %12lld\n", static_cast<long long>(i), static_cast<long long>(model->block_parameter_count(i)));
  const char* norms = c.norm == nn::NormPlacement::none ? "norms" : c.norm_kind == nn::NormKind::rms ? "RMSNorms" : "LayerNorms";
  std::printf("\n%s: %lld\n", norms, static_cast<long long>(model->norm_count()));
  return 0;
}

}  // namespace glass::cli
