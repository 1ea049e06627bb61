// safetensors (glass::io): F32 and F64 round trips in the published layout,
// every refusal with the message that names the problem, and moving a Model's
// weights in and out (missing / extra / wrong-shape tensors leave the model as
// it was). Files are built and damaged in memory: no filesystem.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "glass/io/config_json.h"
#include "glass/io/json.h"
#include "glass/io/model_weights.h"
#include "glass/io/safetensors.h"
#include "glass/nn/model.h"
#include "gradcheck.h"
#include "weights_helpers.h"

namespace {

using namespace glass;
using Bytes = std::vector<uint8_t>;

// ---- building and taking apart files by hand ----

void put_u64(Bytes& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint64_t get_u64(const Bytes& b) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[static_cast<size_t>(i)];
  return v;
}

// 8-byte little-endian length, the header text, the data.
Bytes make_file(const std::string& header, const Bytes& data) {
  Bytes out;
  put_u64(out, header.size());
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::string header_of(const Bytes& file) {
  return std::string(reinterpret_cast<const char*>(file.data()) + 8, get_u64(file));
}

Bytes data_of(const Bytes& file) { return Bytes(file.begin() + 8 + static_cast<std::ptrdiff_t>(get_u64(file)), file.end()); }

// The same file with its header text replaced (the data kept).
Bytes with_header(const Bytes& file, const std::string& header) { return make_file(header, data_of(file)); }

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << "\"" << from << "\" not in the header";
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

template <class T>
Bytes raw(const std::vector<T>& v) {
  Bytes out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());  // x86 and wasm are little-endian, like the format
  return out;
}

// ---------------------------------------------------------------- round trips

TEST(Safetensors, RoundTripF32AndF64InThePublishedLayout) {
  const std::vector<float> a = {1.5f, -2.25f, 3.0e-38f, 1.0e30f, -0.0f, 7.0f};
  const std::vector<double> b = {3.141592653589793, -1e-300, 2.5, 1e300};
  const io::NamedTensors tensors = {
      {"a.weight", Tensor::from_f32(a, {2, 3})},
      {"b", Tensor::from_f64(b, {4})},
      {"c", Tensor::from_f32(std::vector<float>{42.0f}, {})},  // a scalar
  };
  const Bytes file = io::serialize_safetensors(tensors, {{"format", "glassllm"}, {"note", "round trip"}});

  // Layout: u64 LE header length, JSON header padded so the data is 8-byte aligned, raw data.
  const uint64_t n = get_u64(file);
  EXPECT_EQ(n % 8, 0u) << "header length " << n;
  ASSERT_EQ(file.size(), 8 + n + 6 * 4 + 4 * 8 + 4);
  const nlohmann::json header = nlohmann::json::parse(header_of(file));  // the library itself, not our strict reader
  ASSERT_TRUE(header.is_object());
  EXPECT_EQ(header.size(), 4u);  // three tensors and __metadata__
  ASSERT_TRUE(header.contains("__metadata__"));
  EXPECT_EQ(header["__metadata__"]["note"], "round trip");
  struct Want {
    std::string name, dtype;
    std::vector<uint64_t> shape;
    Bytes bytes;
  };
  const std::vector<Want> want = {{"a.weight", "F32", {2, 3}, raw(a)},
                                  {"b", "F64", {4}, raw(b)},
                                  {"c", "F32", {}, raw(std::vector<float>{42.0f})}};
  const Bytes data = data_of(file);
  for (const Want& w : want) {
    ASSERT_TRUE(header.contains(w.name)) << w.name;
    const nlohmann::json& e = header[w.name];
    EXPECT_EQ(e["dtype"], w.dtype);
    EXPECT_EQ(e["shape"].get<std::vector<uint64_t>>(), w.shape) << w.name;
    const nlohmann::json& off = e["data_offsets"];
    ASSERT_EQ(off.size(), 2u);
    const auto begin = off[0].get<size_t>(), end = off[1].get<size_t>();
    ASSERT_LE(end, data.size());
    EXPECT_EQ(Bytes(data.begin() + static_cast<std::ptrdiff_t>(begin), data.begin() + static_cast<std::ptrdiff_t>(end)),
              w.bytes)
        << w.name << ": the raw little-endian values at its data_offsets";
  }

  const io::SafetensorsFile back = io::parse_safetensors(file);
  ASSERT_EQ(back.tensors.size(), 3u);
  std::map<std::string, Tensor> by_name(back.tensors.begin(), back.tensors.end());
  EXPECT_EQ(by_name.at("a.weight").dtype(), DType::f32);
  EXPECT_EQ(by_name.at("a.weight").shape(), Shape({2, 3}));
  EXPECT_EQ(by_name.at("a.weight").to_f32(), a);  // bit for bit (also -0.0 and the subnormal-adjacent value)
  EXPECT_EQ(by_name.at("b").dtype(), DType::f64);
  EXPECT_EQ(by_name.at("b").to_vector(), b);
  EXPECT_EQ(by_name.at("c").shape(), Shape{});
  EXPECT_EQ(by_name.at("c").item(), 42.0);
  EXPECT_EQ(back.metadata.at("format"), "glassllm");
  EXPECT_EQ(back.metadata.at("note"), "round trip");
  // and writing what was read gives the same bytes
  EXPECT_EQ(io::serialize_safetensors(back.tensors, back.metadata), file);
}

TEST(Safetensors, ReadsAFileWrittenByAnotherTool) {
  // Key order, spacing and the unpadded header are another writer's choices.
  const std::vector<double> x = {1.0, -2.0};
  const std::vector<float> y = {0.5f, 0.25f, 0.125f};
  Bytes data = raw(x);
  const Bytes yb = raw(y);
  data.insert(data.end(), yb.begin(), yb.end());
  const Bytes file = make_file(
      R"({ "y": {"shape": [3, 1], "dtype": "F32", "data_offsets": [16, 28]},
           "__metadata__": {"format": "pt"},
           "x": {"data_offsets": [0, 16], "shape": [2], "dtype": "F64"} })",
      data);
  const io::SafetensorsFile f = io::parse_safetensors(file);
  ASSERT_EQ(f.tensors.size(), 2u);
  std::map<std::string, Tensor> t(f.tensors.begin(), f.tensors.end());
  EXPECT_TENSOR(t.at("x"), (Shape{2}), {1.0, -2.0}, 0);
  EXPECT_TENSOR(t.at("y"), (Shape{3, 1}), {0.5, 0.25, 0.125}, 0);
  EXPECT_EQ(t.at("y").dtype(), DType::f32);
  EXPECT_EQ(f.metadata.at("format"), "pt");
}

