#pragma once
// Internal: the check every op that takes ids (embedding, one_hot, pick) runs first.
#include <cstdint>
#include <span>
#include <string>

#include "glass/tensor/shape.h"

namespace glass::detail {

// ids fill `ids_shape` and each is in [0, limit); otherwise an Error naming
// the op, the offending id and its position. `what` names the thing indexed,
// e.g. "rows of weight (4, 2)".
void check_ids(const char* op, std::span<const int32_t> ids, const Shape& ids_shape, int64_t limit, const std::string& what);

}  // namespace glass::detail
