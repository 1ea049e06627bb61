#pragma once
// --threads N on every command that computes (inspect, interp, generate, train,
// bench): the threads the core's kernels use, 1 to the core's maximum; the
// default is the machine's cores. Results are the same for every count
// (glass/tensor/thread_pool.h), only the time changes.
#include <set>
#include <string>

#include "cli/args.h"

namespace glass::cli {

// known + "threads"
std::set<std::string> with_threads_flag(std::set<std::string> known);

// Sets the core's thread count from --threads (or the default) and returns it.
int apply_threads_flag(const Args& args);

}  // namespace glass::cli
