#include "lex/lexer.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fmt/format.h"
#include "lex/byte_scan.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

// Identifier and blank classes are in lex/byte_scan.h (shared with the
// parser's byte-level fast paths).
enum CharClass : uint8_t {
  kHexDigit = 1,
};

constexpr auto kCharClasses = [] {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    const bool digit = c >= '0' && c <= '9';
    if (digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) table[c] |= kHexDigit;
  }
  return table;
}();

inline bool Is(char c, uint8_t cls) { return kCharClasses[static_cast<unsigned char>(c)] & cls; }
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

const char* SkipDigits(const char* p) {
  while (IsDigit(*p)) ++p;
  return p;
}

// [chars]{2,} where `ok` tells membership; returns end or nullptr.
template <typename Pred>
const char* MatchAtLeastTwo(const char* p, Pred ok) {
  const char* q = p;
  while (ok(*q)) ++q;
  return q - p >= 2 ? q : nullptr;
}

bool IsDimLabelOuter(char c) { return IsDigit(c) || c == 'b' || c == 'f' || c == '?'; }
bool IsDimLabelKernel(char c) { return IsDigit(c) || c == 'i' || c == 'o' || c == '?'; }

// [-]?[0-9]+_[-]?[0-9]+(_[0-9]+)?
const char* MatchPadDim(const char* p) {
  if (*p == '-') ++p;
  const char* q = SkipDigits(p);
  if (q == p || *q != '_') return nullptr;
  p = q + 1;
  if (*p == '-') ++p;
  q = SkipDigits(p);
  if (q == p) return nullptr;
  if (*q == '_' && IsDigit(q[1])) q = SkipDigits(q + 1);
  return q;
}

// NaN payload "(0x...)" with a value in (0, 2^52).
bool MatchNanPayload(const char*& p) {
  if (p[0] != '(' || p[1] != '0' || p[2] != 'x') return false;
  const char* q = p + 3;
  uint64_t value = 0;
  const char* digits = q;
  while (Is(*q, kHexDigit)) {
    if (value >> 60) return false;
    char c = *q;
    int v = IsDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
    value = value * 16 + static_cast<uint64_t>(v);
    ++q;
  }
  if (q == digits || *q != ')') return false;
  if (value == 0 || value > ((uint64_t{1} << 52) - 1)) return false;
  p = q + 1;
  return true;
}

}  // namespace

const char* MatchDimLabels(const char* p) {
  const char* q = MatchAtLeastTwo(p, IsDimLabelOuter);
  if (q == nullptr || *q != '_') return nullptr;
  q = MatchAtLeastTwo(q + 1, IsDimLabelKernel);
  if (q == nullptr || q[0] != '-' || q[1] != '>') return nullptr;
  return MatchAtLeastTwo(q + 2, IsDimLabelOuter);
}

const char* MatchDxD(const char* p) {
  const char* q = SkipDigits(p);
  if (q == p) return nullptr;
  const char* end = nullptr;
  while (*q == 'x' && IsDigit(q[1])) {
    q = SkipDigits(q + 1);
    end = q;
  }
  return end;
}

const char* MatchPad(const char* p) {
  const char* q = MatchPadDim(p);
  if (q == nullptr) return nullptr;
  while (*q == 'x') {
    const char* next = MatchPadDim(q + 1);
    if (next == nullptr) break;
    q = next;
  }
  return q;
}

const char* MatchFloat(const char* p) {
  const char* q = p;
  if (*q == '-') ++q;
  const char* int_end = SkipDigits(q);
  bool has_int = int_end != q;
  const char* mantissa_end = int_end;
  bool has_dot = *int_end == '.';
  bool has_frac = false;
  if (has_dot) {
    mantissa_end = SkipDigits(int_end + 1);
    has_frac = mantissa_end != int_end + 1;
  }
  bool mantissa_ok = has_dot ? (has_int || has_frac) : has_int;
  if (!mantissa_ok) return nullptr;
  if (*mantissa_end == 'e' || *mantissa_end == 'E') {
    const char* e = mantissa_end + 1;
    if (*e == '+' || *e == '-') ++e;
    if (IsDigit(*e)) return SkipDigits(e);
  }
  return has_dot ? mantissa_end : nullptr;
}

