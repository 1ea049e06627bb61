#include "glass/io/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "glass/tensor/error.h"

namespace glass::io {

Json Json::number(double v) {
  Json j;
  j.kind_ = Kind::number;
  j.number_ = v;
  return j;
}
Json Json::string(std::string v) {
  Json j;
  j.kind_ = Kind::string;
  j.string_ = std::move(v);
  return j;
}
Json Json::array(std::vector<Json> items) {
  Json j;
  j.kind_ = Kind::array;
  j.items_ = std::move(items);
  return j;
}
Json Json::object() {
  Json j;
  j.kind_ = Kind::object;
  return j;
}
const Json* Json::find(const std::string& key) const {
  auto it = members_.find(key);
  return it == members_.end() ? nullptr : &it->second;
}
Json& Json::push(Json v) {
  items_.push_back(std::move(v));
  return items_.back();
}
Json& Json::set(const std::string& key, Json v) { return members_[key] = std::move(v); }

// ---------------------------------------------------------------- parser

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : s_(text) {}

  Json document() {
    Json v = value(0);
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text after the value");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 64;  // a header nests 3 deep; refuse absurd input without recursing far

  [[noreturn]] void fail(const std::string& what) const {
    throw Error("json: " + what + " at byte " + std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Json value(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth));
    skip_space();
    if (pos_ >= s_.size()) fail("unexpected end of text");
    const char c = s_[pos_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') return Json::string(string());
    if (literal("true")) {
      Json j;
      j.kind_ = Json::Kind::boolean;
      j.boolean_ = true;
      return j;
    }
    if (literal("false")) {
      Json j;
      j.kind_ = Json::Kind::boolean;
      return j;
    }
    if (literal("null")) return Json();
    return number();
  }

  Json object(int depth) {
    expect('{');
    Json obj = Json::object();
    if (eat('}')) return obj;
    do {
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a string key");
      std::string key = string();
      if (obj.members_.count(key)) fail("duplicate key \"" + key + "\"");
      expect(':');
      obj.members_[key] = value(depth + 1);
    } while (eat(','));
    expect('}');
    return obj;
  }

  Json array(int depth) {
    expect('[');
    Json arr = Json::array();
    if (eat(']')) return arr;
    do arr.items_.push_back(value(depth + 1));
    while (eat(','));
    expect(']');
    return arr;
  }

  std::string string() {
    ++pos_;  // opening quote
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated escape");
      const char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned code = hex4();
          if (code >= 0xD800 && code < 0xDC00) {  // surrogate pair
            if (!literal("\\u")) fail("lone surrogate");
            const unsigned low = hex4();
            if (low < 0xDC00 || low >= 0xE000) fail("bad low surrogate");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(out, code);
          break;
        }
        default: fail(std::string("bad escape \\") + e);
      }
    }
  }

  unsigned hex4() {
    if (pos_ + 4 > s_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else fail("bad hex digit in \\u escape");
    }
    return v;
  }

  static void append_utf8(std::string& out, unsigned c) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }

  Json number() {
    const std::size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    auto digits = [&] {
      const std::size_t d0 = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ > d0;
    };
    if (!digits()) fail("expected a value");
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (!digits()) fail("expected digits after '.'");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (!digits()) fail("expected exponent digits");
    }
    const std::string text(s_.substr(start, pos_ - start));
    return Json::number(std::strtod(text.c_str(), nullptr));
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

Json Json::parse(std::string_view text) { return JsonParser(text).document(); }

// ---------------------------------------------------------------- writer

namespace {
void dump_string(std::string& out, const std::string& s) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}
}  // namespace

void Json::dump_to(std::string& out) const {
  switch (kind_) {
    case Kind::null: out += "null"; break;
    case Kind::boolean: out += boolean_ ? "true" : "false"; break;
    case Kind::number: {
      // JSON has no NaN or Infinity: write null so strict parsers accept the file
      if (!std::isfinite(number_)) {
        out += "null";
        break;
      }
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", number_);
      out += buf;
      break;
    }
    case Kind::string: dump_string(out, string_); break;
    case Kind::array:
      out += '[';
      for (std::size_t i = 0; i < items_.size(); ++i) {
        if (i) out += ',';
        items_[i].dump_to(out);
      }
      out += ']';
      break;
    case Kind::object: {
      out += '{';
      bool first = true;
      for (const auto& [k, v] : members_) {
        if (!first) out += ',';
        first = false;
        dump_string(out, k);
        out += ':';
        v.dump_to(out);
      }
      out += '}';
      break;
    }
  }
}

std::string Json::dump() const {
  std::string out;
  dump_to(out);
  return out;
}

}  // namespace glass::io
