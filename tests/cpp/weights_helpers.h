#pragma once
// Shared by the model and training tests: a model's weights as plain values,
// and bit-for-bit comparison of two such sets.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "glass/nn/model.h"

namespace glass_test {

inline std::map<std::string, std::vector<double>> weights_of(glass::nn::Model& m) {
  std::map<std::string, std::vector<double>> out;
  m.visit([&](const std::string& name, glass::Tensor& p) { out[name] = p.to_vector(); });
  return out;
}

// Bit-for-bit equality of two weight sets; on failure names the first tensor that differs.
inline ::testing::AssertionResult same_weights(const std::map<std::string, std::vector<double>>& a,
                                               const std::map<std::string, std::vector<double>>& b) {
  if (a.size() != b.size()) return ::testing::AssertionFailure() << a.size() << " tensors vs " << b.size();
  for (const auto& [name, v] : a) {
    auto it = b.find(name);
    if (it == b.end()) return ::testing::AssertionFailure() << "\"" << name << "\" missing on one side";
    if (it->second != v) {
      size_t i = 0;
      while (i < v.size() && i < it->second.size() && v[i] == it->second[i]) ++i;
      return ::testing::AssertionFailure() << "\"" << name << "\" differs first at element " << i;
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace glass_test
