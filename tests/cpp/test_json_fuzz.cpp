// Malformed safetensors headers, generated: every truncation of a valid file,
// seeded random byte flips, deep nesting, huge counts. Each damaged file must
// either be refused with a glass::Error or read as a file that is consistent
// (it writes and reads back the same); nothing else may escape and nothing may
// crash (the asan preset runs this under AddressSanitizer and UBSan).
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "glass/io/safetensors.h"
#include "glass/tensor/random.h"
#include "gradcheck.h"

namespace {

using namespace glass;
using Bytes = std::vector<uint8_t>;

// A file with some of everything: both dtypes, a scalar, an empty tensor,
// names that need escaping, metadata; the last bytes belong to a real tensor.
Bytes valid_file() {
  const io::NamedTensors tensors = {
      {"blocks.0.attn.wq.weight", Tensor::from_f32(std::vector<float>{1, -2, 3, -4, 5, -6}, {2, 3})},
      {"empty", Tensor::zeros({0, 3}, DType::f32)},
      {"scalar", Tensor::from_f64(std::vector<double>{0.5}, {})},
      {"quote\"back\\slash \xC3\xA9", Tensor::from_f64(std::vector<double>{1e300, -1e-300}, {2})},
      {"z", Tensor::from_f32(std::vector<float>{7, 8, 9}, {3, 1})},
  };
  return io::serialize_safetensors(tensors, {{"format", "glassllm"}, {"note", "tab\there"}});
}

uint64_t header_length(const Bytes& file) {
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | file[static_cast<size_t>(i)];
  return n;
}

// The file with its header text replaced and its length field set to match.
Bytes rewrap(const Bytes& file, const std::string& header) {
  const uint64_t old = header_length(file);
  Bytes out;
  out.reserve(8 + header.size() + file.size() - 8 - old);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(uint64_t{header.size()} >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), file.begin() + 8 + static_cast<std::ptrdiff_t>(old), file.end());
  return out;
}

enum class Outcome { refused, read };

