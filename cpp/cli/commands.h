#pragma once
// The glassllm subcommands. Each takes the arguments after its name, prints
// its result to stdout and returns the process exit code; usage problems are
// thrown as UsageError, anything else as glass::Error.
#include <string>
#include <vector>

namespace glass::cli {

using Argv = std::vector<std::string>;

int run_info(const Argv& args);
int run_inspect(const Argv& args);
int run_generate(const Argv& args);
int run_train(const Argv& args);
int run_init(const Argv& args);
int run_bench(const Argv& args);
int run_interp(const Argv& args);

}  // namespace glass::cli
