#include "cli/progress.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace glass::cli {

ProgressBar::ProgressBar(int64_t total) : total_(total), tty_(isatty(fileno(stderr)) != 0) {}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const auto s = static_cast<int64_t>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%lldh%02lldm", static_cast<long long>(s / 3600), static_cast<long long>(s % 3600 / 60));
  else if (s >= 60) std::snprintf(buf, sizeof buf, "%lldm%02llds", static_cast<long long>(s / 60), static_cast<long long>(s % 60));
  else std::snprintf(buf, sizeof buf, "%llds", static_cast<long long>(s));
  return buf;
}

void ProgressBar::update(int64_t done, double eta_seconds, const std::string& status) {
  constexpr int kWidth = 30;
  const double frac = total_ > 0 ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
  if (!tty_) {
    // without a terminal: one line per 5% (and the last step)
    const int64_t bucket = static_cast<int64_t>(frac * 20);
    if (bucket == last_printed_ && done != total_) return;
    last_printed_ = bucket;
  }
  std::string bar(static_cast<std::size_t>(frac * kWidth), '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "%s[%s] %3d%% %lld/%lld  ETA %s  %s%s", tty_ ? "\r\033[K" : "", bar.c_str(),
               static_cast<int>(frac * 100), static_cast<long long>(done), static_cast<long long>(total_),
               format_duration(eta_seconds).c_str(), status.c_str(), tty_ ? "" : "\n");
  std::fflush(stderr);
}

void ProgressBar::message(const std::string& line) {
  std::fprintf(stderr, "%s%s\n", tty_ ? "\r\033[K" : "", line.c_str());
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (tty_) std::fprintf(stderr, "\n");
}

}  // namespace glass::cli