// Regression: a zero-element tensor (legal in safetensors) shares its begin
// offset with the next tensor; parse_safetensors' overlap check, sorting by
// begin only, once reported an overlap for a file serialize_safetensors wrote.
TEST(Safetensors, ZeroElementTensorRoundTrips) {
  const io::NamedTensors tensors = {{"z_empty", Tensor::zeros({0, 4}, DType::f32)},
                                    {"a", Tensor::from_f32(std::vector<float>{1, 2}, {2})}};
  const Bytes file = io::serialize_safetensors(tensors);
  io::SafetensorsFile back;
  try {
    back = io::parse_safetensors(file);
  } catch (const Error& e) {
    FAIL() << "a file serialize_safetensors wrote was refused: " << e.what() << "\n  header: " << header_of(file);
  }
  ASSERT_EQ(back.tensors.size(), 2u);
  std::map<std::string, Tensor> t(back.tensors.begin(), back.tensors.end());
  EXPECT_EQ(t.at("z_empty").shape(), Shape({0, 4}));
  EXPECT_EQ(t.at("a").to_vector(), (std::vector<double>{1, 2}));
}

TEST(Safetensors, SerializeRefusesBadNames) {
  const Tensor t = Tensor::zeros({1});
  EXPECT_GLASS_ERROR([&] { io::serialize_safetensors({{"a", t}, {"a", t}}); }, {"\"a\""});
  EXPECT_GLASS_ERROR([&] { io::serialize_safetensors({{"__metadata__", t}}); }, {"__metadata__"});
  // JSON text is UTF-8: a name or metadata value that is not cannot be written
  EXPECT_GLASS_ERROR([&] { io::serialize_safetensors({{"bad\xFF", t}}); }, {"safetensors", "UTF-8"});
  EXPECT_GLASS_ERROR([&] { io::serialize_safetensors({{"a", t}}, {{"note", "\xC3"}}); }, {"safetensors", "UTF-8"});
}