Lexer::Lexer(const char* buffer, uint32_t size, uint32_t start)
    : buf_(buffer), end_(buffer + size), cur_(buffer + start) {}

bool Lexer::LexAttributeNameAfterComma() {
  if (tok_.kind != TokKind::kComma) return false;
  const char* p = cur_;
  while (*p == ' ') ++p;
  if (!IsIdentStartByte(*p)) return false;
  const char* q = SkipIdentChars(p + 1, end_);
  if (*q != '=') return false;
  prev_end_ = tok_.end;
  tok_.error = LexError::kNone;
  tok_.kind = TokKind::kAttributeName;
  tok_.begin = static_cast<uint32_t>(p - buf_);
  tok_.text = std::string_view(p, static_cast<size_t>(q - p));
  cur_ = q + 1;
  tok_.end = static_cast<uint32_t>(cur_ - buf_);
  return true;
}

TokKind Lexer::LookAhead() {
  if (tok_.kind == TokKind::kEof || tok_.kind == TokKind::kError) return tok_.kind;
  const char* saved_cur = cur_;
  Token saved = tok_;
  const uint32_t saved_prev = prev_end_;
  TokKind next = Lex();
  cur_ = saved_cur;
  tok_ = saved;
  prev_end_ = saved_prev;
  return next;
}

TokKind Lexer::Error(LexError error) {
  tok_.error = error;
  return TokKind::kError;
}

void Lexer::NoteMarkers(const char* begin, const char* end) {
  const std::string_view comment(begin, static_cast<size_t>(end - begin));
  for (size_t at = comment.find(marker_); at != std::string_view::npos;
       at = comment.find(marker_, at + 1)) {
    // A comment lexed again (after a Reset back) is noted once.
    const auto offset = static_cast<uint32_t>(begin - buf_ + static_cast<ptrdiff_t>(at));
    if (markers_->empty() || offset > markers_->back()) markers_->push_back(offset);
  }
}

bool Lexer::SkipBlockComment() {
  // cur_ points after "/*".
  const char* p = cur_;
  const char* const body = cur_;
  while (true) {
    const void* found = std::memchr(p, '*', static_cast<size_t>(end_ - p));
    const char* star = found ? static_cast<const char*>(found) : end_;
    // A NUL byte inside the comment is an error (checked only over the
    // comment's own bytes, so scanning stays linear).
    if (const void* nul = std::memchr(p, '\0', static_cast<size_t>(star - p))) {
      cur_ = static_cast<const char*>(nul);
      return false;
    }
    if (found == nullptr) return false;
    p = star + 1;
    if (*p == '/') {
      if (markers_ != nullptr) NoteMarkers(body, star);
      cur_ = p + 1;
      return true;
    }
  }
}

bool Lexer::SkipLineComment() {
  // cur_ points after "//".
  const char* start = cur_;
  const char* p = cur_;
  while (*p != '\n' && *p != '\r' && *p != '\0') ++p;
  cur_ = p;
  if (markers_ != nullptr) NoteMarkers(start, p);
  // A split marker: the line holds only `// -----` (leading blanks allowed).
  const char* line_start = start - 2;
  while (line_start > buf_ && (line_start[-1] == ' ' || line_start[-1] == '\t')) --line_start;
  if (line_start != buf_ && line_start[-1] != '\n' && line_start[-1] != '\r') return false;
  const char* q = start;
  while (q < p && *q == ' ') ++q;
  if (p - q < 5 || std::memcmp(q, "-----", 5) != 0) return false;
  q += 5;
  while (q < p && (*q == ' ' || *q == '\t')) ++q;
  return q == p;
}

