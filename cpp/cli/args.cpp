#include "cli/args.h"

#include <charconv>
#include <cmath>
#include <string>

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

namespace {
// A bound as a person writes it: 1000000, 100, 0.5, 1e-8 (never 0.000000 or 1e+06):
// whole numbers in full, others in the shortest digits that read back the same.
std::string shown(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  const std::size_t e = s.find('e');
  if (e != std::string::npos) {  // 1e-08 -> 1e-8, 1e+20 -> 1e20
    std::string exp = s.substr(e + 1);
    const bool negative = exp[0] == '-';
    exp.erase(0, exp[0] == '-' || exp[0] == '+' ? 1 : 0);
    exp.erase(0, std::min(exp.find_first_not_of('0'), exp.size() - 1));
    s = s.substr(0, e + 1) + (negative ? "-" : "") + exp;
  }
  return s;
}
}  // namespace

// The whole value must be the number: no leading space or '+', no trailing
// text ("12x", "1e3.5", " 5", "" are refused, never read as 12, 1000, 5 or 0).
int64_t Args::integer(const std::string& flag, int64_t fallback, int64_t min, int64_t max) const {
  auto v = text_or(flag);
  if (!v) return fallback;
  const std::string range = "between " + std::to_string(min) + " and " + std::to_string(max);
  int64_t x = 0;
  const char* first = v->data();
  const char* last = first + v->size();
  const auto [end, ec] = std::from_chars(first, last, x);
  if (ec == std::errc::result_out_of_range && end == last)
    throw UsageError{"--" + flag + " must be " + range + ", got " + *v};
  if (v->empty() || ec != std::errc() || end != last)
    throw UsageError{"--" + flag + " must be a whole number " + range + ", got '" + *v + "'"};
  if (x < min || x > max) throw UsageError{"--" + flag + " must be " + range + ", got " + *v};
  return x;
}

double Args::number(const std::string& flag, double fallback, double min, double max) const {
  auto v = text_or(flag);
  if (!v) return fallback;
  const std::string range = "between " + shown(min) + " and " + shown(max);
  double x = 0;
  const char* first = v->data();
  const char* last = first + v->size();
  const auto [end, ec] = std::from_chars(first, last, x, std::chars_format::general);
  if (v->empty() || (ec != std::errc() && ec != std::errc::result_out_of_range) || end != last)
    throw UsageError{"--" + flag + " must be a finite number " + range + ", got '" + *v + "'"};
  if (ec == std::errc::result_out_of_range) {
    // too far from 0 for a double, or so close to 0 it would read as 0 (or lose precision)
    const std::size_t e = v->find_first_of("eE");
    const bool tiny = e != std::string::npos && e + 1 < v->size() && (*v)[e + 1] == '-';
    throw UsageError{"--" + flag + " " + *v + (tiny ? " is too close to 0 for a double (it would read as 0)"
                                                     : " is too large for a double") +
                     "; it must be " + range};
  }
  if (!std::isfinite(x)) throw UsageError{"--" + flag + " must be a finite number " + range + ", got '" + *v + "'"};
  if (x < min || x > max) throw UsageError{"--" + flag + " must be " + range + ", got " + *v};
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
