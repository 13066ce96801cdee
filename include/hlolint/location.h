// Positions, locations and severities shared by the hlolint library API.
//
// Lines and columns are 1-based, as the command line prints them; columns
// count bytes (not characters) from the start of the line. Ranges end
// exclusively: end_column is one past the last byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hlolint::api {

enum class Severity { kNote, kWarning, kError };

// "note", "warning" or "error".
const char* SeverityName(Severity severity);
// The severity SeverityName names; nullopt for any other text.
std::optional<Severity> SeverityFromName(std::string_view name);

// A point in a text: 1-based line and column (bytes).
struct Position {
  uint32_t line = 0;
  uint32_t column = 0;
};

// A range of a text: [line:column, end_line:end_column), 1-based, and the
// same range as byte offsets from the start of the text.
struct Location {
  std::string path;  // the display path the text was opened or linted under
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t end_line = 0;
  uint32_t end_column = 0;
  uint32_t offset = 0;
  uint32_t end_offset = 0;
};

}  // namespace hlolint::api
