#pragma once
// The model's configuration. The defaults are the model of docs/model.md; tests
// use tiny sizes (d = 8, one block, two heads) so finite differences stay fast.
#include <cstdint>
#include <string>

#include "glass/tensor/dtype.h"

namespace glass::nn {

struct Config {
  int64_t vocab = 256;    // bytes
  int64_t context = 128;  // longest sequence the model accepts
  int64_t d = 128;        // residual stream width
  int64_t blocks = 4;
  int64_t heads = 4;      // head width k = d / heads
  int64_t hidden = 384;   // SwiGLU hidden width
  double eps = 1e-6;      // every RMSNorm
  double rope_base = 10000;
  DType dtype = DType::f32;

  int64_t head_dim() const { return d / heads; }
  // Throws glass::Error naming the first field that is out of range.
  void validate() const;
};

}  // namespace glass::nn
