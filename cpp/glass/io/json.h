#pragma once
// A small JSON value, parser and writer: enough for safetensors headers and
// the CLI's inspect output, with errors that say where the text went wrong.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace glass::io {

class Json {
 public:
  enum class Kind { null, boolean, number, string, array, object };

  Json() = default;
  static Json number(double v);
  static Json string(std::string v);
  static Json array(std::vector<Json> items = {});
  static Json object();

  Kind kind() const { return kind_; }
  bool is(Kind k) const { return kind_ == k; }
  double as_number() const { return number_; }
  bool as_bool() const { return boolean_; }
  const std::string& as_string() const { return string_; }
  const std::vector<Json>& items() const { return items_; }
  // Object members in key order (std::map): deterministic output.
  const std::map<std::string, Json>& members() const { return members_; }
  const Json* find(const std::string& key) const;

  Json& push(Json v);                        // arrays
  Json& set(const std::string& key, Json v);  // objects

  // Throws glass::Error("json: ... at byte N") on malformed text.
  static Json parse(std::string_view text);
  // Compact; numbers with 17 significant digits so doubles round-trip
  // (9 for values that came from float32 are the caller's choice via number()).
  std::string dump() const;
  void dump_to(std::string& out) const;

 private:
  Kind kind_ = Kind::null;
  bool boolean_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Json> items_;
  std::map<std::string, Json> members_;
  friend class JsonParser;
};

}  // namespace glass::io
