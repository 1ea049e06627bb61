// glass::io::parse_json: nlohmann-json read strictly. What the library accepts
// comes back as the library's own DOM; what it lets through by default (the
// last of two equal keys, any depth, any size) is refused with the byte where
// it showed, and the library's syntax errors arrive as glass::Error in our form.
#include <cstdint>
#include <string>

#include "glass/io/json.h"
#include "gradcheck.h"

namespace {

using glass::io::JsonLimits;
using glass::io::parse_json;
using nlohmann::json;

constexpr JsonLimits kRoomy{.max_depth = 64, .max_values = 1u << 20};

auto parse(const std::string& text, JsonLimits limits = kRoomy) {
  return [text, limits] { parse_json(text, limits); };
}

TEST(Json, ReadsWhatTheLibraryReads) {
  const std::string text =
      R"( {"s": "a\"b\\c\u00e9\ud83d\ude00\n", "n": [0, 7, -3, 2.5, -1e-7, 18446744073709551615],
           "o": {"t": true, "f": false, "z": null, "e": {}, "a": []}, "": "empty key"} )";
  EXPECT_EQ(parse_json(text, kRoomy), json::parse(text));
  EXPECT_EQ(parse_json(text, kRoomy)["s"], "a\"b\\c\xC3\xA9\xF0\x9F\x98\x80\n");
  EXPECT_EQ(parse_json("3", kRoomy), json(3u));  // any value may be the document
}

TEST(Json, NumbersKeepTheirKind) {
  // A caller that wants an exact non-negative integer accepts only is_number_unsigned().
  const json j = parse_json(R"([2, -2, 2.0, 1e3, 18446744073709551615, 18446744073709551616, 0, -0])", kRoomy);
  EXPECT_TRUE(j[0].is_number_unsigned());
  EXPECT_TRUE(j[1].is_number_integer() && !j[1].is_number_unsigned());
  EXPECT_TRUE(j[2].is_number_float());
  EXPECT_TRUE(j[3].is_number_float());
  EXPECT_TRUE(j[4].is_number_unsigned());
  EXPECT_EQ(j[4].get<uint64_t>(), UINT64_MAX);
  EXPECT_TRUE(j[5].is_number_float()) << "past 2^64 - 1 is no longer an integer";
  EXPECT_TRUE(j[6].is_number_unsigned());
  EXPECT_FALSE(j[7].is_number_unsigned()) << "-0 is written with a sign";
}

