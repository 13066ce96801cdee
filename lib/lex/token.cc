// The names of token kinds and the messages of lex errors.
#include <string>
#include <string_view>

#include "fmt/format.h"
#include "lex/lexer.h"
#include "lex/token.h"

namespace hlolint {

std::string_view TokKindName(TokKind kind) {
  switch (kind) {
    case TokKind::kEof: return "end of file";
    case TokKind::kError: return "invalid token";
    case TokKind::kEqual: return "'='";
    case TokKind::kComma: return "','";
    case TokKind::kColon: return "':'";
    case TokKind::kAsterisk: return "'*'";
    case TokKind::kQuestionMark: return "'?'";
    case TokKind::kOctothorp: return "'#'";
    case TokKind::kPlus: return "'+'";
    case TokKind::kTilde: return "'~'";
    case TokKind::kLsquare: return "'['";
    case TokKind::kRsquare: return "']'";
    case TokKind::kLbrace: return "'{'";
    case TokKind::kRbrace: return "'}'";
    case TokKind::kLparen: return "'('";
    case TokKind::kRparen: return "')'";
    case TokKind::kArrow: return "'->'";
    case TokKind::kLeq: return "'<='";
    case TokKind::kDots: return "'...'";
    case TokKind::kw_true: return "'true'";
    case TokKind::kw_false: return "'false'";
    case TokKind::kw_inf: return "'inf'";
    case TokKind::kw_HloModule: return "'HloModule'";
    case TokKind::kw_ENTRY: return "'ENTRY'";
    case TokKind::kw_ROOT: return "'ROOT'";
    case TokKind::kw_FileLocations: return "'FileLocations'";
    case TokKind::kw_FileNames: return "'FileNames'";
    case TokKind::kw_FunctionNames: return "'FunctionNames'";
    case TokKind::kw_StackFrames: return "'StackFrames'";
    case TokKind::kw_maximal: return "'maximal'";
    case TokKind::kw_replicated: return "'replicated'";
    case TokKind::kw_manual: return "'manual'";
    case TokKind::kw_last_tile_dim_replicate: return "'last_tile_dim_replicate'";
    case TokKind::kw_shard_as: return "'shard_as'";
    case TokKind::kw_shard_like: return "'shard_like'";
    case TokKind::kw_unknown: return "'unknown'";
    case TokKind::kw_unreduced: return "'unreduced'";
    case TokKind::kNegInf: return "'-inf'";
    case TokKind::kPrimitiveType: return "element type";
    case TokKind::kName: return "name";
    case TokKind::kAttributeName: return "attribute name";
    case TokKind::kDimLabels: return "dim labels";
    case TokKind::kDxD: return "'NxM' pattern";
    case TokKind::kPad: return "padding pattern";
    case TokKind::kIdent: return "identifier";
    case TokKind::kString: return "string";
    case TokKind::kInt: return "integer";
    case TokKind::kDecimal: return "decimal";
    case TokKind::kSplitMarker: return "'// -----' split marker";
  }
  return "token";
}

std::string_view LexErrorMessage(LexError error) {
  switch (error) {
    case LexError::kNone: return "invalid token";
    case LexError::kUnexpectedChar: return "unexpected character";
    case LexError::kNulByte: return "NUL byte in the text";
    case LexError::kUnterminatedComment: return "unterminated /* comment";
    case LexError::kUnterminatedString: return "unterminated string";
    case LexError::kBadEscape: return "invalid escape sequence in string";
    case LexError::kIntOverflow: return "integer literal out of range";
    case LexError::kBadNanPayload: return "invalid NaN payload";
    case LexError::kUnterminatedJson: return "unterminated JSON object";
  }
  return "invalid token";
}

std::string DescribeLexError(const Token& token, const char* buffer) {
  const char* at = buffer + token.begin;
  const unsigned char c = static_cast<unsigned char>(*at);
  switch (token.error) {
    case LexError::kUnexpectedChar:
      if (c == 0xC2 && static_cast<unsigned char>(at[1]) == 0xA0) {
        return "non-breaking space (U+00A0) is not whitespace in HLO text";
      }
      if (c >= 0x80) return fmt::format("unexpected non-ASCII byte 0x{:02X}", c);
      if (c < 0x20 || c == 0x7f) return fmt::format("unexpected control character 0x{:02X}", c);
      switch (c) {
        case '%': return "'%' must be followed by a name";
        case '/': return "unexpected '/' (comments are /* ... */ or // ...)";
        case '.': return "unexpected '.' (only '...' is a token)";
        case '<': return "unexpected '<' (only '<=' is a token)";
        default: return fmt::format("unexpected character '{}'", static_cast<char>(c));
      }
    case LexError::kBadEscape: {
      // Show the escape letter and, for \x \u \U, the digits that follow.
      size_t length = 2;
      const char e = at[1];
      const size_t max_digits = e == 'x' || e == 'X' ? 3 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
      auto hex = [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
      };
      while (length < 2 + max_digits && hex(at[length])) ++length;
      return fmt::format("invalid escape sequence '{}' in string",
                         std::string_view(at, at[1] == '\0' ? 1 : length));
    }
    case LexError::kIntOverflow:
      return fmt::format("integer literal {} does not fit in 64 bits",
                         std::string_view(at, token.end > token.begin ? token.end - token.begin : 0));
    case LexError::kBadNanPayload:
      return "invalid NaN payload: expected nan(0x1) to nan(0xfffffffffffff)";
    default:
      return std::string(LexErrorMessage(token.error));
  }
}

}  // namespace hlolint
