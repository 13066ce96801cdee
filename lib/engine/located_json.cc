#include "engine/located_json.h"

#include "util/strings.h"

namespace hlolint {
namespace {

constexpr int kMaxDepth = 200;

class Reader {
 public:
  Reader(std::string_view text, LocatedJson* out) : text_(text), out_(out) {}

  bool Parse(JsonSyntaxError* error) {
    error_ = error;
    SkipSpace();
    if (failed_) return false;
    std::string pointer;
    if (!Value(pointer, 0, &out_->value)) return false;
    SkipSpace();
    if (failed_) return false;
    if (pos_ != text_.size()) return Fail("unexpected text after the JSON value");
    return true;
  }

 private:
  JsonPosition Here() const {
    JsonPosition p;
    // Positions are computed incrementally: keep a cursor over lines.
    while (line_scan_ < pos_) {
      if (text_[line_scan_] == '\n') {
        ++line_;
        line_start_ = line_scan_ + 1;
      }
      ++line_scan_;
    }
    p.line = line_;
    p.column = static_cast<uint32_t>(pos_ - line_start_ + 1);
    return p;
  }

  bool Fail(std::string message) {
    if (!failed_) {
      failed_ = true;
      error_->position = Here();
      error_->message = std::move(message);
    }
    return false;
  }

  void SkipSpace() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
        const size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) {
          Fail("unterminated /* comment");
          return;
        }
        pos_ = end + 2;
      } else {
        return;
      }
    }
  }

  bool Value(const std::string& pointer, int depth, nlohmann::json* out) {
    if (depth > kMaxDepth) return Fail("JSON nested too deeply");
    out_->values[pointer] = Here();
    if (pos_ >= text_.size()) return Fail("expected a value, found the end of the file");
    const char c = text_[pos_];
    if (c == '{') return Object(pointer, depth, out);
    if (c == '[') return Array(pointer, depth, out);
    if (c == '"') {
      std::string s;
      if (!String(&s)) return false;
      *out = std::move(s);
      return true;
    }
    if (Literal("true")) {
      *out = true;
      return true;
    }
    if (Literal("false")) {
      *out = false;
      return true;
    }
    if (Literal("null")) {
      *out = nullptr;
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return Number(out);
    return Fail(StrCat("unexpected character '", std::string(1, c), "'"));
  }

  bool Literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool Number(nlohmann::json* out) {
    const size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
        ++pos_;
      } else {
        break;
      }
    }
    const std::string digits(text_.substr(start, pos_ - start));
    nlohmann::json parsed = nlohmann::json::parse(digits, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded() || !parsed.is_number()) {
      pos_ = start;
      return Fail(StrCat("malformed number '", digits, "'"));
    }
    *out = std::move(parsed);
    return true;
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  bool Hex4(uint32_t* out) {
    if (pos_ + 4 > text_.size()) return Fail("truncated \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_ + i];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else return Fail("malformed \\u escape");
    }
    pos_ += 4;
    *out = v;
    return true;
  }

  bool String(std::string* out) {
    ++pos_;  // opening quote
    while (true) {
      if (pos_ >= text_.size()) return Fail("unterminated string");
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return Fail("control character in string");
      if (c != '\\') {
        out->push_back(c);
        ++pos_;
        continue;
      }
      if (++pos_ >= text_.size()) return Fail("unterminated string");
      const char e = text_[pos_++];
      switch (e) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          uint32_t cp = 0;
          if (!Hex4(&cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            uint32_t low = 0;
            if (!Hex4(&low)) return false;
            if (low < 0xDC00 || low >= 0xE000) return Fail("invalid surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(cp, out);
          break;
        }
        default:
          --pos_;
          return Fail(StrCat("invalid escape '\\", std::string(1, e), "'"));
      }
    }
  }

  // A trailing comma before the closing bracket is accepted (as in jsonc):
  // consumes the bracket when it follows.
  bool ClosesAfterComma(char closing) {
    SkipSpace();
    if (failed_ || pos_ >= text_.size() || text_[pos_] != closing) return false;
    ++pos_;
    return true;
  }

  bool Object(const std::string& pointer, int depth, nlohmann::json* out) {
    ++pos_;
    *out = nlohmann::json::object();
    SkipSpace();
    if (failed_) return false;
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      SkipSpace();
      if (failed_) return false;
      if (pos_ >= text_.size() || text_[pos_] != '"') return Fail("expected a quoted key");
      const JsonPosition key_at = Here();
      std::string key;
      if (!String(&key)) return false;
      if (out->contains(key)) {
        error_->position = key_at;
        failed_ = true;
        error_->message = StrCat("duplicate key '", key, "'");
        return false;
      }
      const std::string member = StrCat(pointer, "/", JsonPointerToken(key));
      out_->keys[member] = key_at;
      SkipSpace();
      if (failed_) return false;
      if (pos_ >= text_.size() || text_[pos_] != ':') return Fail("expected ':' after the key");
      ++pos_;
      SkipSpace();
      if (failed_) return false;
      if (!Value(member, depth + 1, &(*out)[key])) return false;
      SkipSpace();
      if (failed_) return false;
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        if (ClosesAfterComma('}')) return true;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return Fail("expected ',' or '}'");
    }
  }

  bool Array(const std::string& pointer, int depth, nlohmann::json* out) {
    ++pos_;
    *out = nlohmann::json::array();
    SkipSpace();
    if (failed_) return false;
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return true;
    }
    for (size_t index = 0;; ++index) {
      SkipSpace();
      if (failed_) return false;
      out->push_back(nullptr);
      if (!Value(StrCat(pointer, "/", index), depth + 1, &out->back())) return false;
      SkipSpace();
      if (failed_) return false;
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        if (ClosesAfterComma(']')) return true;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return Fail("expected ',' or ']'");
    }
  }

  std::string_view text_;
  LocatedJson* out_;
  JsonSyntaxError* error_ = nullptr;
  size_t pos_ = 0;
  bool failed_ = false;
  mutable size_t line_scan_ = 0;
  mutable size_t line_start_ = 0;
  mutable uint32_t line_ = 1;
};

}  // namespace

JsonPosition LocatedJson::KeyOrValue(const std::string& pointer) const {
  auto key = keys.find(pointer);
  if (key != keys.end()) return key->second;
  return Value(pointer);
}

JsonPosition LocatedJson::Value(const std::string& pointer) const {
  auto value = values.find(pointer);
  return value != values.end() ? value->second : JsonPosition{};
}

bool ParseLocatedJson(std::string_view text, LocatedJson* out, JsonSyntaxError* error) {
  *out = LocatedJson();
  // A UTF-8 byte order mark is tolerated (editors on Windows write one).
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  Reader reader(text, out);
  return reader.Parse(error);
}

std::string JsonPointerToken(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out.push_back(c);
  }
  return out;
}

}  // namespace hlolint