// ---------------------------------------------------------------- refusals

// One valid two-tensor file: "a" F32 (2,) at [0, 8), "b" F64 (1,) at [8, 16).
const char* kGoodHeader = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F64","shape":[1],"data_offsets":[8,16]}})";
Bytes good_data() {
  Bytes d = raw(std::vector<float>{1.0f, 2.0f});
  const Bytes b = raw(std::vector<double>{3.0});
  d.insert(d.end(), b.begin(), b.end());
  return d;
}
Bytes good_file() { return make_file(kGoodHeader, good_data()); }

auto parse(const Bytes& b) {
  return [b] { io::parse_safetensors(b); };
}

TEST(SafetensorsRefuses, NothingWrongWithTheBaseFile) {
  const io::SafetensorsFile f = io::parse_safetensors(good_file());
  ASSERT_EQ(f.tensors.size(), 2u);
  EXPECT_TENSOR(f.tensors[0].second, (Shape{2}), {1.0, 2.0}, 0);
  EXPECT_TENSOR(f.tensors[1].second, (Shape{1}), {3.0}, 0);
}

TEST(SafetensorsRefuses, FileShorterThanTheLengthField) {
  EXPECT_GLASS_ERROR(parse({}), {"safetensors", "0 bytes", "8-byte header length", "truncated"});
  EXPECT_GLASS_ERROR(parse({7, 0, 0}), {"safetensors", "3 bytes", "8-byte header length"});
  const Bytes g = good_file();
  EXPECT_GLASS_ERROR(parse(Bytes(g.begin(), g.begin() + 7)), {"7 bytes"});
}

TEST(SafetensorsRefuses, HeaderLengthPastTheEnd) {
  Bytes g = good_file();
  const size_t size = g.size();
  Bytes b = g;
  b.resize(20);  // cut inside the header
  EXPECT_GLASS_ERROR(parse(b), {"header length " + std::to_string(get_u64(g)), "runs past the end", "20-byte file"});
  b = g;
  b[0] = 0xFF;  // header length 255 + ..., more than the file holds
  b[1] = 0xFF;
  EXPECT_GLASS_ERROR(parse(b), {"header length", "runs past the end", std::to_string(size) + "-byte file"});
  for (int i = 0; i < 8; ++i) b[static_cast<size_t>(i)] = 0xFF;  // 2^64 - 1: must not wrap around
  EXPECT_GLASS_ERROR(parse(b), {"header length 18446744073709551615", "runs past the end"});
}

TEST(SafetensorsRefuses, DataCutShort) {
  Bytes b = good_file();
  b.resize(b.size() - 3);  // the last tensor's bytes are incomplete
  EXPECT_GLASS_ERROR(parse(b), {"\"b\"", "[8, 16)", "run past the 13 data bytes", "truncated"});
  b.resize(8 + get_u64(b));  // header only, no data
  EXPECT_GLASS_ERROR(parse(b), {"run past the 0 data bytes"});
}

