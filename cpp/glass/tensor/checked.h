#pragma once
// Checked size arithmetic: every place a shape becomes memory (an element
// count, strides, a byte size, a shape an op builds from its inputs) goes
// through these, so a size that overflows int64 or exceeds the cap is a
// glass::Error naming the op and the shape, never a wrapped count, a short
// buffer or a trap. They run once per op on shapes, never in inner loops.
//
// The cap is on the element count of any shape a tensor may have, view or
// not, so that every count, stride, offset and byte size of a tensor that
// exists is small enough to compute with plain arithmetic afterwards:
//   wasm:   2^27 elements (512 MiB of float32, 1 GiB of float64). The heap
//           grows to 2 GiB at most (Emscripten's MAXIMUM_MEMORY with
//           ALLOW_MEMORY_GROWTH), so a tensor at the cap still leaves room for
//           the model, its gradients and a forward pass, and every byte size
//           fits the 32-bit size_t.
//   native: 2^33 elements (32 GiB of float32, 64 GiB of float64): more than
//           any machine this project runs on holds, so an absurd request fails
//           here with a message rather than in the allocator or the OS's
//           out-of-memory killer.
#include <cstddef>
#include <cstdint>
#include <string>

#include "glass/tensor/dtype.h"
#include "glass/tensor/shape.h"

namespace glass {

#ifdef __EMSCRIPTEN__
inline constexpr int64_t kMaxElements = int64_t{1} << 27;
#else
inline constexpr int64_t kMaxElements = int64_t{1} << 33;
#endif

// The cap in force on this thread: kMaxElements, unless lowered below.
int64_t max_elements();

// Lowers the cap while alive, so tests and fuzzers reach it with small
// tensors; it can never raise it. Nests.
class LowerElementCap {
 public:
  explicit LowerElementCap(int64_t cap);
  ~LowerElementCap();
  LowerElementCap(const LowerElementCap&) = delete;
  LowerElementCap& operator=(const LowerElementCap&) = delete;

 private:
  int64_t previous_;
};

// The element count of `shape` for a tensor made by `op`: every size must be
// >= 0 and the product of the sizes at most max_elements(). Zero sizes count
// as 1 in that bound, so the strides and offsets of a shape with a 0 in it
// cannot overflow either (numpy refuses such shapes too). Throws an Error
// naming op and shape otherwise.
int64_t checked_numel(const char* op, const Shape& shape);

// What is wrong with a shape's size, as the rest of a sentence that begins
// "shape (..) ": "has 65 elements, more than the 64 ...". Empty if nothing is.
// For messages that name more than the shape (the operands it came from).
std::string size_problem(const Shape& shape);

// a * b and a + b of sizes (>= 0), or an Error "op: <what> ..." if the result
// overflows int64 or exceeds max_elements().
int64_t checked_mul(const char* op, int64_t a, int64_t b, const char* what);
int64_t checked_add(const char* op, int64_t a, int64_t b, const char* what);

// The bytes of n elements of dtype (n from checked_numel), as a size_t.
std::size_t checked_bytes(const char* op, int64_t n, DType dtype);

}  // namespace glass
