#pragma once
// Shared by the libFuzzer targets in this folder (built by the `fuzz` preset,
// run by scripts/fuzz.sh): decoding the fuzzer's bytes into sizes, shapes and
// values, and the oracle's plumbing.
//
// Every target follows one rule: an op either throws a glass::Error whose
// message starts with the op's name, or returns a result whose shape, count
// and values match what the target computes on its own (plain loops over
// row-major arrays, never the core's helpers). Anything else (a wrong value, a
// missing error, another exception, a sanitizer report) aborts: a crash.
//
// Each input first lowers the core's element cap (LowerElementCap) to a value
// it decodes, at most kFuzzCap: sizes past the cap take the same code paths
// as past the real one, and everything that succeeds stays small, so the
// fuzzer never asks for gigabytes.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "glass/glass.h"
#include "glass/tensor/checked.h"

namespace fuzz {

using glass::DType;
using glass::Shape;
using glass::Tensor;

constexpr int64_t kFuzzCap = 4096;
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();

[[noreturn]] inline void fail(const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "\n*** fuzz oracle: %s:%d: %s\n", file, line, what.c_str());
  std::fflush(stderr);
  std::abort();
}
#define FUZZ_REQUIRE(cond, what)                                   \
  do {                                                             \
    if (!(cond)) ::fuzz::fail(__FILE__, __LINE__, #cond ": " + std::string(what)); \
  } while (0)

// The fuzzer's bytes, read front to back; zeros once they run out.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  bool empty() const { return n_ == 0; }
  uint8_t byte() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  int64_t raw64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | byte();
    return static_cast<int64_t>(v);
  }
  // A size, by kind: mostly 0..8 (shapes that fit), else a limit or a raw int64.
  int64_t size() {
    const uint8_t b = byte();
    if (b < 176) return b % 9;
    const int64_t cap = glass::max_elements();
    switch (b % 20) {
      case 0: return cap;
      case 1: return cap + 1;
      case 2: return cap - 1;
      case 3: return cap / 2 + 1;
      case 4: return glass::kMaxElements;
      case 5: return glass::kMaxElements + 1;
      case 6: return int64_t{1} << 31;
      case 7: return int64_t{1} << 32;
      case 8: return (int64_t{1} << 31) - 1;
      case 9: return int64_t{1} << 62;
      case 10: return kI64Max;
      case 11: return -1;
      case 12: return -2;
      case 13: return kI64Min;
      case 14: return 16 + byte() % 48;
      case 15: return int64_t{1} << (byte() % 63);
      default: return raw64();
    }
  }
  // A shape of rank 0 to max_rank.
  Shape shape(int max_rank = 5) {
    const int rank = byte() % (max_rank + 1);
    Shape s(rank);
    for (int64_t& v : s) v = size();
    return s;
  }
  // An axis: mostly in range for ndim, sometimes not.
  int axis(int ndim) {
    const uint8_t b = byte();
    if (b < 200 && ndim > 0) return static_cast<int>(b % (2 * ndim)) - ndim;  // [-ndim, ndim)
    switch (b % 6) {
      case 0: return ndim;
      case 1: return -ndim - 1;
      case 2: return std::numeric_limits<int>::max();
      case 3: return std::numeric_limits<int>::min();
      default: return static_cast<int>(static_cast<int8_t>(byte()));
    }
  }
  // Small whole numbers (exact in float32 sums and products), sometimes special values.
  double value() {
    const uint8_t b = byte();
    if (b < 240) return static_cast<double>(static_cast<int>(b % 9) - 4);
    switch (b % 4) {
      case 0: return std::numeric_limits<double>::quiet_NaN();
      case 1: return std::numeric_limits<double>::infinity();
      case 2: return -std::numeric_limits<double>::infinity();
      default: return 0.5;
    }
  }
  DType dtype() { return byte() % 2 ? DType::f64 : DType::f32; }

 private:
  const uint8_t* p_;
  size_t n_;
};

// One input's setting: the cap lowered to a value decoded from its first two
// bytes (1 to kFuzzCap) and, when the input is done, the core's cache of
// freed blocks emptied, so memory stays flat over millions of inputs.
class Session {
 public:
  explicit Session(Input& in) : cap_(decode_cap(in)) {}
  ~Session() { glass::release_cached_storage(); }

