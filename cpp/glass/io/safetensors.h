#pragma once
// safetensors (https://huggingface.co/docs/safetensors): an 8-byte
// little-endian header length N, N bytes of JSON mapping each tensor name to
// {"dtype", "shape", "data_offsets": [begin, end]} (offsets relative to the
// data after the header), then the raw little-endian data. F32 and F64 only.
//
// Reading refuses, with a message naming the problem: a file shorter than 8
// bytes, a header length past the end (or over 100 MB), bad JSON (with the
// byte), duplicate keys, nesting deeper than a header needs, an unknown dtype,
// a size or offset that is not a whole number, a shape that does not match its
// byte range, offsets out of range or overlapping.
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "glass/tensor/tensor.h"

namespace glass::io {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

struct SafetensorsFile {
  NamedTensors tensors;  // in header key order
  std::map<std::string, std::string> metadata;  // "__metadata__", if present
};

SafetensorsFile parse_safetensors(std::span<const uint8_t> bytes);
std::vector<uint8_t> serialize_safetensors(const NamedTensors& tensors,
                                           const std::map<std::string, std::string>& metadata = {});

// Whole-file helpers for the CLI (the page passes bytes it fetched).
//
// read_file refuses, before reading a byte: a path that is missing or
// unreadable, a directory, anything that is not a regular file (a FIFO would
// block, /dev/zero never ends), and a file over max_bytes (weights, checkpoints
// and training texts all stay far below the default 1 GiB).
inline constexpr uint64_t kMaxFileBytes = uint64_t{1} << 30;
std::vector<uint8_t> read_file(const std::string& path, uint64_t max_bytes = kMaxFileBytes);
// write_file writes path + ".tmp" and renames it over path, so a reader never
// sees half a file; on any failure the temporary is removed and path is untouched.
void write_file(const std::string& path, std::span<const uint8_t> bytes);
// Refuses (an Error naming the path and `what`, e.g. "--out") a path write_file
// could not write: its folder missing or not writable, or the path a folder or
// not a regular file. Checks by creating and removing the temporary, so a long
// job (training) finds out before it starts rather than when it first saves.
void check_writable(const std::string& path, const std::string& what);

}  // namespace glass::io
