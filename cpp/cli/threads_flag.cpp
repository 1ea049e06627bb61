#include "cli/threads_flag.h"

#include "glass/tensor/thread_pool.h"

namespace glass::cli {

std::set<std::string> with_threads_flag(std::set<std::string> known) {
  known.insert("threads");
  return known;
}

int apply_threads_flag(const Args& args) {
  const auto n = static_cast<int>(args.integer("threads", hardware_threads(), 1, max_threads()));
  set_threads(n);
  return n;
}

}  // namespace glass::cli
