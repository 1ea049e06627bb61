#pragma once
// Every bad input becomes a glass::Error whose message names the op, the shapes
// involved and the likely cause. Nothing in the core calls abort() or exit():
// the core runs inside a web page, and a message is all the learner gets.
#include <stdexcept>
#include <string>

namespace glass {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace glass
