// A JSON reader that remembers where every key and value is, so that
// configuration errors point at `file:line:col` of the offending key.
// nlohmann::json parses without positions, hence this small reader.
// Accepts JSON plus `//` and `/* */` comments and trailing commas in objects
// and arrays (as VS Code's jsonc does).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "nlohmann/json.hpp"

namespace hlolint {

struct JsonPosition {
  uint32_t line = 1;    // 1-based
  uint32_t column = 1;  // 1-based, in bytes
};

struct LocatedJson {
  nlohmann::json value;
  // By JSON pointer (RFC 6901, e.g. "/rules/my-rule/0"): where the value
  // starts, and for object members where the key starts. The root is "".
  absl::flat_hash_map<std::string, JsonPosition> values;
  absl::flat_hash_map<std::string, JsonPosition> keys;

  // Where the key (for members) or value at `pointer` is; 1:1 when unknown.
  JsonPosition KeyOrValue(const std::string& pointer) const;
  JsonPosition Value(const std::string& pointer) const;
};

struct JsonSyntaxError {
  JsonPosition position;
  std::string message;
};

// False with `error` set on malformed input (duplicate keys included).
bool ParseLocatedJson(std::string_view text, LocatedJson* out, JsonSyntaxError* error);

// Escapes one reference token for a JSON pointer ("~" -> "~0", "/" -> "~1").
std::string JsonPointerToken(std::string_view key);

}  // namespace hlolint