 private:
  static int64_t decode_cap(Input& in) {
    const int64_t high = in.byte();  // two statements: the order of the reads is fixed
    const int64_t low = in.byte();
    return 1 + (high << 8 | low) % kFuzzCap;
  }

  glass::LowerElementCap cap_;
};

// ---- shapes, computed here without the core ----

// The product of the sizes with zeros counted as 1 (the cap's rule), saturated
// far above any cap so it never overflows; -1 if a size is negative.
inline __int128 bound_of(const Shape& s) {
  __int128 p = 1;
  for (int64_t v : s) {
    if (v < 0) return -1;
    if (v > 0 && p <= (static_cast<__int128>(1) << 64)) p *= v;
  }
  return p;
}
// The shape could be a tensor under the cap in force.
inline bool allowed(const Shape& s) {
  const __int128 b = bound_of(s);
  return b >= 0 && b <= glass::max_elements();
}
inline int64_t count_of(const Shape& s) {  // only for allowed shapes
  int64_t n = 1;
  for (int64_t v : s) n *= v;
  return n;
}
inline std::string text(const Shape& s) { return glass::to_string(s); }

// Row-major multi-index of flat position i in shape s.
inline std::vector<int64_t> unravel(int64_t i, const Shape& s) {
  std::vector<int64_t> idx(s.size());
  for (int d = static_cast<int>(s.size()) - 1; d >= 0; --d) {
    idx[d] = s[d] == 0 ? 0 : i % s[d];
    if (s[d] != 0) i /= s[d];
  }
  return idx;
}
inline int64_t ravel(const std::vector<int64_t>& idx, const Shape& s) {
  int64_t i = 0;
  for (std::size_t d = 0; d < s.size(); ++d) i = i * s[d] + idx[d];
  return i;
}

// numpy's broadcast of two shapes, or nullopt if they do not broadcast.
inline std::optional<Shape> broadcast(const Shape& a, const Shape& b) {
  const std::size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int64_t da = i + a.size() < n ? 1 : a[i + a.size() - n];
    const int64_t db = i + b.size() < n ? 1 : b[i + b.size() - n];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// Flat position in `from` (broadcast up to `to`) of the element at flat position i of `to`.
inline int64_t broadcast_source(int64_t i, const Shape& from, const Shape& to) {
  const std::vector<int64_t> idx = unravel(i, to);
  std::vector<int64_t> src(from.size());
  const std::size_t off = to.size() - from.size();
  for (std::size_t d = 0; d < from.size(); ++d) src[d] = from[d] == 1 ? 0 : idx[off + d];
  return ravel(src, from);
}

// ---- the oracle's plumbing ----

// Runs f, which must throw a glass::Error starting with `op` if expect_error,
// and must not throw one otherwise. Returns f's result when it succeeds.
template <class F>
std::optional<Tensor> run(const char* op, bool expect_error, F&& f, const std::string& context) {
  try {
    Tensor t = f();
    FUZZ_REQUIRE(!expect_error, std::string(op) + " should have been refused: " + context + " gave shape " + text(t.shape()));
    return t;
  } catch (const glass::Error& e) {
    const std::string msg = e.what();
    FUZZ_REQUIRE(expect_error, std::string(op) + " refused what it should compute: " + context + ": " + msg);
    FUZZ_REQUIRE(msg.rfind(op, 0) == 0, "the message does not start with \"" + std::string(op) + "\": " + msg);
    return std::nullopt;
  }
}

// Values equal, NaN matching NaN.
inline bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

inline void require_values(const Tensor& t, const Shape& shape, const std::vector<double>& want, const std::string& context) {
  FUZZ_REQUIRE(t.shape() == shape, context + ": shape " + text(t.shape()) + ", want " + text(shape));
  FUZZ_REQUIRE(t.numel() == static_cast<int64_t>(want.size()), context + ": numel " + std::to_string(t.numel()));
  const std::vector<double> got = t.to_vector();
  FUZZ_REQUIRE(got.size() == want.size(), context + ": to_vector has " + std::to_string(got.size()) + " values");
  for (std::size_t i = 0; i < got.size(); ++i)
    FUZZ_REQUIRE(same(got[i], want[i]), context + ": element " + std::to_string(i) + " is " + std::to_string(got[i]) +
                                            ", want " + std::to_string(want[i]));
}

// The value v as the dtype stores it.
inline double stored(double v, DType dtype) { return dtype == DType::f32 ? static_cast<double>(static_cast<float>(v)) : v; }

}  // namespace fuzz
