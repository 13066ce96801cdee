// String helpers on std::string_view. (Debian's Abseil is built with its own
// string_view type, so absl::StrCat does not take std::string_view.)
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "fmt/format.h"

namespace hlolint {

namespace strings_internal {
inline void Append(std::string& out, std::string_view piece) { out.append(piece); }
inline void Append(std::string& out, const char* piece) { out.append(piece); }
inline void Append(std::string& out, const std::string& piece) { out.append(piece); }
inline void Append(std::string& out, char c) { out.push_back(c); }
inline void Append(std::string& out, bool value) { out.append(value ? "true" : "false"); }
// Integers through std::to_chars, floating point through fmt::format (shortest
// round-trip text). Not fmt::format_to(back_inserter): that instantiates all of
// fmt's formatting code in every file that calls StrCat.
template <typename T>
  requires std::is_integral_v<T>
void Append(std::string& out, T value) {
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, end);
}
template <typename T>
  requires std::is_floating_point_v<T>
void Append(std::string& out, T value) {
  out.append(fmt::format("{}", value));
}
}  // namespace strings_internal

// Concatenates strings, characters and numbers.
template <typename... Args>
std::string StrCat(const Args&... args) {
  std::string out;
  (strings_internal::Append(out, args), ...);
  return out;
}

template <typename Container>
std::string StrJoin(const Container& items, std::string_view separator) {
  std::string out;
  bool first = true;
  for (const auto& item : items) {
    if (!first) out.append(separator);
    first = false;
    strings_internal::Append(out, item);
  }
  return out;
}

// The pieces of `text` between `separator`s (empty ones kept), one by one
// without a vector: visit(piece) for each in order, stopping at the first
// that returns false (and returning false).
template <typename Visit>
bool ForEachPiece(std::string_view text, char separator, Visit visit) {
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    if (end == std::string_view::npos) return visit(text.substr(start));
    if (!visit(text.substr(start, end - start))) return false;
    start = end + 1;
  }
}

// Splits on a single character; empty pieces are kept.
inline std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  ForEachPiece(text, separator, [&pieces](std::string_view piece) {
    pieces.push_back(piece);
    return true;
  });
  return pieces;
}

// Parses a whole decimal integer (optional leading '-'); false on junk or overflow.
inline bool ParseIntText(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace hlolint