TokKind Lexer::LexToken(uint64_t skip_mask) {
  // The next instruction's name as dumps print it, `\n  %name`: the blanks
  // and the '%' the loop below would step over one by one.
  if (cur_[0] == '\n' && cur_[1] == ' ' && cur_[2] == ' ') {
    if (cur_[3] == '%') {
      cur_ += 4;
      tok_.begin = static_cast<uint32_t>(cur_ - 1 - buf_);
      return LexPercent();
    }
    // `ROOT` then a blank: the keyword LexIdentifier would make of it.
    if (cur_[3] == 'R' && cur_[4] == 'O' && cur_[5] == 'O' && cur_[6] == 'T' && cur_[7] == ' ') {
      tok_.begin = static_cast<uint32_t>(cur_ + 3 - buf_);
      tok_.text = std::string_view(cur_ + 3, 4);
      cur_ += 7;
      return TokKind::kw_ROOT;
    }
  }
  return LexTokenLoop(skip_mask);
}

// Out of line, so that the shortcut above pays for none of the registers
// this saves.
[[gnu::noinline]] TokKind Lexer::LexTokenLoop(uint64_t skip_mask) {
  while (true) {
    tok_.begin = static_cast<uint32_t>(cur_ - buf_);
    const char c = *cur_;
    if (IsBlankByte(c)) {
      ++cur_;
      while (IsBlankByte(*cur_)) ++cur_;
      continue;
    }
    if (IsIdentStartByte(c)) {
      ++cur_;
      return LexIdentifier();
    }
    if (const TokKind punctuation = kPunctuationByte[static_cast<unsigned char>(c)];
        punctuation != TokKind::kError) {
      ++cur_;
      return punctuation;
    }
    switch (c) {
      case '\0':
        if (cur_ >= end_) return TokKind::kEof;
        return Error(LexError::kNulByte);
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
      case '8': case '9': case '-': case '?': {
        if (c == '-' && cur_[1] == '>') {
          cur_ += 2;
          return TokKind::kArrow;
        }
        TokKind kind = LexNumberOrPattern(skip_mask);
        if (kind == TokKind::kError && c == '?' && tok_.error == LexError::kUnexpectedChar) {
          cur_ = buf_ + tok_.begin + 1;
          tok_.error = LexError::kNone;
          return TokKind::kQuestionMark;
        }
        return kind;
      }
      case '<':
        if (cur_[1] == '=') {
          cur_ += 2;
          return TokKind::kLeq;
        }
        ++cur_;
        return Error(LexError::kUnexpectedChar);
      case '%': ++cur_; return LexPercent();
      case '/':
        if (cur_[1] == '*') {
          const char* comment_start = cur_;
          cur_ += 2;
          if (!SkipBlockComment()) {
            if (*cur_ == '\0' && cur_ < end_) {
              tok_.begin = static_cast<uint32_t>(cur_ - buf_);
              return Error(LexError::kNulByte);
            }
            cur_ = comment_start;
            return Error(LexError::kUnterminatedComment);
          }
          continue;
        }
        if (cur_[1] == '/') {
          cur_ += 2;
          if (SkipLineComment()) return TokKind::kSplitMarker;
          if (*cur_ == '\0' && cur_ < end_) {
            tok_.begin = static_cast<uint32_t>(cur_ - buf_);
            return Error(LexError::kNulByte);
          }
          continue;
        }
        ++cur_;
        return Error(LexError::kUnexpectedChar);
      case '.':
        if (cur_[1] == '.' && cur_[2] == '.') {
          cur_ += 3;
          return TokKind::kDots;
        }
        ++cur_;
        return Error(LexError::kUnexpectedChar);
      case '"':
      case '\'':
        return LexString(c);
      default:
        ++cur_;
        return Error(LexError::kUnexpectedChar);
    }
  }
}