TEST(SafetensorsRefuses, BadJson) {
  EXPECT_GLASS_ERROR(parse(make_file(R"({"a":{"dtype":"F32",)", good_data())), {"safetensors", "bad header", "json"});
  EXPECT_GLASS_ERROR(parse(make_file(R"({"a" "x"})", good_data())), {"bad header", "json"});
  EXPECT_GLASS_ERROR(parse(make_file("", good_data())), {"bad header"});
  EXPECT_GLASS_ERROR(parse(make_file(std::string(kGoodHeader) + " trailing", good_data())), {"bad header"});
  EXPECT_GLASS_ERROR(parse(make_file("[1, 2]", good_data())), {"not a JSON object"});
  EXPECT_GLASS_ERROR(parse(make_file(R"({"a": 5})", good_data())), {"\"a\"", "not an object"});
}

TEST(SafetensorsRefuses, UnknownDtype) {
  for (const char* dt : {"BF16", "I64", "F16", "f32", "U8"}) {
    const std::string h = replace_once(kGoodHeader, "\"F32\"", std::string("\"") + dt + "\"");
    EXPECT_GLASS_ERROR(parse(make_file(h, good_data())), {"\"a\"", std::string("dtype \"") + dt + "\"", "only F32 and F64"});
  }
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "\"dtype\":\"F64\",", ""), good_data())),
                     {"\"b\"", "no dtype"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "\"F64\"", "64"), good_data())), {"\"b\"", "no dtype"});
}

TEST(SafetensorsRefuses, ShapeAndOffsetsDisagree) {
  // (3,) F32 is 12 bytes, the range is 8
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[2]", "[3]"), good_data())),
                     {"\"a\"", "shape (3,)", "12 bytes", "span 8 bytes"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[2]", "[2,2]"), good_data())), {"\"a\"", "span 8 bytes"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[2]", "[-2]"), good_data())), {"\"a\"", "bad shape size"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[2]", "[1.5]"), good_data())), {"bad shape size 1.5"});
  // only an integer token is an integer, as in the format's own reader: 2.0 and 2e0 are refused
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[2]", "[2.0]"), good_data())),
                     {"\"a\"", "bad shape size 2.0", "whole number"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[2]", "[2e0]"), good_data())), {"bad shape size 2.0"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[2]", "[18446744073709551617]"), good_data())),
                     {"bad shape size"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[2]", "\"2\""), good_data())), {"\"a\"", "no shape array"});
  // absurd shapes are a mismatch, not an overflow: the byte count is whole while a double holds it
  // exactly (2^53), and past what uint64_t holds it is written as a float, never converted to one
  // (undefined; the fuzzer found it with 1.6e+33)
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[2]", "[4294967296,4294967296]"), good_data())),
                     {"\"a\"", "(7.3787e+19 bytes)", "span 8 bytes"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[2]", "[2251799813685248]"), good_data())),
                     {"\"a\"", "(9007199254740992 bytes)", "span 8 bytes"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[2]", "[9007199254740992,9007199254740992,9007199254740992]"), good_data())),
                     {"\"a\"", "(2.923e+48 bytes)", "span 8 bytes"});
}

