// glassllm init --out W [--seed S] [model flags]
// Writes a model's random initial weights (the same initialisation `train`
// starts from) as safetensors, with its config in the metadata. Without model
// flags it is the default model. The reference comparison (tests/reference/)
// uses it when there are no trained weights.
#include <cstdio>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/model_flags.h"
#include "glass/io/model_weights.h"
#include "glass/io/safetensors.h"
#include "glass/nn/model.h"

namespace glass::cli {

int run_init(const Argv& argv) {
  const Args args(argv, with_model_flags({"out", "seed"}), kModelSwitches);
  const std::string out = args.text("out");
  const auto seed = static_cast<uint64_t>(args.integer("seed", 0, 0, INT64_MAX));
  const nn::Config cfg = config_from_flags(args);
  io::check_writable(out, "--out");
  nn::Model model(cfg, seed);
  const std::vector<uint8_t> bytes = io::save_weights(model, {{"init_seed", std::to_string(seed)}});
  io::write_file(out, bytes);
  std::printf("wrote %s: random init, seed %llu, %lld parameters (%s, %zu bytes)\n", out.c_str(),
              static_cast<unsigned long long>(seed), static_cast<long long>(model.parameter_count()),
              std::string(dtype_name(cfg.dtype)).c_str(), bytes.size());
  return 0;
}

}  // namespace glass::cli
