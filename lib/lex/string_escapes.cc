// C escapes in string tokens, checked and processed as absl::CUnescape does.
#include <cstdint>
#include <string>
#include <string_view>

#include "lex/lexer.h"

namespace hlolint {
namespace {

// Named apart from the lexer's helpers: a unity build compiles these files
// together.
bool IsEscapeDigit(char c) { return c >= '0' && c <= '9'; }
bool IsEscapeHexDigit(char c) {
  return IsEscapeDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

}  // namespace

size_t FindInvalidEscape(std::string_view raw) {
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\') continue;
    const size_t backslash = i;
    if (++i >= raw.size()) return backslash;
    char c = raw[i];
    switch (c) {
      case 'a': case 'b': case 'f': case 'n': case 'r': case 't': case 'v':
      case '\\': case '\'': case '"': case '?':
        break;
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        int value = c - '0';
        size_t digits = 1;
        while (digits < 3 && i + 1 < raw.size() && raw[i + 1] >= '0' && raw[i + 1] <= '7') {
          value = value * 8 + (raw[++i] - '0');
          ++digits;
        }
        if (value > 0xff) return backslash;
        break;
      }
      case 'x': case 'X': {
        size_t digits = 0;
        while (i + 1 < raw.size() && IsEscapeHexDigit(raw[i + 1])) {
          ++i;
          ++digits;
        }
        if (digits == 0 || digits > 2) return backslash;
        break;
      }
      case 'u': case 'U': {
        size_t want = c == 'u' ? 4 : 8;
        for (size_t k = 0; k < want; ++k) {
          if (++i >= raw.size() || !IsEscapeHexDigit(raw[i])) return backslash;
        }
        break;
      }
      default:
        return backslash;
    }
  }
  return std::string_view::npos;
}

bool ValidStringEscapes(std::string_view raw) {
  return FindInvalidEscape(raw) == std::string_view::npos;
}


std::string UnescapeString(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\\' || i + 1 >= raw.size()) {
      out.push_back(c);
      continue;
    }
    char e = raw[++i];
    switch (e) {
      case 'a': out.push_back('\a'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'v': out.push_back('\v'); break;
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        int value = e - '0';
        int digits = 1;
        while (digits < 3 && i + 1 < raw.size() && raw[i + 1] >= '0' && raw[i + 1] <= '7') {
          value = value * 8 + (raw[++i] - '0');
          ++digits;
        }
        out.push_back(static_cast<char>(value));
        break;
      }
      case 'x': case 'X': {
        int value = 0;
        int digits = 0;
        while (digits < 2 && i + 1 < raw.size() && IsEscapeHexDigit(raw[i + 1])) {
          char h = raw[++i];
          value = value * 16 + (IsEscapeDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
          ++digits;
        }
        out.push_back(static_cast<char>(value));
        break;
      }
      case 'u': case 'U': {
        size_t want = e == 'u' ? 4 : 8;
        uint32_t cp = 0;
        for (size_t k = 0; k < want && i + 1 < raw.size(); ++k) {
          char h = raw[++i];
          cp = cp * 16 + static_cast<uint32_t>(IsEscapeDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
        }
        // UTF-8 encode.
        if (cp < 0x80) {
          out.push_back(static_cast<char>(cp));
        } else if (cp < 0x800) {
          out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
          out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else if (cp < 0x10000) {
          out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
          out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
          out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else {
          out.push_back(static_cast<char>(0xF0 | ((cp >> 18) & 0x07)));
          out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
          out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
          out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
        break;
      }
      default:
        out.push_back(e);
        break;
    }
  }
  return out;
}

}  // namespace hlolint
