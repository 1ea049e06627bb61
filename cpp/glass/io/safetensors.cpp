#include "glass/io/safetensors.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <bit>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "glass/io/json.h"
#include "glass/tensor/checked.h"
#include "glass/tensor/error.h"
#include "glass/tensor/shape.h"

namespace glass::io {

static_assert(std::endian::native == std::endian::little, "safetensors data is little-endian; so are x86 and wasm");

namespace {

[[noreturn]] void bad_file(const std::string& what) { throw Error("safetensors: " + what); }

uint64_t read_u64_le(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

struct Entry {
  std::string name;
  DType dtype;
  Shape shape;
  uint64_t begin, end;
};

// What a header may hold, refused before it is allocated: a header nests 3
// deep (the root, an entry, its shape), the format's own reader stops at 100 MB,
// and a million values is a hundred thousand tensors.
constexpr uint64_t kMaxHeaderBytes = 100'000'000;
constexpr JsonLimits kHeaderLimits{.max_depth = 3, .max_values = 1u << 20};
// Sizes and offsets stay exact in a double (and in JavaScript).
constexpr uint64_t kMaxWhole = uint64_t{1} << 53;

Entry parse_entry(const std::string& name, const nlohmann::json& j) {
  if (!j.is_object()) bad_file("entry \"" + name + "\" is not an object");
  const auto dt = j.find("dtype");
  const auto shape = j.find("shape");
  const auto offsets = j.find("data_offsets");
  if (dt == j.end() || !dt->is_string()) bad_file("entry \"" + name + "\" has no dtype string");
  if (shape == j.end() || !shape->is_array()) bad_file("entry \"" + name + "\" has no shape array");
  if (offsets == j.end() || !offsets->is_array() || offsets->size() != 2)
    bad_file("entry \"" + name + "\" needs data_offsets [begin, end]");
  Entry e{name, DType::f32, {}, 0, 0};
  const std::string& dtype = dt->get_ref<const std::string&>();
  if (dtype == "F32") e.dtype = DType::f32;
  else if (dtype == "F64") e.dtype = DType::f64;
  else bad_file("entry \"" + name + "\" has dtype \"" + dtype + "\"; only F32 and F64 are supported");
  // Only an integer token: 2.0, 1e3, -2 and 2^64 are refused, as the format's own reader does.
  auto whole = [&](const nlohmann::json& v, const char* what) {
    if (!v.is_number_unsigned() || v.get<uint64_t>() > kMaxWhole)
      bad_file("entry \"" + name + "\" has a bad " + what + " " + v.dump() + " (must be a whole number from 0 to 2^53)");
    return v.get<uint64_t>();
  };
  for (const auto& s : *shape) e.shape.push_back(static_cast<int64_t>(whole(s, "shape size")));
  e.begin = whole((*offsets)[0], "data offset");
  e.end = whole((*offsets)[1], "data offset");
  if (e.end < e.begin) bad_file("entry \"" + name + "\" has data_offsets that end before they begin");
  // numel in double first: absurd shapes must not overflow int64
  double count = 1;
  for (int64_t s : e.shape) count *= static_cast<double>(s);
  const double want = count * static_cast<double>(dtype_size(e.dtype));
  if (want != static_cast<double>(e.end - e.begin)) {
    // the count as a whole number while a double holds it exactly; an absurd shape's (1.6e+33) past what
    // uint64_t holds, where converting it would be undefined
    const std::string want_text = want <= static_cast<double>(kMaxWhole) ? std::to_string(static_cast<uint64_t>(want)) : format_scalar(want);
    bad_file("entry \"" + name + "\" has shape " + to_string(e.shape) + " (" + want_text + " bytes) but data_offsets span " +
         std::to_string(e.end - e.begin) + " bytes");
  }
  // a zero in the shape makes the byte count 0 (and match an empty span) whatever the other sizes are;
  // the core's cap (tensor/checked.h) counts zeros as 1, and so must this
  if (const std::string problem = size_problem(e.shape); !problem.empty())
    bad_file("entry \"" + name + "\" has shape " + to_string(e.shape) + " which " + problem);
  return e;
}

}  // namespace

SafetensorsFile parse_safetensors(std::span<const uint8_t> bytes) {
  if (bytes.size() < 8)
    bad_file("file is " + std::to_string(bytes.size()) + " bytes, shorter than the 8-byte header length (truncated?)");
  const uint64_t header_len = read_u64_le(bytes.data());
  if (header_len > bytes.size() - 8)
    bad_file("header length " + std::to_string(header_len) + " runs past the end of the " + std::to_string(bytes.size()) +
         "-byte file (truncated or not a safetensors file)");
  if (header_len > kMaxHeaderBytes)
    bad_file("header length " + std::to_string(header_len) + " is over the " + std::to_string(kMaxHeaderBytes) +
         "-byte limit (not a safetensors file?)");
  const std::string_view header(reinterpret_cast<const char*>(bytes.data() + 8), header_len);
  nlohmann::json root;
  try {
    root = parse_json(header, kHeaderLimits);
  } catch (const Error& e) {
    bad_file(std::string("bad header: ") + e.what());
  }
  if (!root.is_object()) bad_file("header is not a JSON object");

  SafetensorsFile file;
  std::vector<Entry> entries;
  for (const auto& [name, j] : root.items()) {
    if (name == "__metadata__") {
      if (!j.is_object()) bad_file("__metadata__ is not an object");
      for (const auto& [k, v] : j.items()) {
        if (!v.is_string()) bad_file("__metadata__ value \"" + k + "\" is not a string");
        file.metadata[k] = v.get<std::string>();
      }
      continue;
    }
    entries.push_back(parse_entry(name, j));
  }
  const uint64_t data_len = bytes.size() - 8 - header_len;
  std::vector<const Entry*> by_offset;
  for (const Entry& e : entries) {
    if (e.end > data_len)
      bad_file("entry \"" + e.name + "\" data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
           ") run past the " + std::to_string(data_len) + " data bytes (truncated file?)");
    if (e.end > e.begin) by_offset.push_back(&e);  // an empty tensor occupies no bytes and overlaps nothing
  }
  std::sort(by_offset.begin(), by_offset.end(), [](const Entry* a, const Entry* b) { return a->begin < b->begin; });
  for (std::size_t i = 1; i < by_offset.size(); ++i)
    if (by_offset[i]->begin < by_offset[i - 1]->end)
      bad_file("entries \"" + by_offset[i - 1]->name + "\" and \"" + by_offset[i]->name + "\" overlap in the data");

  const uint8_t* data = bytes.data() + 8 + header_len;
  for (const Entry& e : entries) {
    Tensor t = Tensor::zeros(e.shape, e.dtype);
    dispatch(e.dtype, [&](auto tag) {
      using T = decltype(tag);
      std::memcpy(t.mutable_data<T>(), data + e.begin, e.end - e.begin);
    });
    file.tensors.emplace_back(e.name, std::move(t));
  }
  return file;
}

std::vector<uint8_t> serialize_safetensors(const NamedTensors& tensors, const std::map<std::string, std::string>& metadata) {
  // Keys in byte order (the library's std::map), compact, integers as integers.
  nlohmann::json header = nlohmann::json::object();
  uint64_t offset = 0;
  for (const auto& [name, t] : tensors) {
    if (name == "__metadata__") bad_file("a tensor cannot be named __metadata__");
    if (header.contains(name)) bad_file("two tensors are named \"" + name + "\"");
    const uint64_t size = static_cast<uint64_t>(t.numel()) * dtype_size(t.dtype());
    header[name] = {{"dtype", t.dtype() == DType::f32 ? "F32" : "F64"},
                    {"shape", t.shape()},
                    {"data_offsets", {offset, offset + size}}};
    offset += size;
  }
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::string text;
  try {
    text = header.dump();
  } catch (const nlohmann::json::type_error& e) {  // the only one dump throws: a string that is not UTF-8
    const std::string what = e.what();             // "[json.exception.type_error.316] invalid UTF-8 byte at ..."
    bad_file("tensor names and metadata must be UTF-8 text: " + what.substr(what.find("] ") + 2));
  }
  text.append((8 - text.size() % 8) % 8, ' ');  // keep the data 8-byte aligned, as the format recommends
  std::vector<uint8_t> out(8 + text.size() + offset);
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(static_cast<uint64_t>(text.size()) >> (8 * i));
  std::memcpy(out.data() + 8, text.data(), text.size());
  uint8_t* data = out.data() + 8 + text.size();
  // tensors are laid out in the order given, which is the order of the offsets above
  for (const auto& named : tensors) {
    const Tensor& t = named.second;  // (clang 14 cannot capture a structured binding)
    dispatch(t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const Tensor c = t.contiguous();
      const std::size_t n = static_cast<std::size_t>(c.numel()) * sizeof(T);
      std::memcpy(data, c.template data<T>(), n);
      data += n;
    });
  }
  return out;
}

namespace {
std::string errno_text(int err) { return std::strerror(err); }

// "a directory", "a FIFO", ... for a stat mode that is not a regular file.
std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}
}  // namespace

