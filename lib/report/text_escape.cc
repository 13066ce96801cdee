#include "report/text_escape.h"

#include <cstdint>

#include "fmt/format.h"

namespace hlolint {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// Length of the valid UTF-8 sequence at text[i], or 0 when invalid.
size_t Utf8Length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t b = byte(i);
  if (b < 0x80) return 1;
  size_t n = 0;
  uint32_t min = 0;
  if ((b & 0xE0) == 0xC0) {
    n = 2;
    min = 0x80;
  } else if ((b & 0xF0) == 0xE0) {
    n = 3;
    min = 0x800;
  } else if ((b & 0xF8) == 0xF0) {
    n = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  uint32_t cp = b & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)) return 0;
  return n;
}

}  // namespace

std::string OneLine(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string ValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8Length(text, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string TerminalText(std::string_view text, std::vector<uint32_t>* starts) {
  std::string out;
  out.reserve(text.size());
  if (starts != nullptr) starts->assign(text.size(), 0);
  uint32_t column = 0;
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8Length(text, i);
    const auto b = static_cast<uint8_t>(text[i]);
    const bool c1 = n == 2 && b == 0xC2 && static_cast<uint8_t>(text[i + 1]) < 0xA0;
    const bool control = n == 1 && ((b < 0x20 && b != '\t') || b == 0x7F);
    const size_t taken = n == 0 ? 1 : n;
    if (starts != nullptr) {
      for (size_t k = 0; k < taken; ++k) (*starts)[i + k] = column;
    }
    if (n == 0 || c1 || control) {
      out += kReplacement;
    } else {
      out.append(text.substr(i, n));
    }
    ++column;
    i += taken;
  }
  return out;
}

std::string XmlEscape(std::string_view text) {
  const std::string valid = ValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (char c : valid) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      case '\t': out += "&#9;"; break;
      default:
        if (static_cast<uint8_t>(c) < 0x20) {
          out += kReplacement;
        } else {
          out.push_back(c);
        }
    }
  }
  return out;
}

std::string PathToUri(std::string_view path) {
  std::string out;
  if (!path.empty() && path.front() == '/') out = "file://";
  while (path.substr(0, 2) == "./") path.remove_prefix(2);
  for (char c : path) {
    const auto b = static_cast<uint8_t>(c);
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
                            c == '~' || c == '/' || c == '+' || c == '=' || c == '@' ||
                            c == '!' || c == '$' || c == '&' || c == '(' || c == ')' ||
                            c == ',' || c == ';';
    // ':' is encoded: in a relative reference it would read as a scheme.
    if (unreserved) {
      out.push_back(c);
    } else {
      out += fmt::format("%{:02X}", b);
    }
  }
  return out;
}

}  // namespace hlolint