TEST(SafetensorsRefuses, OutOfRangeOffsets) {
  // "b" moved past the 16 data bytes (shape still matches the 8-byte span)
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[8,16]", "[16,24]"), good_data())),
                     {"\"b\"", "[16, 24)", "run past the 16 data bytes"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[8,16]", "[16,8]"), good_data())),
                     {"\"b\"", "end before they begin"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[8,16]", "[-8,0]"), good_data())),
                     {"\"b\"", "bad data offset"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[8,16]", "[8]"), good_data())),
                     {"\"b\"", "data_offsets [begin, end]"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[8,16]", "[1e300,1e300]"), good_data())),
                     {"\"b\"", "bad data offset"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[8,16]", "[8,16.0]"), good_data())),
                     {"\"b\"", "bad data offset 16.0"});
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[8,16]", "[8,null]"), good_data())),
                     {"\"b\"", "bad data offset null"});
}

TEST(SafetensorsRefuses, OverlappingOffsets) {
  // "b" (8 bytes) starting inside "a"
  EXPECT_GLASS_ERROR(parse(make_file(replace_once(kGoodHeader, "[8,16]", "[4,12]"), good_data())),
                     {"\"a\"", "\"b\"", "overlap"});
  // both on the same bytes
  const std::string same = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F64","shape":[1],"data_offsets":[0,8]}})";
  EXPECT_GLASS_ERROR(parse(make_file(same, good_data())), {"overlap"});
}

TEST(SafetensorsRefuses, DuplicateKey) {
  const std::string dup = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"a":{"dtype":"F64","shape":[1],"data_offsets":[8,16]}})";
  EXPECT_GLASS_ERROR(parse(make_file(dup, good_data())), {"bad header", "duplicate key \"a\""});
  // inside an entry too: the library alone would keep the second dtype
  const std::string dup_dtype = replace_once(kGoodHeader, R"("dtype":"F64",)", R"("dtype":"F32","dtype":"F64",)");
  EXPECT_GLASS_ERROR(parse(make_file(dup_dtype, good_data())), {"duplicate key \"dtype\" in \"b\""});
}

TEST(SafetensorsRefuses, BadMetadata) {
  const std::string h = replace_once(kGoodHeader, "{\"a\"", R"({"__metadata__":{"steps":5},"a")");
  EXPECT_GLASS_ERROR(parse(make_file(h, good_data())), {"__metadata__", "\"steps\"", "not a string"});
  const std::string h2 = replace_once(kGoodHeader, "{\"a\"", R"({"__metadata__":[1],"a")");
  EXPECT_GLASS_ERROR(parse(make_file(h2, good_data())), {"__metadata__ is not an object"});
}

// ---------------------------------------------------------------- model weights

nn::Config small_vocab_config() {
  nn::Config c;
  c.vocab = 11;
  c.context = 6;
  c.d = 16;
  c.blocks = 2;
  c.heads = 2;
  c.hidden = 12;
  return c;
}

using glass_test::weights_of;

bool unchanged(nn::Model& m, const std::map<std::string, std::vector<double>>& before) { return weights_of(m) == before; }

TEST(ModelWeights, SaveThenLoadIntoAnotherModel) {
  nn::Model a(small_vocab_config(), 1), b(small_vocab_config(), 2);
  const Bytes file = io::save_weights(a, {{"trained_steps", "0"}});
  // The keys and shapes are docs/model.md's, from the model's own walk.
  const io::SafetensorsFile f = io::parse_safetensors(file);
  EXPECT_EQ(f.tensors.size(), a.named_parameters().size());
  std::map<std::string, Tensor> t(f.tensors.begin(), f.tensors.end());
  for (const auto& [name, p] : a.named_parameters()) {
    ASSERT_TRUE(t.count(name)) << name;
    EXPECT_EQ(t.at(name).shape(), p.shape()) << name;
    EXPECT_EQ(t.at(name).dtype(), DType::f32) << name;
  }
  EXPECT_EQ(io::config_from_json(f.metadata.at("glassllm.config")), small_vocab_config());
  EXPECT_EQ(f.metadata.at("format"), "glassllm");
  EXPECT_EQ(f.metadata.at("trained_steps"), "0");

  const Tensor handle = b.head.weight;  // loading is in place: handles stay valid
  io::load_weights(b, file);
  EXPECT_TRUE(weights_of(b) == weights_of(a));
  EXPECT_EQ(handle.impl(), b.head.weight.impl());
  const std::vector<int32_t> ids = {1, 2, 3, 4, 5};
  EXPECT_EQ(a.forward(ids, 1).logits.to_vector(), b.forward(ids, 1).logits.to_vector());
}

TEST(ModelWeights, F64FileIntoF32ModelAndBack) {
  nn::Config c64 = small_vocab_config();
  c64.dtype = DType::f64;
  nn::Model m64(c64, 3);
  const Bytes file = io::save_weights(m64);
  EXPECT_NE(header_of(file).find("\"F64\""), std::string::npos);
  EXPECT_EQ(header_of(file).find("\"F32\""), std::string::npos);
  nn::Model m32(small_vocab_config(), 4);
  io::load_weights(m32, file);  // cast to the model's dtype
  EXPECT_EQ(m32.head.weight.dtype(), DType::f32);
  const std::vector<double> w64 = m64.head.weight.to_vector(), w32 = m32.head.weight.to_vector();
  for (size_t i = 0; i < w64.size(); ++i) EXPECT_EQ(w32[i], static_cast<double>(static_cast<float>(w64[i])));
}

TEST(ModelWeights, RefusedFilesLeaveTheModelUnchanged) {
  nn::Model source(small_vocab_config(), 5);
  const io::NamedTensors good = source.named_parameters();
  nn::Model model(small_vocab_config(), 6);
  const auto before = weights_of(model);

  auto without = [&](const std::string& name) {
    io::NamedTensors out;
    for (const auto& named : good)
      if (named.first != name) out.emplace_back(named.first, named.second.detach());
    return out;
  };
  auto load = [&](const io::NamedTensors& tensors) {
    const Bytes file = io::serialize_safetensors(tensors);
    return [&model, file] { io::load_weights(model, file); };
  };

  // missing key (the last one, so a loader that copied as it went would have changed everything else)
  EXPECT_GLASS_ERROR(load(without("head.weight")), {"weights", "missing tensor \"head.weight\"", "(11, 16)"});
  EXPECT_TRUE(unchanged(model, before));

  // extra key
  io::NamedTensors extra = without("");
  extra.emplace_back("blocks.2.attn.wq.weight", Tensor::zeros({16, 16}));
  EXPECT_GLASS_ERROR(load(extra), {"unexpected tensor \"blocks.2.attn.wq.weight\""});
  EXPECT_TRUE(unchanged(model, before));

  // wrong shape
  io::NamedTensors wrong = without("head.weight");
  wrong.emplace_back("head.weight", Tensor::zeros({16, 11}));
  EXPECT_GLASS_ERROR(load(wrong), {"\"head.weight\"", "shape (16, 11)", "expected (11, 16)"});
  EXPECT_TRUE(unchanged(model, before));
  wrong = without("norm_final.gamma");
  wrong.emplace_back("norm_final.gamma", Tensor::ones({1, 16}));
  EXPECT_GLASS_ERROR(load(wrong), {"\"norm_final.gamma\"", "shape (1, 16)", "expected (16,)"});
  EXPECT_TRUE(unchanged(model, before));

  // a weights file of another configuration
  nn::Config wider = small_vocab_config();
  wider.d = 32;
  nn::Model other(wider, 7);
  EXPECT_GLASS_ERROR([&] { io::load_weights(model, io::save_weights(other)); }, {"differs", "d: 32 vs 16"});
  EXPECT_TRUE(unchanged(model, before));
  EXPECT_GLASS_ERROR([&] { io::load_weights(model, other.named_parameters()); }, {"shape", "expected"});
  EXPECT_TRUE(unchanged(model, before));

  // duplicate names (the in-memory overload: a file cannot hold them, its JSON refuses)
  io::NamedTensors dup = without("");
  dup.push_back(dup.front());
  EXPECT_GLASS_ERROR([&] { io::load_weights(model, dup); }, {"\"tok_emb.weight\"", "appears twice"});
  EXPECT_TRUE(unchanged(model, before));

  // a truncated file and a damaged header
  const Bytes file = io::save_weights(source);
  EXPECT_GLASS_ERROR([&] { io::load_weights(model, Bytes(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(file.size() / 2))); },
                     {"safetensors", "truncated"});
  EXPECT_TRUE(unchanged(model, before));
  EXPECT_GLASS_ERROR([&] { io::load_weights(model, with_header(file, replace_once(header_of(file), "\"F32\"", "\"BF16\""))); },
                     {"\"BF16\""});
  EXPECT_TRUE(unchanged(model, before));
  EXPECT_GLASS_ERROR([&] { io::load_weights(model, with_header(file, header_of(file).substr(0, 100))); }, {"bad header"});
  EXPECT_TRUE(unchanged(model, before));

  // and the good file does load
  io::load_weights(model, io::serialize_safetensors(without("")));
  EXPECT_TRUE(weights_of(model) == weights_of(source));
}

TEST(ModelWeights, ConfigFromWeights) {
  nn::Model model(small_vocab_config(), 8);
  const nn::Config c = io::config_from_weights(io::save_weights(model));
  EXPECT_EQ(c.vocab, 11);
  EXPECT_EQ(c.d, 16);
  EXPECT_EQ(c.blocks, 2);
  EXPECT_EQ(c.hidden, 12);
  EXPECT_EQ(c.heads, 2);  // from metadata
  EXPECT_EQ(c.context, 6);
  EXPECT_EQ(c.dtype, DType::f32);

  nn::Model def;
  const nn::Config d = io::config_from_weights(io::save_weights(def));
  EXPECT_EQ(d.vocab, 256);
  EXPECT_EQ(d.d, 128);
  EXPECT_EQ(d.blocks, 4);
  EXPECT_EQ(d.hidden, 384);
  EXPECT_EQ(d.heads, 4);
  EXPECT_EQ(d.context, 128);

  // no metadata: heads and context take the defaults (4 heads: d 16 -> width 4, valid)
  io::NamedTensors plain = model.named_parameters();
  for (auto& named : plain) named.second = named.second.detach();
  const nn::Config p = io::config_from_weights(io::serialize_safetensors(plain));
  EXPECT_EQ(p.heads, 4);
  EXPECT_EQ(p.context, 128);
  EXPECT_EQ(p.blocks, 2);

  EXPECT_GLASS_ERROR([&] { io::config_from_weights(io::serialize_safetensors(plain, {{"heads", "two"}})); },
                     {"metadata \"heads\"", "\"two\""});
  EXPECT_GLASS_ERROR([&] { io::config_from_weights(io::serialize_safetensors(plain, {{"heads", "3"}})); },
                     {"heads must divide d"});
  io::NamedTensors no_emb(plain.begin() + 1, plain.end());
  EXPECT_GLASS_ERROR([&] { io::config_from_weights(io::serialize_safetensors(no_emb)); }, {"\"tok_emb.weight\""});
  EXPECT_GLASS_ERROR([&] { io::config_from_weights(Bytes{1, 2}); }, {"safetensors", "2 bytes"});
}

// ---------------------------------------------------------------- issue 13: hardening

TEST(ModelWeights, NonFiniteParametersAreLoadedAndNamed) {
  nn::Model source(small_vocab_config(), 9);
  io::NamedTensors tensors = source.named_parameters();
  for (auto& named : tensors) named.second = named.second.detach().clone();
  auto poison = [&](const std::string& name, std::vector<double> at_start) {
    for (auto& [n, t] : tensors)
      if (n == name) {
        std::vector<double> v = t.to_vector();
        std::copy(at_start.begin(), at_start.end(), v.begin());
        t = Tensor::from_vector(v, t.shape(), t.dtype());
      }
  };
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  poison("tok_emb.weight", {nan, inf, -inf});
  poison("blocks.1.norm_ffn.gamma", std::vector<double>(16, nan));
  nn::Model model(small_vocab_config(), 10);
  EXPECT_TRUE(io::non_finite_parameters(model).empty());
  EXPECT_EQ(io::non_finite_warning({}), "");
  io::load_weights(model, io::serialize_safetensors(tensors, {{"glassllm.config", io::config_to_json(small_vocab_config())}}));
  const std::vector<io::NonFinite> found = io::non_finite_parameters(model);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].name, "tok_emb.weight");
  EXPECT_EQ(found[0].count, 3);
  EXPECT_EQ(found[0].numel, 11 * 16);
  EXPECT_EQ(found[1].name, "blocks.1.norm_ffn.gamma");
  EXPECT_EQ(found[1].count, 16);
  const std::string w = io::non_finite_warning(found);
  EXPECT_NE(w.find("2 parameters hold NaN or infinite values"), std::string::npos) << w;
  EXPECT_NE(w.find("tok_emb.weight (3 of 176)"), std::string::npos) << w;
  EXPECT_NE(w.find("blocks.1.norm_ffn.gamma (all 16)"), std::string::npos) << w;
  // load_model too, in either dtype
  const std::unique_ptr<nn::Model> m64 =
      io::load_model(io::serialize_safetensors(tensors, {{"glassllm.config", io::config_to_json(small_vocab_config())}}), DType::f64);
  EXPECT_EQ(io::non_finite_parameters(*m64).size(), 2u);
  // many: at most 8 names, then a count
  std::vector<io::NonFinite> many;
  for (int i = 0; i < 11; ++i) many.push_back({std::string(1, static_cast<char>('a' + i)), 1, 2});
  EXPECT_NE(io::non_finite_warning(many).find("h (1 of 2) and 3 more"), std::string::npos) << io::non_finite_warning(many);
}

