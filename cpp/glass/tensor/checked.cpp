#include "glass/tensor/checked.h"

#include <algorithm>
#include <limits>

#include "glass/tensor/error.h"

namespace glass {

namespace {

thread_local int64_t current_cap = kMaxElements;

std::string limit_text() {
  return "the " + std::to_string(max_elements()) + " elements a tensor may have (the core's size limit)";
}

}  // namespace

int64_t max_elements() { return current_cap; }

LowerElementCap::LowerElementCap(int64_t cap) : previous_(current_cap) {
  current_cap = std::clamp<int64_t>(cap, 0, previous_);
}

LowerElementCap::~LowerElementCap() { current_cap = previous_; }

namespace {

// The element count of a shape within the cap (true), or false; never wraps.
bool count_within_cap(const Shape& shape, int64_t& n) {
  const int64_t cap = max_elements();
  int64_t bound = 1;  // product of the sizes, zeros counted as 1
  bool zero = false;
  for (int64_t s : shape) {
    if (s < 0) return false;
    if (s == 0) {
      zero = true;
      continue;
    }
    if (__builtin_mul_overflow(bound, s, &bound) || bound > cap) return false;
  }
  n = zero ? 0 : bound;
  return true;
}

}  // namespace

std::string size_problem(const Shape& shape) {
  int64_t n = 0;
  if (count_within_cap(shape, n)) return {};
  int64_t bound = 1;
  bool zero = false, overflow = false;
  for (int64_t s : shape) {
    if (s < 0) return "has a negative size";
    if (s == 0) zero = true;
    else if (!overflow && __builtin_mul_overflow(bound, s, &bound)) overflow = true;
  }
  const std::string count = overflow ? "more than a 64-bit count holds" : std::to_string(bound);
  if (zero) return "has no elements, but its other sizes multiply to " + count + ", more than " + limit_text();
  if (overflow) return "has more elements than a 64-bit count holds, far more than " + limit_text();
  return "has " + count + " elements, more than " + limit_text();
}

int64_t checked_numel(const char* op, const Shape& shape) {
  int64_t n = 0;
  if (!count_within_cap(shape, n))
    throw Error(std::string(op) + ": shape " + to_string(shape) + " " + size_problem(shape));
  return n;
}

namespace {
// "<op>: <what> is <a> <sign> <b> = <out>, more than ..." with out, or on an overflow without it
int64_t checked_op(const char* op, int64_t a, int64_t b, const char* what, char sign, bool overflow, int64_t out) {
  const std::string sum = std::string(op) + ": " + what + " is " + std::to_string(a) + " " + sign + " " + std::to_string(b);
  if (a < 0 || b < 0) throw Error(sum + ", which has a negative size");
  if (overflow) throw Error(sum + ", more than a 64-bit count holds (far more than " + limit_text() + ")");
  if (out > max_elements()) throw Error(sum + " = " + std::to_string(out) + ", more than " + limit_text());
  return out;
}
}  // namespace

int64_t checked_mul(const char* op, int64_t a, int64_t b, const char* what) {
  int64_t out = 0;
  const bool overflow = __builtin_mul_overflow(a, b, &out);
  return checked_op(op, a, b, what, 'x', overflow, out);
}

int64_t checked_add(const char* op, int64_t a, int64_t b, const char* what) {
  int64_t out = 0;
  const bool overflow = __builtin_add_overflow(a, b, &out);
  return checked_op(op, a, b, what, '+', overflow, out);
}

std::size_t checked_bytes(const char* op, int64_t n, DType dtype) {
  // n <= kMaxElements, whose bytes fit size_t on every platform (see checked.h);
  // checked anyway, since a Storage can be made directly
  constexpr auto kMaxBytes = std::numeric_limits<std::size_t>::max();
  if (n < 0 || n > max_elements() || static_cast<uint64_t>(n) > kMaxBytes / dtype_size(dtype))
    throw Error(std::string(op) + ": " + std::to_string(n) + " elements of " + std::string(dtype_name(dtype)) +
                " are " + (n < 0 ? "a negative count" : "more than " + limit_text()));
  return static_cast<std::size_t>(n) * dtype_size(dtype);
}

}  // namespace glass
