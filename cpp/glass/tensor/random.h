#pragma once
// A seeded generator whose streams are identical on every platform: std's
// distributions differ between libstdc++ (native) and libc++ (wasm), so
// weights initialised natively and in the browser would not match.
#include <cstdint>

namespace glass {

class Generator {
 public:
  explicit Generator(uint64_t seed = 0) : state_(seed) {}
  uint64_t next_u64();  // splitmix64
  double uniform();     // [0, 1) with 53 random bits
  double normal();      // Box-Muller, one value per call
  // The whole state: saving and restoring it resumes the same stream.
  uint64_t state() const { return state_; }
  void set_state(uint64_t state) { state_ = state; }

 private:
  uint64_t state_;
};

}  // namespace glass