namespace {

// The token a word is when it is not a type and not followed by ':' or
// '=': a keyword, `nan` (a decimal), `inf`, or kIdent (dim labels aside).
TokKind KeywordKind(std::string_view ident) {
  switch (ident.size()) {
    case 3:
      if (ident == "nan") return TokKind::kDecimal;
      if (ident == "inf") return TokKind::kw_inf;
      break;
    case 4:
      if (ident == "true") return TokKind::kw_true;
      if (ident == "ROOT") return TokKind::kw_ROOT;
      break;
    case 5:
      if (ident == "false") return TokKind::kw_false;
      if (ident == "ENTRY") return TokKind::kw_ENTRY;
      break;
    case 6:
      if (ident == "manual") return TokKind::kw_manual;
      break;
    case 7:
      if (ident == "maximal") return TokKind::kw_maximal;
      if (ident == "unknown") return TokKind::kw_unknown;
      break;
    case 8:
      if (ident == "shard_as") return TokKind::kw_shard_as;
      break;
    case 9:
      if (ident == "HloModule") return TokKind::kw_HloModule;
      if (ident == "FileNames") return TokKind::kw_FileNames;
      if (ident == "unreduced") return TokKind::kw_unreduced;
      break;
    case 10:
      if (ident == "replicated") return TokKind::kw_replicated;
      if (ident == "shard_like") return TokKind::kw_shard_like;
      break;
    case 11:
      if (ident == "StackFrames") return TokKind::kw_StackFrames;
      break;
    case 13:
      if (ident == "FileLocations") return TokKind::kw_FileLocations;
      if (ident == "FunctionNames") return TokKind::kw_FunctionNames;
      break;
    case 23:
      if (ident == "last_tile_dim_replicate") return TokKind::kw_last_tile_dim_replicate;
      break;
    default:
      break;
  }
  return TokKind::kIdent;
}

}  // namespace

TokKind ClassifyWord(std::string_view word, PrimitiveType* type, const char** dim_labels_end) {
  *type = PrimitiveTypeFromName(word);
  if (*type != PrimitiveType::kInvalid) return TokKind::kPrimitiveType;
  if (const TokKind keyword = KeywordKind(word); keyword != TokKind::kIdent) return keyword;
  // Dim labels such as b01f_01io->b01f can start with a letter; the
  // identifier scan stops inside them, so re-match from the start.
  if (word[0] == 'b' || word[0] == 'f') {
    if (const char* end = MatchDimLabels(word.data())) {
      *dim_labels_end = end;
      return TokKind::kDimLabels;
    }
  }
  return TokKind::kIdent;
}

TokKind Lexer::LexIdentifier() {
  // cur_ is one past the first character.
  const char* start = buf_ + tok_.begin;
  cur_ = SkipIdentChars(cur_, end_);
  std::string_view ident(start, static_cast<size_t>(cur_ - start));
  tok_.text = ident;
  if (*cur_ == ':') {
    ++cur_;
    return TokKind::kName;
  }
  if (*cur_ == '=') {
    ++cur_;
    return TokKind::kAttributeName;
  }
  if (ident.size() == 3 && ident == "nan" && *cur_ == '(' && !MatchNanPayload(cur_)) {
    return Error(LexError::kBadNanPayload);
  }
  PrimitiveType type;
  const char* dim_labels_end = nullptr;
  const TokKind kind = ClassifyWord(ident, &type, &dim_labels_end);
  if (kind == TokKind::kPrimitiveType) tok_.primitive_type = type;
  if (kind == TokKind::kDimLabels) {
    cur_ = dim_labels_end;
    tok_.text = std::string_view(start, static_cast<size_t>(dim_labels_end - start));
  }
  return kind;
}

TokKind Lexer::LexPercent() {
  const char* name_start = cur_;
  if (!IsIdentStartByte(*cur_)) return Error(LexError::kUnexpectedChar);
  cur_ = SkipIdentChars(cur_ + 1, end_);
  tok_.text = std::string_view(name_start, static_cast<size_t>(cur_ - name_start));
  return TokKind::kName;
}