// parse_safetensors on bytes: a glass::Error, or a file that writes and reads
// back to the same tensors. Any other outcome is a test failure naming `what`.
Outcome check(const Bytes& bytes, const std::string& what) {
  io::SafetensorsFile f;
  try {
    f = io::parse_safetensors(bytes);
  } catch (const Error& e) {
    if (std::strlen(e.what()) == 0) ADD_FAILURE() << what << ": an empty message";
    return Outcome::refused;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": threw a non-glass exception: " << e.what();
    return Outcome::refused;
  } catch (...) {
    ADD_FAILURE() << what << ": threw something that is not a std::exception";
    return Outcome::refused;
  }
  try {
    const io::SafetensorsFile again = io::parse_safetensors(io::serialize_safetensors(f.tensors, f.metadata));
    EXPECT_EQ(again.metadata, f.metadata) << what;
    EXPECT_EQ(again.tensors.size(), f.tensors.size()) << what;
    for (size_t i = 0; i < f.tensors.size() && i < again.tensors.size(); ++i) {
      EXPECT_EQ(again.tensors[i].first, f.tensors[i].first) << what;
      EXPECT_EQ(again.tensors[i].second.shape(), f.tensors[i].second.shape()) << what;
      EXPECT_EQ(again.tensors[i].second.dtype(), f.tensors[i].second.dtype()) << what;
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": read, but writing it back failed: " << e.what();
  }
  return Outcome::read;
}

TEST(JsonFuzz, TheValidFileReads) { EXPECT_EQ(check(valid_file(), "the valid file"), Outcome::read); }

TEST(JsonFuzz, EveryTruncationOfTheHeaderIsRefused) {
  const Bytes file = valid_file();
  const std::string header(reinterpret_cast<const char*>(file.data()) + 8, header_length(file));
  // The writer pads with spaces after the closing brace; cutting only padding is fine.
  const size_t end = header.find_last_of('}') + 1;
  for (size_t k = 0; k <= header.size(); ++k) {
    const Outcome want = k >= end ? Outcome::read : Outcome::refused;
    EXPECT_EQ(check(rewrap(file, header.substr(0, k)), "header cut to " + std::to_string(k) + " bytes"), want)
        << header.substr(0, k);
  }
}

TEST(JsonFuzz, EveryTruncationOfTheFileIsRefused) {
  const Bytes file = valid_file();
  for (size_t k = 0; k < file.size(); ++k) {
    EXPECT_GLASS_ERROR([&] { io::parse_safetensors(Bytes(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(k))); },
                       {"safetensors"})
        << "file cut to " << k << " of " << file.size() << " bytes";
  }
}

TEST(JsonFuzz, RandomByteFlipsNeverCrash) {
  const Bytes file = valid_file();
  const size_t header_end = 8 + header_length(file);
  // Bytes that matter to a JSON reader, besides random ones.
  std::string special = "{}[]\":,\\/-+.0123456789eEtfnu \t\n\x01\x7F\x80\xBF\xC3\xED\xF4\xFF";
  special += '\0';
  Generator gen(20240611);
  int read = 0, refused = 0;
  for (int round = 0; round < 4000; ++round) {
    Bytes b = file;
    const int flips = 1 + static_cast<int>(gen.next_u64() % 4);
    std::string what = "round " + std::to_string(round) + ":";
    for (int i = 0; i < flips; ++i) {
      // mostly the header text, sometimes the length field or the data
      const uint64_t r = gen.next_u64() % 100;
      const size_t at = r < 85   ? 8 + gen.next_u64() % (header_end - 8)
                        : r < 95 ? gen.next_u64() % 8
                                 : header_end + gen.next_u64() % (b.size() - header_end);
      const uint8_t to = gen.next_u64() % 2 ? static_cast<uint8_t>(special[gen.next_u64() % special.size()])
                                            : static_cast<uint8_t>(gen.next_u64());
      what += " byte " + std::to_string(at) + " -> " + std::to_string(to);
      b[at] = to;
    }
    (check(b, what) == Outcome::read ? read : refused)++;
  }
  RecordProperty("read", read);
  RecordProperty("refused", refused);
  // Both outcomes happen: the flips are neither all harmless nor all fatal.
  EXPECT_GT(refused, 2000);
  EXPECT_GT(read, 50);
}

TEST(JsonFuzz, DeepNestingAndHugeCountsAreRefused) {
  const Bytes file = valid_file();
  auto refused = [&](const std::string& header, std::initializer_list<std::string> fragments) {
    return glass_test::throws_error([&] { io::parse_safetensors(rewrap(file, header)); }, fragments);
  };
  EXPECT_TRUE(refused(std::string(200'000, '['), {"bad header", "nesting deeper than 3 levels"}));
  EXPECT_TRUE(refused(std::string(200'000, '{'), {"bad header"}));
  std::string objects;
  for (int i = 0; i < 50'000; ++i) objects += "{\"a\":";
  EXPECT_TRUE(refused(objects, {"nesting deeper than 3 levels in \"a\".\"a\""}));
  EXPECT_TRUE(refused(R"({"a":{"dtype":"F32","shape":[[2]],"data_offsets":[0,8]}})",
                      {"nesting deeper than 3 levels in \"a\".\"shape\""}));
  EXPECT_TRUE(refused(R"({"a":{"dtype":"F32","shape":["2"],"data_offsets":[0,8]}})", {"\"a\"", "bad shape size \"2\""}));
  // a shape of two million dimensions: refused by the value count before it is built
  std::string wide = R"({"a":{"dtype":"F32","data_offsets":[0,0],"shape":[0)";
  for (int i = 0; i < 2'000'000; ++i) wide += ",1";
  wide += "]}}";
  EXPECT_TRUE(refused(wide, {"more than 1048576 values"}));
  // the header length field itself: past the file, and over the limit
  Bytes big(8 + 100'000'001, ' ');
  const uint64_t n = 100'000'001;
  for (int i = 0; i < 8; ++i) big[static_cast<size_t>(i)] = static_cast<uint8_t>(n >> (8 * i));
  EXPECT_GLASS_ERROR([&] { io::parse_safetensors(big); }, {"header length 100000001", "over the 100000000-byte limit"});
}

}  // namespace
