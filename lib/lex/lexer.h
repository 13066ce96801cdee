// Hand-written HLO lexer with the token rules of XLA's HloLexer.
//
// Tokens are views into the source; nothing is copied or allocated. The
// buffer must be followed by a NUL byte (SourceFile guarantees it), which lets
// the hot loops scan without bounds checks.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lex/token.h"

namespace hlolint {

// The token of each byte that is a token by itself, else kError.
inline constexpr std::array<TokKind, 256> kPunctuationByte = [] {
  std::array<TokKind, 256> table{};
  table.fill(TokKind::kError);
  table[','] = TokKind::kComma;
  table['='] = TokKind::kEqual;
  table[':'] = TokKind::kColon;
  table['*'] = TokKind::kAsterisk;
  table['#'] = TokKind::kOctothorp;
  table['+'] = TokKind::kPlus;
  table['~'] = TokKind::kTilde;
  table['['] = TokKind::kLsquare;
  table[']'] = TokKind::kRsquare;
  table['{'] = TokKind::kLbrace;
  table['}'] = TokKind::kRbrace;
  table['('] = TokKind::kLparen;
  table[')'] = TokKind::kRparen;
  return table;
}();

class Lexer {
 public:
  // Lexes buffer[start, size). buffer[size] must be '\0'.
  Lexer(const char* buffer, uint32_t size, uint32_t start = 0);

  // Advances to the next token and returns its kind. `skip_mask` has bit
  // (1 << kind) set for number-like patterns that must not be produced
  // (kDecimal, kDimLabels, kDxD, kPad), as XLA's LexToken(skip_mask).
  TokKind Lex(uint64_t skip_mask = 0) {
    prev_end_ = tok_.end;
    tok_.error = LexError::kNone;
    // Most tokens after the first of a line are one punctuation byte, read
    // here without a call (the same tokens LexToken's switch makes of them).
    const TokKind punctuation = kPunctuationByte[static_cast<unsigned char>(*cur_)];
    if (punctuation != TokKind::kError) {
      tok_.begin = static_cast<uint32_t>(cur_ - buf_);
      ++cur_;
      tok_.kind = punctuation;
    } else {
      tok_.kind = LexToken(skip_mask);
    }
    tok_.end = static_cast<uint32_t>(cur_ - buf_);
    return tok_.kind;
  }
  // Kind of the token after the current one, without consuming it.
  TokKind LookAhead();
  // After a '{' token: consumes a brace-balanced JSON object (quoted strings
  // skipped) and makes it the current token as kString whose text includes
  // the braces.
  TokKind LexJsonDict();

  // After a ',' token: when the bytes that follow are ` name=` (spaces, an
  // identifier, '='), makes that the current kAttributeName token exactly as
  // Lex() would, and returns true; otherwise changes nothing.
  bool LexAttributeNameAfterComma();

  // After a ',' token: makes the `size` bytes at `begin` the current
  // kAttributeName token. The caller has checked that they are the ` name=`
  // LexAttributeNameAfterComma would take (blanks, an identifier, '=').
  void TakeAttributeName(uint32_t begin, uint32_t size) {
    prev_end_ = tok_.end;
    tok_.error = LexError::kNone;
    tok_.kind = TokKind::kAttributeName;
    tok_.begin = begin;
    tok_.text = std::string_view(buf_ + begin, size);
    cur_ = buf_ + begin + size + 1;
    tok_.end = static_cast<uint32_t>(cur_ - buf_);
  }

  const Token& tok() const { return tok_; }
  TokKind kind() const { return tok_.kind; }
  uint32_t offset() const { return tok_.begin; }
  // One past the last byte of the token before the current one.
  uint32_t previous_end() const { return prev_end_; }
  // Offset of the next unlexed byte.
  uint32_t position() const { return static_cast<uint32_t>(cur_ - buf_); }
  const char* buffer() const { return buf_; }
  uint32_t size() const { return static_cast<uint32_t>(end_ - buf_); }
  std::string_view TokenText() const { return {buf_ + tok_.begin, tok_.end - tok_.begin}; }

  // From now on, appends to `out` the offset of every `marker` (a directive
  // marker, SourceFile::DirectiveMarker) inside a comment the lexer skips,
  // in text order and once each. Every marker before position() in a
  // comment is then in `out`, as long as each forward Reset skips only text
  // that holds no comment (see Reset). An empty marker collects nothing:
  // comments are then skipped without being searched. `marker` must outlive
  // the collection.
  void CollectDirectiveMarkers(std::string_view marker, std::vector<uint32_t>* out) {
    marker_ = marker;
    markers_ = marker.empty() ? nullptr : out;
  }

  // Repositions the lexer (used to recover after errors and to re-lex spans).
  // A forward jump skips text the lexer never sees: the byte-wise fast paths
  // jump only over tokens they read, which hold no comment, and jump back
  // to the grammar at anything else; a jump over arbitrary text (error
  // recovery) must have its directive markers found by whoever jumps.
  void Reset(uint32_t position) {
    cur_ = buf_ + position;
    tok_ = Token();
    tok_.begin = tok_.end = position;
  }

  // Decimal value of a kDecimal / kInt / kw_inf / kNegInf token.
  double DecimalValue() const;

 private:
  TokKind LexToken(uint64_t skip_mask);
  TokKind LexTokenLoop(uint64_t skip_mask);
  TokKind LexIdentifier();
  TokKind LexPercent();
  TokKind LexNumberOrPattern(uint64_t skip_mask);
  TokKind LexString(char quote);
  TokKind Error(LexError error);
  bool SkipBlockComment();
  // Returns true when the `//` comment starting at cur_-1 is a split marker.
  bool SkipLineComment();
  // Notes the directive markers in the comment text [begin, end).
  void NoteMarkers(const char* begin, const char* end);

  const char* buf_;
  const char* end_;
  const char* cur_;
  Token tok_;
  uint32_t prev_end_ = 0;
  std::vector<uint32_t>* markers_ = nullptr;  // CollectDirectiveMarkers
  std::string_view marker_;  // CollectDirectiveMarkers
};

// Validates the escapes of a string token's text as absl::CUnescape would.
bool ValidStringEscapes(std::string_view raw);
// Offset of the backslash of the first escape absl::CUnescape rejects, or
// npos when every escape is valid.
size_t FindInvalidEscape(std::string_view raw);
// A message for a kError token, naming the offending text.
std::string DescribeLexError(const Token& token, const char* buffer);
// The token an identifier `word` (in NUL-terminated text) starts when not
// followed by ':' or '=', as the lexer decides it: a primitive type (in
// *type), a keyword, dim labels (running on to *dim_labels_end), or kIdent.
TokKind ClassifyWord(std::string_view word, PrimitiveType* type, const char** dim_labels_end);
// Processes C escapes (\n, \", \\, octal, \x, \u, \U). Invalid escapes are
// kept verbatim; call ValidStringEscapes first when that matters.
std::string UnescapeString(std::string_view raw);

// Matchers for XLA's number-like patterns; each returns the end of the
// longest match starting at `p`, or nullptr. The text must be NUL-terminated.
const char* MatchDimLabels(const char* p);
const char* MatchDxD(const char* p);
const char* MatchPad(const char* p);
const char* MatchFloat(const char* p);

}  // namespace hlolint