std::vector<uint8_t> read_file(const std::string& path, uint64_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw Error("cannot open '" + path + "' for reading: " + errno_text(errno));
  if (!S_ISREG(st.st_mode)) throw Error("cannot read '" + path + "': it is " + kind_of(st.st_mode) + ", not a file");
  if (static_cast<uint64_t>(st.st_size) > max_bytes)
    throw Error("cannot read '" + path + "': it is " + std::to_string(st.st_size) + " bytes, more than the limit of " +
                std::to_string(max_bytes));
  // O_NONBLOCK: should the path have become a FIFO since stat, opening it must not hang
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw Error("cannot open '" + path + "' for reading: " + errno_text(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<uint64_t>(st.st_size) > max_bytes)
    throw Error("cannot read '" + path + "': it changed while being opened");
  std::vector<uint8_t> out(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < out.size()) {
    const ssize_t n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error("reading '" + path + "' failed: " + errno_text(errno));
    if (n == 0) break;  // shrank while being read: what was there is what a reader gets
    got += static_cast<std::size_t>(n);
  }
  out.resize(got);
  return out;
}

void write_file(const std::string& path, std::span<const uint8_t> bytes) {
  const std::string tmp = path + ".tmp";
  // removes the temporary unless it was renamed into place
  struct Cleanup {
    const std::string& tmp;
    bool done = false;
    ~Cleanup() {
      if (!done) std::remove(tmp.c_str());
    }
  } cleanup{tmp};
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot open '" + tmp + "' for writing: " + errno_text(errno));
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) throw Error("writing '" + tmp + "' failed (disk full?)");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw Error("cannot rename '" + tmp + "' to '" + path + "': " + errno_text(errno));
  cleanup.done = true;
}

void check_writable(const std::string& path, const std::string& what) {
  if (path.empty()) throw Error(what + ": the path is empty");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw Error(what + " '" + path + "' is " + kind_of(st.st_mode) + ", not a file that can be written");
  const std::string tmp = path + ".tmp";
  const bool existed = ::stat(tmp.c_str(), &st) == 0;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
  if (fd < 0) throw Error(what + ": cannot open '" + path + "' for writing (" + errno_text(errno) + ")");
  ::close(fd);
  if (!existed) std::remove(tmp.c_str());
}

}  // namespace glass::io
