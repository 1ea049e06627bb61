#include "cli/args.h"

#include <cmath>
#include <cstdlib>

#include "glass/tensor/error.h"

namespace glass::cli {

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& known,
           const std::set<std::string>& switches) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.rfind("--", 0) != 0) throw UsageError{"unexpected argument '" + a + "' (flags look like --name value)"};
    const std::string name = a.substr(2);
    if (!known.count(name) && !switches.count(name)) throw UsageError{"unknown flag '" + a + "'"};
    if (values_.count(name)) throw UsageError{"flag '" + a + "' given twice"};
    if (switches.count(name)) {
      values_[name] = "";
      continue;
    }
    if (i + 1 >= argv.size()) throw UsageError{"flag '" + a + "' needs a value"};
    values_[name] = argv[++i];
  }
}

std::string Args::text(const std::string& flag) const {
  auto v = text_or(flag);
  if (!v) throw UsageError{"missing --" + flag};
  return *v;
}

std::optional<std::string> Args::text_or(const std::string& flag) const {
  auto it = values_.find(flag);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

int64_t Args::integer(const std::string& flag, int64_t fallback, int64_t min, int64_t max) const {
  auto v = text_or(flag);
  if (!v) return fallback;
  char* end = nullptr;
  const long long x = std::strtoll(v->c_str(), &end, 10);
  if (v->empty() || *end != '\0')
    throw UsageError{"--" + flag + " must be a whole number, got '" + *v + "'"};
  if (x < min || x > max)
    throw UsageError{"--" + flag + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                     ", got " + *v};
  return x;
}

double Args::number(const std::string& flag, double fallback, double min, double max) const {
  auto v = text_or(flag);
  if (!v) return fallback;
  char* end = nullptr;
  const double x = std::strtod(v->c_str(), &end);
  if (v->empty() || *end != '\0' || !std::isfinite(x))
    throw UsageError{"--" + flag + " must be a finite number, got '" + *v + "'"};
  if (x < min || x > max)
    throw UsageError{"--" + flag + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                     ", got " + *v};
  return x;
}

DType Args::dtype(const std::string& flag, DType fallback) const {
  auto v = text_or(flag);
  if (!v) return fallback;
  try {
    return parse_dtype(*v);
  } catch (const Error& e) {
    throw UsageError{"--" + flag + ": " + e.what()};
  }
}

}  // namespace glass::cli