TokKind Lexer::LexNumberOrPattern(uint64_t skip_mask) {
  const char* start = cur_;
  // Fast path: a plain integer followed by a byte that cannot continue any
  // number pattern (decimal, dim labels, NxM, padding).
  if (IsDigit(*start)) {
    const char* p = start;
    uint64_t value = 0;
    int digits = 0;
    while (IsDigit(*p) && digits < 18) {
      value = value * 10 + static_cast<uint64_t>(*p - '0');
      ++p;
      ++digits;
    }
    const char next = *p;
    if (!IsDigit(next) && next != '.' && next != 'e' && next != 'E' && next != '_' &&
        next != 'x' && next != 'b' && next != 'f' && next != '?' && next != 'i' && next != 'o') {
      cur_ = p;
      tok_.int_value = static_cast<int64_t>(value);
      return TokKind::kInt;
    }
  }
  auto allowed = [skip_mask](TokKind kind) {
    return (skip_mask & (uint64_t{1} << static_cast<int>(kind))) == 0;
  };
  if (allowed(TokKind::kDecimal)) {
    if (const char* end = MatchFloat(start)) {
      cur_ = end;
      return TokKind::kDecimal;
    }
  }
  if (allowed(TokKind::kDimLabels)) {
    if (const char* end = MatchDimLabels(start)) {
      cur_ = end;
      tok_.text = std::string_view(start, static_cast<size_t>(end - start));
      return TokKind::kDimLabels;
    }
  }
  if (allowed(TokKind::kDxD)) {
    if (const char* end = MatchDxD(start)) {
      cur_ = end;
      tok_.text = std::string_view(start, static_cast<size_t>(end - start));
      return TokKind::kDxD;
    }
  }
  if (allowed(TokKind::kPad)) {
    if (const char* end = MatchPad(start)) {
      cur_ = end;
      tok_.text = std::string_view(start, static_cast<size_t>(end - start));
      return TokKind::kPad;
    }
  }
  // [-]?\d+ with XLA's ranges: negatives down to INT64_MIN, non-negatives up
  // to UINT64_MAX (bit-cast to int64).
  const char* p = start;
  bool negative = *p == '-';
  if (negative) ++p;
  if (IsDigit(*p)) {
    uint64_t value = 0;
    const uint64_t limit = negative ? uint64_t{1} << 63 : std::numeric_limits<uint64_t>::max();
    while (IsDigit(*p)) {
      uint64_t digit = static_cast<uint64_t>(*p - '0');
      if (value > (limit - digit) / 10) {
        cur_ = SkipDigits(p);
        return Error(LexError::kIntOverflow);
      }
      value = value * 10 + digit;
      ++p;
    }
    cur_ = p;
    tok_.int_value = negative ? static_cast<int64_t>(~value + 1) : static_cast<int64_t>(value);
    return TokKind::kInt;
  }
  if (negative && std::memcmp(p, "inf", 3) == 0) {
    cur_ = p + 3;
    return TokKind::kNegInf;
  }
  if (negative && std::memcmp(p, "nan", 3) == 0) {
    cur_ = p + 3;
    if (*cur_ == '(' && !MatchNanPayload(cur_)) return Error(LexError::kBadNanPayload);
    return TokKind::kDecimal;
  }
  cur_ = start + 1;
  return Error(LexError::kUnexpectedChar);
}

TokKind Lexer::LexString(char quote) {
  // Mirrors "([^"\\]|\\.)*": any byte but the quote or a backslash, or a
  // backslash followed by anything except a newline.
  const char* start = cur_;
  const char* p = cur_ + 1;
  bool escapes = false;
  while (true) {
    // Fast path over ordinary bytes.
    p = FindFirstOf(p, end_, quote, '\\', '\0', '\0');
    if (*p == quote) break;
    if (*p == '\0') {
      if (p < end_) {
        cur_ = p;
        tok_.begin = static_cast<uint32_t>(p - buf_);
        return Error(LexError::kNulByte);
      }
      cur_ = start + 1;
      return Error(LexError::kUnterminatedString);
    }
    // Backslash.
    if (p[1] == '\n' || (p[1] == '\0' && p + 1 >= end_)) {
      cur_ = start + 1;
      return Error(LexError::kUnterminatedString);
    }
    escapes = true;
    p += 2;
  }
  tok_.text = std::string_view(start + 1, static_cast<size_t>(p - start - 1));
  tok_.string_has_escapes = escapes;
  cur_ = p + 1;
  if (escapes) {
    const size_t bad = FindInvalidEscape(tok_.text);
    if (bad != std::string_view::npos) {
      // Point at the offending backslash rather than the string's start.
      tok_.begin = static_cast<uint32_t>(tok_.text.data() + bad - buf_);
      return Error(LexError::kBadEscape);
    }
  }
  return TokKind::kString;
}

