#pragma once
// The flags that describe a model to build (init, train, bench): the same
// names and ranges on every command, read into an nn::Config.
//   --blocks N --d N --heads N --ctx N --norm pre|post|none --norm-kind rms|layer
//   --no-residual --eps E --init-scale depth|flat --dtype f32|f64
#include <set>
#include <string>

#include "cli/args.h"
#include "glass/nn/config.h"

namespace glass::cli {

// Flags that take a value, and the one switch (--no-residual).
extern const std::set<std::string> kModelFlags;
extern const std::set<std::string> kModelSwitches;

// known + kModelFlags
std::set<std::string> with_model_flags(std::set<std::string> known);

// The default model with the flags given applied; hidden is 3 d (the default
// model's 384 = 3 x 128). Out-of-range values are UsageErrors naming the flag
// and its range.
nn::Config config_from_flags(const Args& args);

// "4 blocks, d 128, 4 heads, pre-norm RMSNorm, residuals"
std::string describe_config(const nn::Config& c);

// A UsageError if any model flag except `allowed` was given: the command
// builds its model from `source` instead.
void refuse_model_flags(const Args& args, const std::string& source, const std::set<std::string>& allowed);

}  // namespace glass::cli
