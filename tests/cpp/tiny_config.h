#pragma once
// The smallest model config the training and sampling tests run: one block of
// width 16, 2 heads, a 16-byte context (vocab 256, bytes; float32).
#include "glass/glass.h"

namespace glass::testing_config {

inline nn::Config tiny_config() {
  nn::Config c;
  c.d = 16;
  c.blocks = 1;
  c.heads = 2;
  c.hidden = 32;
  c.context = 16;
  return c;
}

}  // namespace glass::testing_config