TokKind Lexer::LexJsonDict() {
  if (tok_.kind != TokKind::kLbrace) return TokKind::kError;
  const char* start = buf_ + tok_.begin;
  const char* p = start + 1;
  int64_t depth = 1;
  bool in_string = false;
#ifdef __SSE2__
  // 16 bytes at a time, visiting only quotes and braces: a dict of short
  // strings has a stop every few bytes, and a search per stop costs more.
  // A backslash or NUL hands the rest to the byte-wise loop below, which
  // continues in the same state.
  const __m128i quote = _mm_set1_epi8('"'), open = _mm_set1_epi8('{');
  const __m128i close = _mm_set1_epi8('}'), backslash = _mm_set1_epi8('\\');
  const __m128i nul = _mm_setzero_si128();
  while (end_ - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i brace = _mm_or_si128(_mm_cmpeq_epi8(v, open), _mm_cmpeq_epi8(v, close));
    const __m128i odd = _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, nul));
    unsigned stops = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), brace), odd)));
    bool handed_over = false;
    while (stops != 0) {
      const int i = __builtin_ctz(stops);
      stops &= stops - 1;
      const char c = p[i];
      if (c == '"') {
        in_string = !in_string;
      } else if (c == '\\' || c == '\0') {
        p += i;
        handed_over = true;
        break;
      } else if (!in_string) {
        if (c == '{') {
          ++depth;
        } else if (--depth == 0) {
          p += i + 1;
          handed_over = true;
          break;
        }
      }
    }
    if (handed_over) break;
    p += 16;
  }
#endif
  while (depth > 0) {
    if (in_string) {
      // Up to the closing quote; a backslash escapes the byte after it.
      p = FindFirstOf(p, end_, '"', '\\', '\0', '\0');
      if (*p == '\0') {
        if (p < end_) tok_.begin = static_cast<uint32_t>(p - buf_);
        tok_.kind = Error(p < end_ ? LexError::kNulByte : LexError::kUnterminatedJson);
        return tok_.kind;
      }
      if (*p == '\\') {
        if (p[1] == '\n' || (p[1] == '\0')) {
          tok_.kind = Error(LexError::kUnterminatedJson);
          return tok_.kind;
        }
        p += 2;
        continue;
      }
      ++p;
      in_string = false;
      continue;
    }
    p = FindFirstOf(p, end_, '"', '{', '}', '\0');
    const char c = *p;
    if (c == '\0') {
      if (p < end_) {
        cur_ = p;
        tok_.begin = static_cast<uint32_t>(p - buf_);
        tok_.kind = Error(LexError::kNulByte);
        return tok_.kind;
      }
      tok_.kind = Error(LexError::kUnterminatedJson);
      return tok_.kind;
    }
    if (c == '"') in_string = true;
    if (c == '{') ++depth;
    if (c == '}') --depth;
    ++p;
  }
  cur_ = p;
  tok_.kind = TokKind::kString;
  tok_.text = std::string_view(start, static_cast<size_t>(p - start));
  tok_.string_has_escapes = false;
  tok_.end = static_cast<uint32_t>(p - buf_);
  return tok_.kind;
}

double Lexer::DecimalValue() const {
  std::string_view text = TokenText();
  switch (tok_.kind) {
    case TokKind::kw_inf: return std::numeric_limits<double>::infinity();
    case TokKind::kNegInf: return -std::numeric_limits<double>::infinity();
    case TokKind::kInt: return static_cast<double>(tok_.int_value);
    default: break;
  }
  if (text.find("nan") != std::string_view::npos) {
    return text[0] == '-' ? -std::numeric_limits<double>::quiet_NaN()
                          : std::numeric_limits<double>::quiet_NaN();
  }
  double value = 0;
  auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec == std::errc::result_out_of_range) {
    // from_chars leaves the value unset on overflow; XLA's SimpleAtod gives
    // +-inf for overflow and 0 for underflow.
    bool negative = text[0] == '-';
    bool tiny = text.find_first_of("eE") != std::string_view::npos &&
                text[text.find_first_of("eE") + 1] == '-';
    if (tiny) return negative ? -0.0 : 0.0;
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  return value;
}

}  // namespace hlolint
