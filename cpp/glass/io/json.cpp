#include "glass/io/json.h"

#include <iterator>
#include <string>
#include <vector>

#include "glass/tensor/error.h"

namespace glass::io {

namespace {

using nlohmann::json;

// The library reads its input through an iterator and tells a SAX handler only
// about syntax errors' positions. This iterator records how far it has read, so
// the refusals made in the handler (duplicate key, too deep, too big) can name
// a byte too.
class TrackedIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackedIterator(const char* p, const char** furthest) : p_(p), furthest_(furthest) {}
  reference operator*() const { return *p_; }
  TrackedIterator& operator++() {
    *furthest_ = ++p_;
    return *this;
  }
  TrackedIterator operator++(int) {
    TrackedIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const TrackedIterator& o) const { return p_ == o.p_; }
  bool operator!=(const TrackedIterator& o) const { return p_ != o.p_; }

 private:
  const char* p_;
  const char** furthest_;
};

// A key as a message shows it: quoted and escaped, at most 60 bytes of it.
std::string shown(const std::string& key) {
  constexpr std::size_t kMax = 60;
  const std::string cut = key.size() > kMax ? key.substr(0, kMax) + "..." : key;
  return json(cut).dump(-1, ' ', false, json::error_handler_t::replace);  // a cut inside a character becomes U+FFFD
}

// Length of the well-formed UTF-8 sequence at s[i], or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  const std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
  if (n == 0 || c > 0xF4 || c == 0xC0 || c == 0xC1 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if ((c == 0xE0 && b(i + 1) < 0xA0) || (c == 0xED && b(i + 1) >= 0xA0) || (c == 0xF0 && b(i + 1) < 0x90) ||
      (c == 0xF4 && b(i + 1) >= 0x90))
    return 0;  // overlong, a surrogate, or past U+10FFFF
  return n;
}

// The library's message quotes what it last read, raw: keep the last 40 bytes
// of that and write bytes that are not UTF-8 as \xHH, so the message prints
// (and crosses into JavaScript) as readable text.
std::string readable(std::string what) {
  const std::string marker = "last read: '";
  const std::size_t start = what.find(marker);
  if (start != std::string::npos) {
    const std::size_t from = start + marker.size();
    std::size_t to = what.find("'; expected ", from);
    if (to == std::string::npos) to = what.size() - (what.ends_with('\'') ? 1 : 0);
    constexpr std::size_t kKeep = 40;
    if (to > from + kKeep) what.replace(from, to - from - kKeep, "...");
  }
  std::string out;
  for (std::size_t i = 0; i < what.size();) {
    if (const std::size_t n = utf8_length(what, i)) {
      out.append(what, i, n);
      i += n;
    } else {
      static const char* hex = "0123456789ABCDEF";
      const auto c = static_cast<unsigned char>(what[i++]);
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// Builds the document as the library's own DOM parser would, refusing what the
// limits and strictness forbid before it allocates for it. Refusals return
// false (the library then stops) and leave the message in error().
class StrictDom final : public nlohmann::json_sax<json> {
 public:
  StrictDom(const JsonLimits& limits, const char* begin, const char* const* furthest)
      : limits_(limits), begin_(begin), furthest_(furthest) {}

  json& root() { return root_; }
  const std::string& error() const { return error_; }

  bool null() override { return put(nullptr); }
  bool boolean(bool v) override { return put(v); }
  // The library reads one byte past a number before it knows the number ended.
  bool number_integer(number_integer_t v) override { return put(v, kLookahead); }
  bool number_unsigned(number_unsigned_t v) override { return put(v, kLookahead); }
  bool number_float(number_float_t v, const string_t&) override { return put(v, kLookahead); }
  bool string(string_t& v) override { return put(std::move(v)); }
  bool binary(binary_t&) override { return refuse("binary value"); }  // only binary formats have these

  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Level& top = stack_.back();
    if (top.value->contains(k)) return refuse("duplicate key " + shown(k) + where());
    top.key = std::move(k);
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    // "[json.exception.parse_error.101] parse error at line 1, column 5: <what went wrong>"
    std::string what = e.what();
    const std::size_t tag = what.find(']');
    const std::size_t colon = what.find(": ", tag == std::string::npos ? 0 : tag);
    if (colon != std::string::npos) what.erase(0, colon + 2);
    // the library counts the byte it stopped at from 1
    error_ = "at byte " + std::to_string(position ? position - 1 : 0) + ": " + readable(what);
    return false;
  }

 private:
  struct Level {
    json* value;
    std::string path;  // how the container is reached from the root, for messages
    std::string key;   // objects: the key whose value comes next
  };

  static constexpr bool kLookahead = true;

  // Names the last byte of what is refused: the last byte read, or after a
  // number (which ends in a digit) the one before, unless the text ended there.
  bool refuse(const std::string& what, bool lookahead = false) {
    std::size_t read = static_cast<std::size_t>(*furthest_ - begin_);
    if (lookahead && read > 1 && !(begin_[read - 1] >= '0' && begin_[read - 1] <= '9')) --read;
    error_ = "at byte " + std::to_string(read ? read - 1 : 0) + ": " + what;
    return false;
  }

  std::string where() const {
    const std::string& path = stack_.back().path;
    return path.empty() ? "" : " in " + path;
  }

  bool counted(bool lookahead = false) {
    if (++values_ <= limits_.max_values) return true;
    return refuse("more than " + std::to_string(limits_.max_values) + " values", lookahead);
  }

  // Places v in the open container (or as the root); returns where it went.
  json* place(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Level& top = stack_.back();
    if (top.value->is_object()) return &((*top.value)[top.key] = std::move(v));
    top.value->push_back(std::move(v));
    return &top.value->back();
  }

  template <class V>
  bool put(V&& v, bool lookahead = false) {
    if (!counted(lookahead)) return false;
    place(json(std::forward<V>(v)));
    return true;
  }

  bool open(json&& empty) {
    if (stack_.size() >= static_cast<std::size_t>(limits_.max_depth))
      return refuse("nesting deeper than " + std::to_string(limits_.max_depth) + " levels" + where());
    if (!counted()) return false;
    std::string path;
    if (!stack_.empty()) {
      const Level& top = stack_.back();
      path = top.path + (top.value->is_object() ? (top.path.empty() ? "" : ".") + shown(top.key)
                                                : "[" + std::to_string(top.value->size()) + "]");
    }
    // A child's address stays valid while it is open: its parent grows only after it closes.
    json* slot = place(std::move(empty));
    stack_.push_back({slot, std::move(path), {}});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  JsonLimits limits_;
  const char* begin_;
  const char* const* furthest_;
  json root_;
  std::vector<Level> stack_;
  std::size_t values_ = 0;
  std::string error_;
};

}  // namespace

json parse_json(std::string_view text, const JsonLimits& limits) {
  const char* furthest = text.data();
  StrictDom dom(limits, text.data(), &furthest);
  const bool ok = json::sax_parse(TrackedIterator(text.data(), &furthest),
                                  TrackedIterator(text.data() + text.size(), &furthest), &dom);
  if (!ok) throw Error("json: " + dom.error());
  return std::move(dom.root());
}

}  // namespace glass::io
