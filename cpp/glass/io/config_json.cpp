#include "glass/io/config_json.h"

#include <cstdint>
#include <functional>
#include <vector>

#include "glass/io/json.h"
#include "glass/tensor/error.h"
#include "glass/tensor/shape.h"

namespace glass::io {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

[[noreturn]] void bad_config(const std::string& what) { throw Error("config: " + what); }

// One field: how to write it, read it and show it. The one list of fields
// both directions and the comparison use.
struct Field {
  const char* name;
  bool architecture;
  std::function<ordered_json(const nn::Config&)> get;
  std::function<void(nn::Config&, const json&)> set;
};

int64_t whole(const char* name, const json& v) {
  if (!v.is_number_unsigned() || v.get<uint64_t>() > (uint64_t{1} << 31))
    bad_config(std::string("field \"") + name + "\" must be a whole number from 0 to 2^31, got " + v.dump());
  return static_cast<int64_t>(v.get<uint64_t>());
}
double number(const char* name, const json& v) {
  if (!v.is_number()) bad_config(std::string("field \"") + name + "\" must be a number, got " + v.dump());
  return v.get<double>();
}
std::string word(const char* name, const json& v) {
  if (!v.is_string()) bad_config(std::string("field \"") + name + "\" must be a string, got " + v.dump());
  return v.get<std::string>();
}
template <class Parse>
auto parsed(const char* name, const json& v, Parse parse) {
  try {
    return parse(word(name, v));
  } catch (const Error& e) {
    std::string msg = e.what();
    if (msg.starts_with("Config: ")) msg = msg.substr(8);
    bad_config(std::string("field \"") + name + "\": " + msg);
  }
}

#define GLASS_INT_FIELD(f, arch) \
  Field { #f, arch, [](const nn::Config& c) { return ordered_json(c.f); }, [](nn::Config& c, const json& v) { c.f = whole(#f, v); } }
#define GLASS_REAL_FIELD(f, arch) \
  Field { #f, arch, [](const nn::Config& c) { return ordered_json(c.f); }, [](nn::Config& c, const json& v) { c.f = number(#f, v); } }

const std::vector<Field>& fields() {
  static const std::vector<Field> all = {
      GLASS_INT_FIELD(vocab, true),
      GLASS_INT_FIELD(context, true),
      GLASS_INT_FIELD(d, true),
      GLASS_INT_FIELD(blocks, true),
      GLASS_INT_FIELD(heads, true),
      GLASS_INT_FIELD(hidden, true),
      Field{"norm", true, [](const nn::Config& c) { return ordered_json(nn::placement_name(c.norm)); },
            [](nn::Config& c, const json& v) { c.norm = parsed("norm", v, nn::parse_placement); }},
      Field{"norm_kind", true, [](const nn::Config& c) { return ordered_json(nn::norm_kind_name(c.norm_kind)); },
            [](nn::Config& c, const json& v) { c.norm_kind = parsed("norm_kind", v, nn::parse_norm_kind); }},
      Field{"residual", true, [](const nn::Config& c) { return ordered_json(c.residual); },
            [](nn::Config& c, const json& v) {
              if (!v.is_boolean()) bad_config("field \"residual\" must be true or false, got " + v.dump());
              c.residual = v.get<bool>();
            }},
      GLASS_REAL_FIELD(rope_base, true),
      GLASS_REAL_FIELD(eps, false),
      Field{"init_scale", false, [](const nn::Config& c) { return ordered_json(nn::init_scale_name(c.init_scale)); },
            [](nn::Config& c, const json& v) { c.init_scale = parsed("init_scale", v, nn::parse_init_scale); }},
      Field{"dtype", false, [](const nn::Config& c) { return ordered_json(dtype_name(c.dtype)); },
            [](nn::Config& c, const json& v) { c.dtype = parsed("dtype", v, [](const std::string& s) { return parse_dtype(s); }); }},
  };
  return all;
}

#undef GLASS_INT_FIELD
#undef GLASS_REAL_FIELD

}  // namespace

std::string config_to_json(const nn::Config& c) {
  ordered_json out = ordered_json::object();
  for (const Field& f : fields()) out[f.name] = f.get(c);
  return out.dump();
}

nn::Config config_from_json(std::string_view text) {
  json root;
  try {
    root = parse_json(text, JsonLimits{.max_depth = 1, .max_values = 64});
  } catch (const Error& e) {
    bad_config(e.what());
  }
  if (!root.is_object()) bad_config("not a JSON object: " + std::string(text.substr(0, 60)));
  nn::Config c;
  for (const auto& [key, value] : root.items()) {
    const Field* field = nullptr;
    for (const Field& f : fields())
      if (key == f.name) field = &f;
    if (!field) {
      std::string known;
      for (const Field& f : fields()) known += (known.empty() ? "" : ", ") + std::string(f.name);
      bad_config("unknown field " + json(key).dump(-1, ' ', false, json::error_handler_t::replace) + " (known: " + known + ")");
    }
    field->set(c, value);
  }
  try {
    c.validate();
  } catch (const Error& e) {
    std::string msg = e.what();
    if (msg.starts_with("Config: ")) msg = msg.substr(8);
    bad_config(msg);
  }
  return c;
}

std::string config_difference(const nn::Config& a, const nn::Config& b, ConfigFields which) {
  for (const Field& f : fields()) {
    if (which == ConfigFields::architecture && !f.architecture) continue;
    const ordered_json va = f.get(a), vb = f.get(b);
    if (va != vb) return std::string(f.name) + ": " + va.dump() + " vs " + vb.dump();
  }
  return "";
}

}  // namespace glass::io
