#pragma once
// The tokenizer: a text's UTF-8 bytes are its tokens (vocabulary 256), so
// any input is valid and nothing is ever unknown.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace glass::io {

std::vector<int32_t> encode_bytes(std::string_view text);
std::string decode_bytes(const std::vector<int32_t>& ids);  // ids outside 0..255 are an error

// How a byte reads on screen: printable ASCII as itself, space as "␣",
// common controls as "\n" "\t" "\r", everything else as "\xNN" (so the
// pieces of a multi-byte UTF-8 character show as their bytes).
std::string display_byte(int32_t byte);

}  // namespace glass::io
