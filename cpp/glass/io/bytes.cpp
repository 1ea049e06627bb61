#include "glass/io/bytes.h"

#include <cstdio>

#include "glass/tensor/error.h"

namespace glass::io {

std::vector<int32_t> encode_bytes(std::string_view text) {
  std::vector<int32_t> ids;
  ids.reserve(text.size());
  for (const char c : text) ids.push_back(static_cast<unsigned char>(c));
  return ids;
}

std::string decode_bytes(const std::vector<int32_t>& ids) {
  std::string out;
  out.reserve(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] > 255)
      throw Error("decode_bytes: id " + std::to_string(ids[i]) + " at position " + std::to_string(i) + " is not a byte");
    out += static_cast<char>(ids[i]);
  }
  return out;
}

std::string display_byte(int32_t byte) {
  if (byte < 0 || byte > 255) throw Error("display_byte: " + std::to_string(byte) + " is not a byte");
  if (byte == ' ') return "\xE2\x90\xA3";  // U+2423 OPEN BOX: in common monospace fonts (U+2420 is not)
  if (byte == '\n') return "\\n";
  if (byte == '\t') return "\\t";
  if (byte == '\r') return "\\r";
  if (byte > 32 && byte < 127) return std::string(1, static_cast<char>(byte));
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", byte);
  return buf;
}

}  // namespace glass::io
