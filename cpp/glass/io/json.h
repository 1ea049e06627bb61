#pragma once
// JSON is nlohmann-json (Debian's nlohmann-json3-dev, header-only). This adds
// the strict reading that files from outside need: the library's own parse
// keeps the last of two equal keys and has no bound on depth or size.
#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

// Debian bookworm's 3.11.2 is what this was written and tested against.
static_assert(NLOHMANN_JSON_VERSION_MAJOR == 3 && NLOHMANN_JSON_VERSION_MINOR >= 11, "nlohmann-json 3.11 or later 3.x");

namespace glass::io {

struct JsonLimits {
  int max_depth;           // objects and arrays nested in each other
  std::size_t max_values;  // values in the whole document (containers, members, items)
};

// Parses one JSON document, or throws glass::Error("json: at byte N: ...")
// where N is the 0-based offset of the byte where the problem showed: bad
// syntax or UTF-8 (in the library's words), a duplicate key (named with where
// it sits), nesting or size past the limits (refused before allocating more).
// Numbers keep the library's kinds: 2 is unsigned, -2 integer, 2.0 and 1e3
// float, so a caller can refuse anything but an exact non-negative integer.
nlohmann::json parse_json(std::string_view text, const JsonLimits& limits);

}  // namespace glass::io
