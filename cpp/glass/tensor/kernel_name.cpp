#include "glass/tensor/kernel_name.h"

#include <cxxabi.h>

#include <array>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

namespace glass {

namespace {

// The pool's helpers and the shapes of code that wrap a kernel, never the kernel.
constexpr std::array<std::string_view, 9> kWrappers = {"parallel_for", "parallel_ranges", "over_elements",
                                                        "for_each_line", "binary_map",      "unary_map",
                                                        "dispatch",      "operator",        "lambda"};

bool is_wrapper(std::string_view name) {
  for (std::string_view w : kWrappers)
    if (name == w) return true;
  return false;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// s[at] is `open`: the index just past its match (s.size() if unbalanced)
std::size_t past_group(std::string_view s, std::size_t at, char open, char close) {
  int depth = 0;
  for (std::size_t i = at; i < s.size(); ++i) {
    if (s[i] == open) ++depth;
    if (s[i] == close && --depth == 0) return i + 1;
  }
  return s.size();
}

// "(glass::Tensor const&, double)" -> "(Tensor, double)"; long lists -> ""
std::string short_arguments(std::string_view list) {
  std::string out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list.substr(i, 7) == "glass::") {
      i += 6;
      continue;
    }
    if (list.substr(i, 6) == " const") {
      i += 5;
      continue;
    }
    if (list[i] == '&' || list[i] == '*') continue;
    out += list[i];
  }
  return out.size() <= 32 ? out : "";
}

// What follows a function's arguments: is it a lambda of that function given
// the inputs' gradients to fill, (std::vector<glass::Tensor>&, ...), a
// backward rule? g++ spells a lambda "::{lambda(...)", clang (the wasm build)
// "::$_N::operator()(...)"; libc++'s vector is std::__2::vector.
bool is_backward_rule(std::string_view rest) {
  std::size_t open = std::string_view::npos;
  if (rest.starts_with("::{lambda(")) {
    open = 9;
  } else if (rest.starts_with("::$_")) {
    std::size_t at = 4;
    while (at < rest.size() && std::isdigit(static_cast<unsigned char>(rest[at])) != 0) ++at;
    if (rest.substr(at).starts_with("::operator()(")) open = at + 12;
  }
  if (open == std::string_view::npos) return false;
  const std::string_view params = rest.substr(open, past_group(rest, open, '(', ')') - open);
  return params.find("vector<glass::Tensor") != std::string_view::npos;
}

}  // namespace

std::string kernel_name(const char* mangled) {
  if (mangled == nullptr) return "(unnamed)";
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> plain(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
  const std::string_view s = status == 0 && plain ? std::string_view(plain.get()) : std::string_view(mangled);
  // each identifier in turn; a function is one followed by its arguments,
  // perhaps after template arguments
  for (std::size_t i = 0; i < s.size();) {
    if (!word_char(s[i]) || (i > 0 && word_char(s[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < s.size() && word_char(s[end])) ++end;
    const std::string_view name = s.substr(i, end - i);
    std::size_t next = end;
    if (next < s.size() && s[next] == '<') next = past_group(s, next, '<', '>');
    const bool called = next < s.size() && s[next] == '(' && std::isdigit(static_cast<unsigned char>(name[0])) == 0;
    if (!called || is_wrapper(name)) {
      i = end;
      continue;
    }
    const std::size_t close = past_group(s, next, '(', ')');
    std::string out(name);
    out += short_arguments(s.substr(next, close - next));
    if (is_backward_rule(s.substr(close))) out += " backward";
    return out;
  }
  return std::string(s);
}

}  // namespace glass
