#include "lsp/positions.h"

namespace hlolint::lsp {
namespace {

nlohmann::json LspPosition(std::string_view text, uint32_t line, uint32_t column,
                           uint32_t offset) {
  if (line == 0) return {{"line", 0}, {"character", 0}};
  uint32_t character = column > 0 ? column - 1 : 0;
  // The offsets locate the line's start: count its UTF-16 units up to the
  // column. Offsets that do not fit the text (a location in another file)
  // keep the byte column, right for ASCII.
  if (column > 0 && offset <= text.size() && column - 1 <= offset) {
    character = Utf16Length(text.substr(offset - (column - 1), column - 1));
  }
  return {{"line", line - 1}, {"character", character}};
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

uint32_t Utf16Length(std::string_view utf8) {
  uint32_t units = 0;
  for (const char c : utf8) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) == 0x80) continue;  // continuation byte
    units += byte >= 0xF0 && byte <= 0xF4 ? 2 : 1;
  }
  return units;
}

nlohmann::json RangeIn(std::string_view text, const api::Location& location) {
  return {{"start", LspPosition(text, location.line, location.column, location.offset)},
          {"end", LspPosition(text, location.end_line, location.end_column, location.end_offset)}};
}

std::string PathFromUri(std::string_view uri) {
  constexpr std::string_view kFileScheme = "file://";
  if (uri.substr(0, kFileScheme.size()) != kFileScheme) return std::string(uri);
  std::string_view rest = uri.substr(kFileScheme.size());
  // file://host/path: the authority names a machine, not part of the path.
  const size_t slash = rest.find('/');
  rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  std::string path;
  path.reserve(rest.size());
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && HexDigit(rest[i + 1]) >= 0 &&
        HexDigit(rest[i + 2]) >= 0) {
      path.push_back(static_cast<char>(HexDigit(rest[i + 1]) * 16 + HexDigit(rest[i + 2])));
      i += 2;
    } else {
      path.push_back(rest[i]);
    }
  }
  return path;
}

}  // namespace hlolint::lsp
