// Token kinds of HLO text, mirroring XLA's HloLexer (xla/hlo/parser/hlo_lexer.h).
#pragma once

#include <cstdint>
#include <string_view>

#include "ir/primitive_type.h"

namespace hlolint {

enum class TokKind : uint8_t {
  kEof,
  kError,
  // Punctuation.
  kEqual,         // =
  kComma,         // ,
  kColon,         // :
  kAsterisk,      // *
  kQuestionMark,  // ?
  kOctothorp,     // #
  kPlus,          // +
  kTilde,         // ~
  kLsquare,       // [
  kRsquare,       // ]
  kLbrace,        // {
  kRbrace,        // }
  kLparen,        // (
  kRparen,        // )
  kArrow,         // ->
  kLeq,           // <=
  kDots,          // ...
  // Keywords.
  kw_true,
  kw_false,
  kw_inf,
  kw_HloModule,
  kw_ENTRY,
  kw_ROOT,
  kw_FileLocations,
  kw_FileNames,
  kw_FunctionNames,
  kw_StackFrames,
  kw_maximal,
  kw_replicated,
  kw_manual,
  kw_last_tile_dim_replicate,
  kw_shard_as,
  kw_shard_like,
  kw_unknown,
  kw_unreduced,
  // Typed values.
  kNegInf,         // -inf
  kPrimitiveType,  // f32, bf16, ...
  kName,           // %foo, or foo followed by ':' (the ':' is consumed)
  kAttributeName,  // foo followed by '=' (the '=' is consumed)
  kDimLabels,      // b01f_01io->b01f
  kDxD,            // 1x2x3
  kPad,            // 0_0x1_1
  kIdent,          // any other identifier
  kString,         // "..." or '...'
  kInt,
  kDecimal,
  // Not an XLA token: a `// -----` line, which separates modules in
  // split-input files.
  kSplitMarker,
};

std::string_view TokKindName(TokKind kind);

// Why the lexer produced kError.
enum class LexError : uint8_t {
  kNone,
  kUnexpectedChar,
  kNulByte,
  kUnterminatedComment,
  kUnterminatedString,
  kBadEscape,
  kIntOverflow,
  kBadNanPayload,
  kUnterminatedJson,
};

std::string_view LexErrorMessage(LexError error);

struct Token {
  TokKind kind = TokKind::kEof;
  LexError error = LexError::kNone;
  PrimitiveType primitive_type = PrimitiveType::kInvalid;
  bool string_has_escapes = false;
  // Offset of the token's first byte and one past its last byte.
  uint32_t begin = 0;
  uint32_t end = 0;
  // For kName / kAttributeName / kIdent / kString: the text (without '%',
  // ':' / '=', or quotes; string escapes are not processed).
  std::string_view text;
  int64_t int_value = 0;  // kInt (values above INT64_MAX wrap, as in XLA)
};

}  // namespace hlolint
