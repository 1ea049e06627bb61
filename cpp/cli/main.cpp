// glassllm: the native command line for the GlassLLM model.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/commands.h"
#include "glass/tensor/error.h"

namespace {

constexpr const char* kUsage = R"(usage: glassllm <command> [flags]

commands:
  info      --weights W
  inspect   --weights W --text T [--eps E] [--dtype f32|f64] [--json OUT]
  generate  --weights W --prompt P [--tokens N] [--temperature T] [--top-k K] [--seed S]
  train     --text FILE --out W [--steps N] [--batch B] [--lr LR] [--seed S] [--resume W.ckpt]
            [--warmup N] [--eval-every N] [--clip C] [--log-json LOG] [model flags]
  init      --out W [--seed S] [model flags]
  interp    --weights W --text T [--eps E] [--dtype f32|f64] [--intervene LIST] [--grad-check TARGET:INDEX[:DELTA]] [--json OUT]
  bench     [--runs N] [--warmup N] [--batch B] [--seed S] [--weights W [--ctx N] [--dtype D] | model flags]

--threads N on inspect, interp, generate, train and bench: the threads the core computes on (1-256,
default: the machine's cores); results are the same for every count.
model flags (the default model without them; inspect, generate and info use the file's own config):
  --blocks N (1-24, default 4)   --d N (16-256, default 128)   --heads N (divides d, even width; default 4)
  --ctx N (context, 2-256, default 128)   --norm pre|post|none   --norm-kind rms|layer   --no-residual
  --eps E (0-1e6, default 1e-6)   --init-scale depth|flat   --dtype f32|f64

files: inputs must be regular files of at most 1 GiB; outputs are checked for writability before
any work starts and written whole (via W.tmp, removed on failure). Numbers must be written whole:
"12x", " 5" and "" are refused.
)";

}  // namespace

int main(int argc, char** argv) {
  using namespace glass::cli;
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
  const Argv rest(argv + 2, argv + argc);
  try {
    if (command == "info") return run_info(rest);
    if (command == "inspect") return run_inspect(rest);
    if (command == "generate") return run_generate(rest);
    if (command == "train") return run_train(rest);
    if (command == "init") return run_init(rest);
    if (command == "bench") return run_bench(rest);
    if (command == "interp") return run_interp(rest);
    std::fprintf(stderr, "glassllm: unknown command '%s'\n\n%s", command.c_str(), kUsage);
    return 2;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "glassllm %s: %s\n\n%s", command.c_str(), e.message.c_str(), kUsage);
    return 2;
  } catch (const glass::Error& e) {
    std::fprintf(stderr, "glassllm %s: %s\n", command.c_str(), e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "glassllm %s: unexpected error: %s\n", command.c_str(), e.what());
    return 1;
  }
}
