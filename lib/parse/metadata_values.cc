// Frontend attributes, statistics, parameter replication and op metadata (ValueParser).
#include <algorithm>
#include <cstring>

#include "lex/byte_scan.h"
#include "parse/value_parser.h"
#include "util/strings.h"

namespace hlolint {

bool ValueParser::ParseFrontendAttributes() {
  if (!ParseToken(TokKind::kLbrace, "expected '{' to start frontend attributes")) return false;
  if (kind() != TokKind::kRbrace) {
    do {
      std::string_view name, value;
      if (!ParseAttributeName(&name)) return false;
      if (kind() == TokKind::kString) {
        if (!ParseString(&value)) return false;
      } else if (kind() == TokKind::kLbrace) {
        if (!ParseJsonDict(&value)) return false;
      } else {
        return TokenError(StrCat("expects a string or a {...} value for frontend attribute ",
                                       name));
      }
    } while (EatIfPresent(TokKind::kComma));
  }
  return ParseToken(TokKind::kRbrace, "expects '}' at the end of frontend attributes");
}

bool ValueParser::ParseStatistics() {
  if (!ParseToken(TokKind::kLbrace, "expected '{' to start statistics")) return false;
  if (kind() != TokKind::kRbrace) {
    std::string_view name;
    if (!ParseAttributeName(&name)) return false;
    if (kind() != TokKind::kInt) return TokenError("expects integer");
    Lex();
    while (EatIfPresent(TokKind::kComma)) {
      if (!ParseAttributeName(&name)) return false;
      if (kind() != TokKind::kDecimal && kind() != TokKind::kInt) {
        return TokenError("expects decimal or integer");
      }
      Lex();
    }
  }
  return ParseToken(TokKind::kRbrace, "expects '}' at the end of statistics");
}

bool ValueParser::ParseParameterReplication(int64_t* count) {
  *count = 0;
  if (!ParseToken(TokKind::kLbrace, "expected '{' to start parameter_replication attribute")) {
    return false;
  }
  if (kind() != TokKind::kRbrace) {
    do {
      if (kind() != TokKind::kw_true && kind() != TokKind::kw_false) {
        return TokenError("expects true or false");
      }
      ++*count;
      Lex();
    } while (EatIfPresent(TokKind::kComma));
  }
  return ParseToken(TokKind::kRbrace, "expected '}' to end parameter_replication attribute");
}

bool ValueParser::ParseBooleanListOrSingleBoolean() {
  if (kind() == TokKind::kw_true || kind() == TokKind::kw_false) {
    Lex();
    return true;
  }
  if (kind() != TokKind::kLbrace) {
    return TokenError("Expected list of booleans or true/false value");
  }
  Lex();
  if (kind() != TokKind::kRbrace) {
    do {
      if (kind() != TokKind::kw_true && kind() != TokKind::kw_false) {
        return TokenError("expects true or false");
      }
      Lex();
    } while (EatIfPresent(TokKind::kComma));
  }
  return ParseToken(TokKind::kRbrace, "expected '}' to end boolean list attribute");
}

namespace {

constexpr std::string_view kMetadataKeys[] = {
    "op_type",         "op_name",       "source_file",       "source_line",
    "source_end_line", "source_column", "source_end_column", "profile_type",
    "deduplicated_name", "scheduling_name", "stack_frame_id", "metadata_payload"};
constexpr int kMetadataProfileType = 7;
constexpr uint32_t kMetadataStringKeys = 1u << 0 | 1u << 1 | 1u << 2 | 1u << 8 | 1u << 9 | 1u << 11;

// The keys dumps print in almost every metadata, matched by whole words:
// the index of the key spelled with its '=' at p, and its length with the
// '=' in *size; -1 when p starts with none of them.
static_assert(kMetadataKeys[0] == "op_type" && kMetadataKeys[1] == "op_name" &&
              kMetadataKeys[2] == "source_file" && kMetadataKeys[3] == "source_line");
int CommonMetadataKeyAt(const char* p, const char* end, size_t* size) {
  if (end - p < 12) return -1;
  const auto word = [](const char (&text)[9]) {
    uint64_t v;
    std::memcpy(&v, text, 8);
    return v;
  };
  uint64_t head;
  std::memcpy(&head, p, 8);
  if (head == word("op_type=")) return *size = 8, 0;
  if (head == word("op_name=")) return *size = 8, 1;
  if (head == word("source_f") && std::memcmp(p + 8, "ile=", 4) == 0) return *size = 12, 2;
  if (head == word("source_l") && std::memcmp(p + 8, "ine=", 4) == 0) return *size = 12, 3;
  // Dumps with stack frames or source ranges print these in most metadata.
  if (end - p < 18) return -1;
  if (head == word("stack_fr") && std::memcmp(p + 8, "ame_id=", 7) == 0) return *size = 15, 10;
  if (head == word("source_e")) {
    if (std::memcmp(p + 8, "nd_line=", 8) == 0) return *size = 16, 4;
    if (std::memcmp(p + 8, "nd_column=", 10) == 0) return *size = 18, 6;
  }
  if (head == word("source_c") && std::memcmp(p + 8, "olumn=", 6) == 0) return *size = 14, 5;
  return -1;
}
static_assert(kMetadataKeys[4] == "source_end_line" && kMetadataKeys[5] == "source_column" &&
              kMetadataKeys[6] == "source_end_column" && kMetadataKeys[10] == "stack_frame_id");

int MetadataKeyIndex(std::string_view name) {
  for (int i = 0; i < 12; ++i) {
    if (kMetadataKeys[i] == name) return i;
  }
  return -1;
}

}  // namespace

bool ValueParser::SkipPlainMetadata() {
  if (!limits_.fast_paths || kind() != TokKind::kLbrace) return false;
  const char* const base = file_.data();
  const char* const end = PlainMetadataEnd(base + lexer_.position());
  if (end == nullptr) return false;
  lexer_.Reset(static_cast<uint32_t>(end - base));
  Lex();
  return true;
}

const char* ValueParser::PlainMetadataEnd(const char* p) const {
  const char* const end = file_.data() + file_.size();
  // The reading stops at the first '}' and looks at no byte after it. The
  // last 8 bytes first, inline: most metadata that differs differs there
  // (`source_line=N}`), and all of it begins alike (`op_type=`).
  const size_t last_size = last_metadata_size_;
  if (last_size != 0 && static_cast<size_t>(end - p) >= last_size && last_metadata_ < p &&
      static_cast<size_t>(p - last_metadata_) <= TextReleaser::kMargin &&
      (last_size < 8 || BytesEqual(p + last_size - 8, last_metadata_ + last_size - 8, 8)) &&
      std::memcmp(p, last_metadata_, last_size) == 0) {
    return p + last_size;
  }
  const char* const begin = p;
  uint32_t seen = 0;
  while (*p != '}') {
    size_t key_size;
    int which = CommonMetadataKeyAt(p, end, &key_size);
    if (which >= 0) {
      p += key_size;
    } else {
      const char* name = p;
      while ((*p >= 'a' && *p <= 'z') || *p == '_') ++p;
      if (*p != '=') return nullptr;
      which = MetadataKeyIndex(std::string_view(name, static_cast<size_t>(p - name)));
      ++p;
    }
    if (which < 0 || which == kMetadataProfileType || (seen & (1u << which)) != 0) return nullptr;
    seen |= 1u << which;
    if (kMetadataStringKeys & (1u << which)) {
      if (*p != '"') return nullptr;
      p = FindFirstOf(p + 1, end, '"', '\\', '\0', '\0');
      if (*p != '"') return nullptr;  // escapes, NUL, end of text
      ++p;
    } else {
      // Up to 9 digits always fit the int32 XLA keeps.
      const char* digits = p;
      while (*p >= '0' && *p <= '9') ++p;
      if (p == digits || p - digits > 9) return nullptr;
    }
    if (*p == ' ') {
      ++p;
    } else if (*p != '}') {
      return nullptr;
    }
  }
  last_metadata_ = begin;
  last_metadata_size_ = static_cast<size_t>(p + 1 - begin);
  return p + 1;
}

bool ValueParser::ParseMetadata(OpMetadata* out) {
  // Validation only, in the form dumps print: read byte-wise.
  if (out == nullptr && SkipPlainMetadata()) return true;
  // Sub-attributes in any order, separated by blanks or commas.
  const uint32_t offset = lexer_.offset();
  if (!ParseToken(TokKind::kLbrace, "expects '{' to start sub attributes")) return false;
  uint32_t seen = 0;
  if (kind() != TokKind::kRbrace) {
    do {
      EatIfPresent(TokKind::kComma);
      const uint32_t attr_offset = lexer_.offset();
      std::string_view name;
      if (kind() != TokKind::kAttributeName) return Error(attr_offset, "error parsing attributes");
      ParseAttributeName(&name);
      const int which = MetadataKeyIndex(name);
      if (which < 0) {
        return Error(attr_offset,
                     StrCat("unexpected attribute \"", name,
                                  "\". Allowed attributes: deduplicated_name, metadata_payload, "
                                  "op_name, op_type, profile_type, scheduling_name, "
                                  "source_column, source_end_column, source_end_line, "
                                  "source_file, source_line, stack_frame_id"));
      }
      if (seen & (1u << which)) {
        return Error(attr_offset, StrCat("attribute ", name, " already exists"));
      }
      seen |= 1u << which;
      bool ok = true;
      switch (which) {
        case 0: case 1: case 2: case 8: case 9: case 11: {
          std::string_view raw;
          ok = ParseString(&raw);
          if (ok && out != nullptr) {
            if (which == 0) out->op_type = std::string(raw);
            if (which == 1) out->op_name = std::string(raw);
            if (which == 2) out->source_file = std::string(raw);
            if (which == 9) out->scheduling_name = std::string(raw);
          }
          break;
        }
        case 7: {
          const uint32_t list_offset = lexer_.offset();
          ok = ParseInt64List(TokKind::kLbrace, TokKind::kRbrace, TokKind::kComma, &ints_scratch_);
          if (ok) {
            for (int64_t type : ints_scratch_) {
              if (type < 0 || type > 3) {
                return Error(list_offset, StrCat("invalid profile_type ", type));
              }
            }
          }
          break;
        }
        default: {
          const uint32_t value_offset = lexer_.offset();
          int64_t value;
          ok = ParseInt64(&value);
          if (ok && value != static_cast<int32_t>(value)) {
            return Error(value_offset, "value out of range for int32_t");
          }
          if (ok && which == 3 && out != nullptr) {
            out->source_line = value;
            out->has_source_line = true;
          }
          break;
        }
      }
      if (!ok) return Error(attr_offset, StrCat("error parsing attribute ", name));
    } while (kind() != TokKind::kRbrace);
  }
  (void)offset;
  return ParseToken(TokKind::kRbrace, "expects '}' to end sub attributes");
}

bool ValueParser::ParseSingleOrListMetadata(int* count) {
  int entries = 0;
  if (kind() == TokKind::kLbrace && lexer_.LookAhead() == TokKind::kLbrace) {
    Lex();
    if (kind() != TokKind::kRbrace) {
      do {
        if (!ParseMetadata(nullptr)) return false;
        ++entries;
      } while (EatIfPresent(TokKind::kComma));
    }
    if (count != nullptr) *count += entries;
    return ParseToken(TokKind::kRbrace, "expected '}' to end metadata list");
  }
  if (!ParseMetadata(nullptr)) return false;
  if (count != nullptr) ++*count;
  return true;
}

}  // namespace hlolint
