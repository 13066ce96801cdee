#include "lsp/positions.h"

#include <algorithm>
#include <climits>
#include <cstdint>

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

uint32_t ByteColumn(std::string_view line, uint32_t utf16_units) {
  uint32_t units = 0;
  size_t at = 0;
  while (at < line.size() && units < utf16_units) {
    const auto byte = static_cast<unsigned char>(line[at]);
    units += byte >= 0xF0 && byte <= 0xF4 ? 2 : 1;
    ++at;
    while (at < line.size() && (static_cast<unsigned char>(line[at]) & 0xC0) == 0x80) ++at;
  }
  return static_cast<uint32_t>(at);
}

namespace {

// A JSON integer from 0 up (a client's JSON library may type it signed).
std::optional<uint64_t> Unsigned(const nlohmann::json& value) {
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_integer() && value.get<int64_t>() >= 0) return value.get<uint64_t>();
  return std::nullopt;
}

}  // namespace

std::optional<uint32_t> LspLine(const nlohmann::json& position) {
  if (!position.is_object()) return std::nullopt;
  const auto line = position.find("line");
  if (line == position.end()) return std::nullopt;
  const std::optional<uint64_t> value = Unsigned(*line);
  if (!value || *value >= UINT32_MAX) return std::nullopt;
  return static_cast<uint32_t>(*value);
}

bool IsLspPosition(const nlohmann::json& position) {
  return LspLine(position).has_value() && position.contains("character") &&
         Unsigned(position["character"]).has_value();
}

std::optional<api::Position> ToApiPosition(const nlohmann::json& position,
                                           std::string_view line_text) {
  const std::optional<uint32_t> line = LspLine(position);
  if (!line) return std::nullopt;
  if (!IsLspPosition(position)) return std::nullopt;
  const uint64_t units = std::min<uint64_t>(*Unsigned(position["character"]), UINT32_MAX);
  return api::Position{*line + 1, ByteColumn(line_text, static_cast<uint32_t>(units)) + 1};
}

nlohmann::json RangeIn(std::string_view text, const api::Location& location) {
  return {{"start", LspPosition(text, location.line, location.column, location.offset)},
          {"end", LspPosition(text, location.end_line, location.end_column, location.end_offset)}};
}

std::string UriFromPath(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
    if (plain) {
      uri.push_back(c);
    } else {
      uri.push_back('%');
      uri.push_back(kHex[byte >> 4]);
      uri.push_back(kHex[byte & 15]);
    }
  }
  return uri;
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
