#pragma once
// Command-line flags: `--name value` pairs after the command word, and
// switches (`--no-residual`) that take no value. Every accessor names the flag
// in its error, and unknown flags are refused, so a typo never silently falls
// back to a default.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "glass/tensor/dtype.h"

namespace glass::cli {

class Args {
 public:
  // argv after the command; `known` lists the flags this command accepts,
  // `switches` those of them that take no value.
  Args(const std::vector<std::string>& argv, const std::set<std::string>& known,
       const std::set<std::string>& switches = {});

  std::string text(const std::string& flag) const;  // required
  std::optional<std::string> text_or(const std::string& flag) const;
  int64_t integer(const std::string& flag, int64_t fallback, int64_t min, int64_t max) const;
  double number(const std::string& flag, double fallback, double min, double max) const;
  // f32/float32 or f64/float64; anything else is a usage error naming the value.
  DType dtype(const std::string& flag, DType fallback) const;
  bool has(const std::string& flag) const { return values_.count(flag) > 0; }  // given (a switch: set)

 private:
  std::map<std::string, std::string> values_;
};

// Thrown for a usage problem: the message plus the command's usage text.
struct UsageError {
  std::string message;
};

}  // namespace glass::cli
