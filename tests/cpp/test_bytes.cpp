// The byte tokenizer (glass::io): a text's UTF-8 bytes are its tokens, and
// display_byte shows any byte readably.
#include <string>
#include <vector>

#include "glass/io/bytes.h"
#include "gradcheck.h"

namespace {

using namespace glass;

TEST(Bytes, EncodeIsTheUtf8Bytes) {
  // A (1 byte), é (2), 日 (3), 🙂 (4)
  const std::string text = "A\xC3\xA9\xE6\x97\xA5\xF0\x9F\x99\x82";
  EXPECT_EQ(io::encode_bytes(text),
            (std::vector<int32_t>{0x41, 0xC3, 0xA9, 0xE6, 0x97, 0xA5, 0xF0, 0x9F, 0x99, 0x82}));
  EXPECT_EQ(io::decode_bytes(io::encode_bytes(text)), text);
  EXPECT_TRUE(io::encode_bytes("").empty());
  EXPECT_EQ(io::decode_bytes({}), "");
}

TEST(Bytes, EveryByteRoundTrips) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);  // includes 0x00 and invalid UTF-8
  const std::vector<int32_t> ids = io::encode_bytes(all);
  ASSERT_EQ(ids.size(), 256u);
  for (int b = 0; b < 256; ++b) EXPECT_EQ(ids[static_cast<size_t>(b)], b);  // unsigned: no negative ids
  EXPECT_EQ(io::decode_bytes(ids), all);
  // a UTF-8 character cut in half still round-trips byte for byte
  const std::string half = "caf\xC3";
  EXPECT_EQ(io::decode_bytes(io::encode_bytes(half)), half);
}

TEST(Bytes, DecodeRefusesNonBytes) {
  EXPECT_GLASS_ERROR([] { io::decode_bytes({65, 256}); }, {"256", "position 1", "not a byte"});
  EXPECT_GLASS_ERROR([] { io::decode_bytes({-1}); }, {"-1", "position 0"});
}

TEST(Bytes, DisplayByte) {
  EXPECT_EQ(io::display_byte(' '), "\xE2\x90\xA3");  // U+2423 OPEN BOX
  EXPECT_EQ(io::display_byte('\n'), "\\n");
  EXPECT_EQ(io::display_byte('\t'), "\\t");
  EXPECT_EQ(io::display_byte('\r'), "\\r");
  EXPECT_EQ(io::display_byte(0x00), "\\x00");
  EXPECT_EQ(io::display_byte(0x1B), "\\x1B");
  EXPECT_EQ(io::display_byte(0x7F), "\\x7F");  // DEL is not printable
  EXPECT_EQ(io::display_byte(0xC3), "\\xC3");  // first byte of é
  EXPECT_EQ(io::display_byte(0xFF), "\\xFF");
  for (int b = '!'; b <= '~'; ++b) EXPECT_EQ(io::display_byte(b), std::string(1, static_cast<char>(b)));
  EXPECT_EQ(io::display_byte('A'), "A");
  EXPECT_EQ(io::display_byte('\\'), "\\");
  EXPECT_GLASS_ERROR([] { io::display_byte(256); }, {"256", "not a byte"});
  EXPECT_GLASS_ERROR([] { io::display_byte(-3); }, {"-3"});
  // every byte displays as something visible and non-empty
  for (int b = 0; b < 256; ++b) {
    const std::string s = io::display_byte(b);
    EXPECT_FALSE(s.empty()) << b;
    for (char ch : s) EXPECT_FALSE(static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) << "byte " << b;
  }
}

}  // namespace