TEST(ModelWeights, LegacyMetadataIsReadStrictly) {
  nn::Model model(small_vocab_config(), 8);
  io::NamedTensors plain = model.named_parameters();
  for (auto& named : plain) named.second = named.second.detach();
  for (const char* bad : {"2x", " 2", "2 ", "", "+2", "0x2", "2.0", "99999999999999999999"})
    EXPECT_GLASS_ERROR([&] { io::config_from_weights(io::serialize_safetensors(plain, {{"heads", bad}})); },
                       {"weights: metadata \"heads\" is not a whole number"});
  for (const char* bad : {"nan", "1e4x", " 1e4", ""})
    EXPECT_GLASS_ERROR([&] { io::config_from_weights(io::serialize_safetensors(plain, {{"rope_base", bad}})); },
                       {"weights: metadata \"rope_base\" is not a number"});
  EXPECT_GLASS_ERROR([&] { io::config_from_weights(io::serialize_safetensors(plain, {{"rope_base", "1e999"}})); },
                     {"rope_base must be finite"});
  EXPECT_EQ(io::config_from_weights(io::serialize_safetensors(plain, {{"heads", "2"}, {"rope_base", "500"}})).rope_base, 500);
  // a file without a config is checked against its tensors like one with: head.weight must match tok_emb.weight
  io::NamedTensors wrong_head = plain;
  for (auto& [n, t] : wrong_head)
    if (n == "head.weight") t = Tensor::zeros({11, 8});
  EXPECT_GLASS_ERROR([&] { io::config_from_weights(io::serialize_safetensors(wrong_head, {{"heads", "2"}})); },
                     {"weights:", "\"head.weight\"", "(11, 8)"});
}

TEST(SafetensorsRefuses, AnEmptyShapePastTheCap) {
  // (0, 2^40, 2^40) holds no bytes, but no tensor may have that shape: refused by the reader, named
  const Bytes file = make_file(R"({"z":{"dtype":"F32","shape":[0,1099511627776,1099511627776],"data_offsets":[0,0]}})", {});
  EXPECT_GLASS_ERROR([&] { io::parse_safetensors(file); }, {"safetensors: entry \"z\"", "(0, 1099511627776, 1099511627776)"});
}

}  // namespace
