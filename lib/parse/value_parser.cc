#include "parse/value_parser.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

#include "lex/byte_scan.h"
#include "util/strings.h"

namespace hlolint {
namespace {

constexpr uint64_t Bit(TokKind kind) { return uint64_t{1} << static_cast<int>(kind); }
// Inside integer lists only integers, delimiters and the closing token can
// follow, so the costlier number patterns are not tried (as in XLA).
constexpr uint64_t kIntListSkipMask =
    Bit(TokKind::kDimLabels) | Bit(TokKind::kDxD) | Bit(TokKind::kPad) | Bit(TokKind::kDecimal);

}  // namespace

void ValueParser::NestingTooDeep() {
  depth_exceeded_ = true;
  TokenError(StrCat("nesting deeper than ", limits_.max_nesting_depth,
                    " levels (maximum recursion depth exceeded)"));
}

ValueParser::ValueParser(const SourceFile& file, uint32_t start, ShapeTable* shapes,
                         const ParseLimits& limits)
    : file_(file), lexer_(file.data(), file.size(), start), shapes_(shapes), limits_(limits) {}

bool ValueParser::ValidateEmbeddedModule(uint32_t, std::string_view) { return true; }

// ---------------------------------------------------------------------------
// Syntax only some XLA accepted. The dates come from the table of tracked
// changes (xla/profile.cc), never from here.

namespace {

// The first day of main with `change`, and the last one without it.
std::string FirstDayWith(XlaChange change) { return XlaChangeOf(change).date.ToString(); }
std::string LastDayWithout(XlaChange change) {
  return XlaChangeOf(change).date.DayBefore().ToString();
}

}  // namespace

std::string ValueParser::OtherXlaAttributeNote(AttrName name) const {
  const std::string read_as = StrCat("this file is read as ", limits_.xla.Describe());
  const std::string accepted = FirstDayWith(XlaChange::kConvKindAccepted);
  const std::string renamed = FirstDayWith(XlaChange::kConvKindRenamed);
  const std::string last = LastDayWithout(XlaChange::kConvKindRenamed);
  switch (name) {
    case AttrName::kConvKind:
      return StrCat("(XLA accepted conv_kind= only from ", accepted, " to ", last, "; since ",
                    renamed, " it is convolution_kind=; ", read_as, ": --xla-version ", last,
                    " reads it as that XLA did)");
    case AttrName::kConvolutionKind:
      return StrCat("(XLA accepts convolution_kind= only from ", renamed, " on; from ", accepted,
                    " to ", last, " it was conv_kind=; ", read_as, ": --xla-version ", renamed,
                    " or later reads it)");
    default:
      return StrCat("(", read_as, ")");
  }
}

ValueParser::MeshAxisNames ValueParser::NamedShardingAxisNames() const {
  // Text validated already: ParseMesh takes the form it has.
  if (any_xla_syntax_ || limits_.xla.Has(XlaChange::kMeshAxesQuoted)) return MeshAxisNames::kQuoted;
  if (limits_.xla.Has(XlaChange::kUnquotedMeshAxesAccepted)) return MeshAxisNames::kUnquoted;
  return MeshAxisNames::kNone;
}

std::string ValueParser::MeshAxisNamesNote(bool quoted) const {
  const std::string read_as = StrCat("this file is read as ", limits_.xla.Describe());
  const std::string unquoted_from = FirstDayWith(XlaChange::kUnquotedMeshAxesAccepted);
  const std::string quoted_from = FirstDayWith(XlaChange::kMeshAxesQuoted);
  const std::string unquoted_to = LastDayWithout(XlaChange::kMeshAxesQuoted);
  if (!quoted) {
    return StrCat("(XLA accepted unquoted mesh axis names (mesh[a=2], {a}) only from ",
                  unquoted_from, " to ", unquoted_to, "; since ", quoted_from,
                  " they are quoted (mesh['a'=2], {'a'}); ", read_as, ": --xla-version ",
                  unquoted_to, " reads it as that XLA did)");
  }
  return StrCat("(XLA accepts quoted mesh axis names (mesh['a'=2], {'a'}) only from ", quoted_from,
                " on; from ", unquoted_from, " to ", unquoted_to,
                " they were unquoted (mesh[a=2], {a}); ", read_as, ": --xla-version ", quoted_from,
                " or later reads it)");
}

std::string ValueParser::NoNamedShardingNote() const {
  const std::string unquoted_from = FirstDayWith(XlaChange::kUnquotedMeshAxesAccepted);
  const std::string quoted_from = FirstDayWith(XlaChange::kMeshAxesQuoted);
  const std::string unquoted_to = LastDayWithout(XlaChange::kMeshAxesQuoted);
  // Which form the names after `mesh[` have, for the advice.
  enum class Form { kEither, kQuoted, kUnquoted } form = Form::kEither;
  if (tok().text == "mesh") {
    const char* p = lexer_.buffer() + lexer_.position();
    auto skip_blanks = [&p] {
      while (IsBlankByte(*p)) ++p;
    };
    skip_blanks();
    if (*p == '[') {
      ++p;
      skip_blanks();
      if (*p == '\'' || *p == '"') {
        form = Form::kQuoted;
      } else if (IsIdentStartByte(*p)) {
        form = Form::kUnquoted;
      }
    }
  }
  const std::string advice =
      form == Form::kQuoted     ? StrCat(quoted_from, " or later reads it")
      : form == Form::kUnquoted ? StrCat(unquoted_to, " reads it as that XLA did")
                                : StrCat(unquoted_from, " or later reads it");
  return StrCat("(XLA parses named shardings (mesh[...], maximal_mesh[...]) only from ",
                unquoted_from, " on, with unquoted axis names (mesh[a=2]) until ", unquoted_to,
                " and quoted ones (mesh['a'=2]) since ", quoted_from, "; this file is read as ",
                limits_.xla.Describe(), ": --xla-version ", advice, ")");
}

// ---------------------------------------------------------------------------
// Tokens

bool ValueParser::Error(uint32_t offset, std::string message) {
  if (!error_) error_ = ParseError{offset, std::move(message)};
  return false;
}

bool ValueParser::TokenError(std::string message) {
  if (kind() == TokKind::kError) {
    // The lexer's own diagnosis is more useful than the parser's
    // expectation; a stray character keeps the expectation as context.
    std::string lex_message = DescribeLexError(tok(), lexer_.buffer());
    if (tok().error == LexError::kUnexpectedChar) {
      lex_message = StrCat(lex_message, " (", message, ")");
    }
    return Error(lexer_.offset(), std::move(lex_message));
  }
  // Truncated files end mid-construct; say so rather than leave the user
  // looking for a missing token.
  if (kind() == TokKind::kEof) message += " (reached the end of the file)";
  return Error(lexer_.offset(), std::move(message));
}

bool ValueParser::ParseToken(TokKind want, std::string_view message, uint64_t skip_mask) {
  if (kind() != want) return TokenError(std::string(message));
  Lex(skip_mask);
  return true;
}

bool ValueParser::ParseInt64(int64_t* out) {
  if (kind() != TokKind::kInt) return TokenError("expects integer");
  *out = tok().int_value;
  Lex();
  return true;
}

bool ValueParser::ParseDouble(double* out) {
  switch (kind()) {
    case TokKind::kDecimal: {
      double value = lexer_.DecimalValue();
      if (std::isinf(value)) {
        return TokenError(
            "Constant is out of range for double (+/-1.79769e+308) and so is unparsable.");
      }
      *out = value;
      break;
    }
    case TokKind::kInt:
      *out = static_cast<double>(tok().int_value);
      break;
    case TokKind::kw_inf:
      *out = std::numeric_limits<double>::infinity();
      break;
    case TokKind::kNegInf:
      *out = -std::numeric_limits<double>::infinity();
      break;
    default:
      return TokenError("expects decimal or integer");
  }
  Lex();
  return true;
}

bool ValueParser::ParseBool(bool* out) {
  if (kind() != TokKind::kw_true && kind() != TokKind::kw_false) {
    return TokenError("expects true or false");
  }
  *out = kind() == TokKind::kw_true;
  Lex();
  return true;
}

bool ValueParser::ParseString(std::string_view* raw) {
  if (kind() != TokKind::kString) return TokenError("expects string");
  *raw = tok().text;
  Lex();
  return true;
}

bool ValueParser::ParseJsonDict(std::string_view* raw) {
  if (lexer_.LexJsonDict() != TokKind::kString) return TokenError("expects JSON dict");
  *raw = tok().text;
  Lex();
  return true;
}

bool ValueParser::ParseName(std::string_view* out) {
  if (kind() != TokKind::kIdent && kind() != TokKind::kName) return TokenError("expects name");
  *out = tok().text;
  Lex();
  return true;
}

bool ValueParser::ParseAttributeName(std::string_view* out) {
  if (kind() != TokKind::kAttributeName) return TokenError("expects attribute name");
  *out = tok().text;
  Lex();
  return true;
}

// ---------------------------------------------------------------------------
// Lists

bool ValueParser::ParseInt64List(TokKind start, TokKind end, TokKind delim,
                                 std::vector<int64_t>* out) {
  out->clear();
  // Messages are built only on failure: this runs for every list attribute.
  if (kind() != start) {
    return TokenError(StrCat("expects a list to start with ", TokKindName(start)));
  }
  Lex(kIntListSkipMask);
  if (kind() != end) {
    while (true) {
      int64_t value = 0;
      if (!ParseInt64(&value)) return false;
      out->push_back(value);
      if (kind() != delim) break;
      Lex(kIntListSkipMask);
    }
  }
  if (kind() != end) return TokenError(StrCat("expects a list to end with ", TokKindName(end)));
  Lex();
  return true;
}

bool ValueParser::ParseInt64ListList(TokKind start, TokKind end, TokKind delim,
                                     std::vector<std::vector<int64_t>>* out) {
  out->clear();
  if (!ParseToken(start, StrCat("expects a list starting with ", TokKindName(start)))) {
    return false;
  }
  if (kind() != end) {
    do {
      out->emplace_back();
      if (!ParseInt64List(start, end, delim, &out->back())) return false;
    } while (EatIfPresent(delim));
  }
  return ParseToken(end, StrCat("expects a list to end with ", TokKindName(end)));
}

bool ValueParser::ParseShapeIndex(ShapeIndex* out) {
  out->clear();
  if (!ParseToken(TokKind::kLbrace, "Expects '{' at the start of ShapeIndex")) return false;
  while (kind() != TokKind::kRbrace) {
    int64_t index;
    if (!ParseInt64(&index)) return false;
    out->push_back(index);
    if (!EatIfPresent(TokKind::kComma)) break;
  }
  return ParseToken(TokKind::kRbrace, "Expects '}' at the end of ShapeIndex");
}

// ---------------------------------------------------------------------------
// Precision lists and enumerations

bool ValueParser::ParsePrecisionList() {
  if (!ParseToken(TokKind::kLbrace, "expects a list starting with '{'")) return false;
  if (kind() != TokKind::kRbrace) {
    do {
      if (!ParseEnumIgnoringCase("precision", {"default", "high", "highest", "packed_nibble"})) {
        return false;
      }
    } while (EatIfPresent(TokKind::kComma));
  }
  return ParseToken(TokKind::kRbrace, "expects a list to end with '}'");
}

bool ValueParser::ParseEnum(std::string_view what, std::initializer_list<std::string_view> values,
                            std::string_view* out) {
  if (kind() != TokKind::kIdent) return TokenError(StrCat("expects ", what));
  std::string_view value = tok().text;
  for (std::string_view allowed : values) {
    if (allowed == value) {
      if (out) *out = value;
      Lex();
      return true;
    }
  }
  return TokenError(StrCat("expects ", what, " but sees: ", value));
}

bool ValueParser::ParseEnumIgnoringCase(std::string_view what,
                                        std::initializer_list<std::string_view> values) {
  if (kind() != TokKind::kIdent) return TokenError(StrCat("expects ", what));
  std::string_view value = tok().text;
  for (std::string_view allowed : values) {
    if (allowed.size() == value.size() &&
        std::equal(allowed.begin(), allowed.end(), value.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        })) {
      Lex();
      return true;
    }
  }
  return TokenError(StrCat("expects ", what, " but sees: ", value));
}

