#pragma once
// A one-line terminal progress bar with ETA, redrawn in place on a TTY and
// printed as plain periodic lines otherwise (CI logs).
#include <cstdint>
#include <string>

namespace glass::cli {

class ProgressBar {
 public:
  explicit ProgressBar(int64_t total);
  // done of total, plus a free-form status ("loss 1.234  tok/s 9000").
  void update(int64_t done, double eta_seconds, const std::string& status);
  void message(const std::string& line);  // a line above the bar
  void finish();

 private:
  int64_t total_;
  bool tty_;
  int64_t last_printed_ = -1;
};

std::string format_duration(double seconds);  // "1h02m", "3m05s", "42s"

}  // namespace glass::cli