TEST(Json, RefusesDuplicateKeysWhereverTheyAre) {
  // Why the strict reader exists: the library's own parse keeps the last one.
  EXPECT_EQ(json::parse(R"({"a":1,"a":2})")["a"], 2);
  //                      0123456789
  EXPECT_GLASS_ERROR(parse(R"({"a":1,"a":2})"), {"json: at byte 9: duplicate key \"a\""});
  EXPECT_GLASS_ERROR(parse(R"({"x":{"k":1,"k":2}})"), {"duplicate key \"k\" in \"x\""});
  EXPECT_GLASS_ERROR(parse(R"({"x":[0,{"k":1,"k":2}]})"), {"duplicate key \"k\" in \"x\"[1]"});
  EXPECT_GLASS_ERROR(parse(R"({"x":{"y":{"":1,"":2}}})"), {"duplicate key \"\" in \"x\".\"y\""});
  // the same key in two different objects is fine, and so are keys that differ only in case
  EXPECT_EQ(parse_json(R"({"a":{"k":1},"b":{"k":2},"K":{"k":3,"K":4}})", kRoomy).size(), 3u);
  // escapes are compared after decoding: "\u0061" is "a"
  EXPECT_GLASS_ERROR(parse(R"({"a":1,"\u0061":2})"), {"duplicate key \"a\""});
  // a long key is shown by its first 60 bytes
  const std::string key(100'000, 'k');
  EXPECT_GLASS_ERROR(parse("{\"" + key + "\":1,\"" + key + "\":2}"), {"duplicate key \"" + key.substr(0, 60) + "...\""});
}

TEST(Json, RefusesNestingPastTheLimitBeforeGoingDeeper) {
  const JsonLimits three{.max_depth = 3, .max_values = 100};
  EXPECT_NO_THROW(parse_json(R"({"a":{"b":[1]}})", three));
  EXPECT_NO_THROW(parse_json("[[[]]]", three));
  //                              0123
  EXPECT_GLASS_ERROR(parse("[[[[]]]]", three), {"json: at byte 3: nesting deeper than 3 levels in [0][0]"});
  EXPECT_GLASS_ERROR(parse(R"({"a":{"b":[{}]}})", three), {"nesting deeper than 3 levels in \"a\".\"b\""});
  // a million levels: refused at the 65th, without recursing or allocating for the rest
  EXPECT_GLASS_ERROR(parse(std::string(1'000'000, '[')), {"at byte 64: nesting deeper than 64 levels"});
  std::string objects;
  for (int i = 0; i < 100'000; ++i) objects += "{\"a\":";
  EXPECT_GLASS_ERROR(parse(objects), {"nesting deeper than 64 levels in \"a\".\"a\""});
}

TEST(Json, RefusesMoreValuesThanTheLimit) {
  const JsonLimits ten{.max_depth = 4, .max_values = 10};
  EXPECT_NO_THROW(parse_json("[1,2,3,4,5,6,7,8,9]", ten));  // the array and nine numbers
  //                                        1111111111222
  //                              01234567890123456789012
  EXPECT_GLASS_ERROR(parse("[1,2,3,4,5,6,7,8,9,10]", ten), {"json: at byte 20: more than 10 values"});
  EXPECT_GLASS_ERROR(parse(R"({"a":[],"b":{},"c":[[],[],[],[],[]],"d":0,"e":1})", ten), {"more than 10 values"});
  // two million items against the default-sized limit
  std::string big = "[0";
  for (int i = 0; i < 2'000'000; ++i) big += ",0";
  big += "]";
  EXPECT_GLASS_ERROR(parse(big), {"more than 1048576 values"});
}

TEST(Json, SyntaxErrorsNameTheByteAndWhatWasWrong) {
  struct Case {
    std::string text;
    std::string fragment;
  };
  const Case cases[] = {
      {"", "json: at byte 0: syntax error while parsing value - unexpected end of input"},
      {"   ", "at byte 3: syntax error while parsing value - unexpected end of input"},
      {R"({"a":1)", "at byte 6: syntax error while parsing object - unexpected end of input; expected '}'"},
      {R"({"a" 1})", "at byte 5: syntax error while parsing object separator"},
      {R"({"a":1,})", "at byte 7: syntax error while parsing object key"},
      {R"([1,2,])", "at byte 5: syntax error while parsing value"},
      {R"({a:1})", "at byte 1: syntax error while parsing object key - invalid literal"},
      {"[1] [2]", "at byte 4: syntax error while parsing value"},
      {"[01]", "syntax error"},
      {"[1.]", "invalid number"},
      {"[-]", "invalid number"},
      {"[NaN]", "invalid literal"},
      {"[Infinity]", "invalid literal"},
      {"[tru]", "invalid literal"},
      {"['a']", "invalid literal"},
      {"[\"a\nb\"]", "control character U+000A (LF) must be escaped"},
      {R"(["\x"])", "invalid string"},
      {R"(["\u12"])", "'\\u' must be followed by 4 hex digits"},
      {R"(["\ud800"])", "surrogate"},
      {R"(["\udc00"])", "surrogate"},
      {"[1] // comment", "syntax error"},
      {std::string("[1,\0]", 5), "syntax error"},
  };
  for (const Case& c : cases) EXPECT_GLASS_ERROR(parse(c.text), {c.fragment}) << "text: " << c.text;
}

TEST(Json, MessagesAreReadableText) {
  // Bytes that are not UTF-8 are refused, and the message shows them as \xHH
  // rather than passing them on raw.
  EXPECT_GLASS_ERROR(parse("[\"ab\xFF\"]"), {"ill-formed UTF-8", "last read: '\"ab\\xFF'"});
  EXPECT_GLASS_ERROR(parse("[\"\xC0\xAF\"]"), {"ill-formed UTF-8", "\\xC0"});  // overlong '/'
  EXPECT_GLASS_ERROR(parse("[\"\xED\xA0\x80\"]"), {"ill-formed UTF-8"});      // a surrogate in UTF-8
  // valid UTF-8 in the quoted text stays as it is
  EXPECT_GLASS_ERROR(parse("[\"\xC3\xA9\n\"]"), {"'\"\xC3\xA9<U+000A>'"});
  // and a long token is shortened to its last 40 bytes
  const std::string long_token = "[\"" + std::string(5000, 'x') + "\n\"]";
  try {
    parse_json(long_token, kRoomy);
    ADD_FAILURE() << "accepted a raw newline in a string";
  } catch (const glass::Error& e) {
    const std::string msg = e.what();
    EXPECT_LT(msg.size(), 300u) << msg;
    EXPECT_NE(msg.find("last read: '...xxxx"), std::string::npos) << msg;
  }
}

}  // namespace