bool ValueParser::ParseFusionKind(FusionKind* out) {
  std::string_view value;
  if (!ParseEnum("fusion kind", {"kLoop", "kInput", "kOutput", "kCustom"}, &value)) return false;
  if (value == "kLoop") *out = FusionKind::kLoop;
  if (value == "kInput") *out = FusionKind::kInput;
  if (value == "kOutput") *out = FusionKind::kOutput;
  if (value == "kCustom") *out = FusionKind::kCustom;
  return true;
}

bool ValueParser::ParseCustomCallApiVersion(std::string_view* out) {
  // API_VERSION_UNSPECIFIED is rejected by current XLA but was printed by
  // older versions (torch-xla and Neuron dumps carry it), so it is accepted.
  if (kind() != TokKind::kIdent) return TokenError("expects custom-call API version");
  std::string_view value = tok().text;
  // XLA upper-cases the value before looking it up.
  for (std::string_view allowed :
       {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
        "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"}) {
    if (allowed.size() == value.size() &&
        std::equal(allowed.begin(), allowed.end(), value.begin(), [](char a, char b) {
          return a == std::toupper(static_cast<unsigned char>(b));
        })) {
      *out = value;
      Lex();
      return true;
    }
  }
  return TokenError(StrCat("expects custom-call API version but sees: ", value,
                                 ", error: Unknown API version"));
}

}  // namespace hlolint
