#pragma once
// Shared by the model and training tests: a model's weights as plain values,
// bit-for-bit comparison of two such sets, weights randomised for gradient
// checks, and every model variant.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "glass/nn/model.h"
#include "glass/tensor/random.h"

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

// Replaces every parameter's values (in place) with larger random ones than the
// initialisation, so every nonlinearity (softmax, silu, the norms' rsqrt) works
// outside its linear regime: matrices ~ N(0, std^2), gammas ~ 1 + N(0, 0.3^2),
// betas ~ N(0, 0.3^2). One draw per element in visit() order.
inline void randomise(glass::nn::Model& model, uint64_t seed, double std) {
  glass::Generator gen(seed);
  model.visit([&](const std::string& name, glass::Tensor& p) {
    const bool gamma = name.ends_with(".gamma"), beta = name.ends_with(".beta");
    glass::dispatch(p.dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* w = p.mutable_data<T>();
      for (int64_t j = 0; j < p.numel(); ++j)
        w[j] = static_cast<T>(gamma ? 1.0 + 0.3 * gen.normal() : beta ? 0.3 * gen.normal() : std * gen.normal());
    });
  });
}

// Every variant of a config: 3 placements x 2 kinds x residual on/off, except
// that a model without norms has no kind to choose (10 in all).
inline std::vector<glass::nn::Config> all_variants(glass::nn::Config base) {
  using glass::nn::NormKind, glass::nn::NormPlacement;
  std::vector<glass::nn::Config> out;
  for (NormPlacement p : {NormPlacement::pre, NormPlacement::post, NormPlacement::none})
    for (NormKind k : {NormKind::rms, NormKind::layer})
      for (bool residual : {true, false}) {
        if (p == NormPlacement::none && k == NormKind::layer) continue;
        glass::nn::Config c = base;
        c.norm = p;
        c.norm_kind = k;
        c.residual = residual;
        out.push_back(c);
      }
  return out;
}

// "pre/rms/residual": a variant's name in test messages.
inline std::string label(const glass::nn::Config& c) {
  return std::string(glass::nn::placement_name(c.norm)) + "/" + std::string(glass::nn::norm_kind_name(c.norm_kind)) +
         (c.residual ? "/residual" : "/no-residual");
}

}  // namespace glass_test
