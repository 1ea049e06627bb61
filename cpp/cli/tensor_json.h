#pragma once
// The JSON that `inspect --json` and `interp --json` write: documents in
// insertion order (snapshots as the model records them) whose numbers are of the
// run's dtype, so the library writes each with the fewest digits that read back
// to the same float (or double), and null for NaN and infinity, which JSON
// cannot spell.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "glass/tensor/tensor.h"

namespace glass::cli {

template <class Real>
using Json = nlohmann::basic_json<nlohmann::ordered_map, std::vector, std::string, bool, std::int64_t, std::uint64_t, Real>;

// {"shape": [...], "data": [...]}, the batch axis dropped from the shape when asked
// (snapshots and their gradients carry one; parameters do not).
template <class Real>
Json<Real> tensor_json(const Tensor& t, bool drop_batch) {
  Shape shape = t.shape();
  if (drop_batch && !shape.empty()) shape.erase(shape.begin());
  Json<Real> data = Json<Real>::array();
  data.template get_ref<typename Json<Real>::array_t&>().reserve(static_cast<std::size_t>(t.numel()));
  for (double v : t.to_vector()) data.push_back(static_cast<Real>(v));  // exact: the tensor holds Reals
  return {{"shape", shape}, {"data", std::move(data)}};
}

}  // namespace glass::cli
