// Literal validation: XLA's ParseLiteral / ParseDenseLiteral /
// SetValueInLiteral. Values are checked against their element type and
// counted against the shape, but not stored (rules never need them).
//
// XLA ignores some of its own literal errors (it records them and parses
// on, see the parser notes §5.10): a value at the wrong nesting depth, more
// values than the minor-most dimension holds, a missing ',' between tuple
// elements. Such texts are rejected only if a later check fails (which is
// almost always the case), so they are recorded as "pending" here and
// reported as the first error when the literal fails, as XLA would.
#include <cmath>
#include <limits>

#include "fmt/format.h"
#include "parse/value_parser.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// How a floating-point type treats a finite value beyond its largest finite
// value when XLA casts it (round to nearest even, ml_dtypes conversions).
enum class Overflow : uint8_t {
  kTieOverflows,  // max + half an ulp already rounds to inf/NaN (odd max mantissa)
  kTieToMax,      // max + half an ulp rounds down to max (even max mantissa)
  kSaturates,     // no inf or NaN: every value converts to a finite one
  kNever,         // f64: ParseDouble already rejects overflowing decimals
};

struct FloatRange {
  double max;
  double half_ulp;  // half a unit in the last place at max
  Overflow mode;
};

FloatRange RangeOf(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kF16: return {65504.0, 16.0, Overflow::kTieOverflows};
    case PrimitiveType::kBF16:
      return {3.3895313892515355e38, 6.646139978924579e35, Overflow::kTieOverflows};
    case PrimitiveType::kF32:
      return {3.4028234663852886e38, 1.0141204801825835e31, Overflow::kTieOverflows};
    case PrimitiveType::kF8E5M2: return {57344.0, 4096.0, Overflow::kTieOverflows};
    case PrimitiveType::kF8E4M3: return {240.0, 8.0, Overflow::kTieOverflows};
    case PrimitiveType::kF8E4M3FN: return {448.0, 16.0, Overflow::kTieToMax};
    case PrimitiveType::kF8E4M3B11FNUZ: return {30.0, 1.0, Overflow::kTieOverflows};
    case PrimitiveType::kF8E3M4: return {15.5, 0.25, Overflow::kTieOverflows};
    case PrimitiveType::kF8E5M2FNUZ: return {57344.0, 4096.0, Overflow::kTieOverflows};
    case PrimitiveType::kF8E4M3FNUZ: return {240.0, 8.0, Overflow::kTieOverflows};
    case PrimitiveType::kF4E2M1FN: return {6.0, 1.0, Overflow::kSaturates};
    // 2^127; no mantissa, so values round between powers of two and the
    // tie 1.5 * 2^127 stays at 2^127 (even exponent).
    case PrimitiveType::kF8E8M0FNU:
      return {1.7014118346046923e38, 8.507059173023462e37, Overflow::kTieToMax};
    default: return {std::numeric_limits<double>::max(), 0.0, Overflow::kNever};
  }
}

// Mask of the NaN payload bits of types with signaling NaNs; 0 for types
// without payloads (the fn/fnuz/e8m0 types and f4e2m1fn).
uint64_t NanPayloadMask(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kF16: return 0x3ff;
    case PrimitiveType::kBF16: return 0x7f;
    case PrimitiveType::kF32: case PrimitiveType::kC64: return 0x7fffff;
    case PrimitiveType::kF64: case PrimitiveType::kC128: return 0xfffffffffffff;
    case PrimitiveType::kF8E5M2: return 0x3;
    case PrimitiveType::kF8E4M3: return 0x7;
    case PrimitiveType::kF8E3M4: return 0xf;
    default: return 0;
  }
}

// The payload a `nan` token stands for: XLA's lexer gives plain `nan` the
// default quiet payload 2^51, which every type accepts.
constexpr uint64_t kQuietNanPayload = uint64_t{1} << 51;

uint64_t NanPayloadOfToken(std::string_view text) {
  const size_t paren = text.find("(0x");
  if (paren == std::string_view::npos) return kQuietNanPayload;
  uint64_t payload = 0;
  for (char c : text.substr(paren + 3)) {
    if (c == ')') break;
    payload = payload * 16 + static_cast<uint64_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  return payload;
}

std::string TypeNameUpper(PrimitiveType type) {
  std::string name(PrimitiveTypeName(type));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

// absl::StrCat formats doubles with six significant digits.
std::string SixDigits(double value) { return fmt::format("{:g}", value); }

}  // namespace

void ValueParser::NotePendingLiteralError(uint32_t offset, std::string message) {
  if (!literal_pending_) literal_pending_ = ParseError{offset, std::move(message)};
}

bool ValueParser::ReportLiteralFailure() {
  if (literal_pending_) error_ = literal_pending_;
  literal_pending_.reset();
  return false;
}

bool ValueParser::CheckLiteralIndex(const Shape& shape, uint32_t offset, std::string_view value,
                                    int64_t index, int64_t element_count) {
  if (index < element_count) return true;
  return Error(offset, StrCat("tries to set value ", value, " to a literal in shape ",
                              ShapeToString(shape, false), " at linear index ", index,
                              ", but the index is out of range"));
}

bool ValueParser::CheckNanPayload(const Shape& shape, uint32_t offset, uint64_t payload,
                                  int64_t index) {
  if (payload == kQuietNanPayload) return true;
  const uint64_t mask = NanPayloadMask(shape.element_type);
  if (mask == 0) {
    return Error(offset, StrCat("tries to set NaN payload 0x", fmt::format("{:x}", payload),
                                " to a literal in shape ", ShapeToString(shape, false),
                                " at linear index ", index, ", but ",
                                PrimitiveTypeName(shape.element_type),
                                " does not support payloads"));
  }
  if (payload > mask) {
    return Error(offset, StrCat("tries to set NaN payload 0x", fmt::format("{:x}", payload),
                                " to a literal in shape ", ShapeToString(shape, false),
                                " at linear index ", index,
                                ", but the NaN payload is out of range (0x",
                                fmt::format("{:x}", mask), ")"));
  }
  return true;
}

bool ValueParser::ParseScalarValue(const Shape& shape, uint32_t offset, int64_t index,
                                   int64_t element_count) {
  const PrimitiveType type = shape.element_type;
  const std::string_view text = lexer_.TokenText();
  if (kind() == TokKind::kw_true || kind() == TokKind::kw_false) {
    // XLA aborts on a boolean for any other type.
    if (type != PrimitiveType::kPred) {
      return Error(offset, StrCat("expects ", PrimitiveTypeName(type),
                                  " value, but sees the boolean ", text));
    }
    if (!CheckLiteralIndex(shape, offset, text, index, element_count)) return false;
    Lex();
    return true;
  }
  if (IsInteger(type) || type == PrimitiveType::kPred) {
    if (kind() != TokKind::kInt) {
      return Error(offset, StrCat("expects integer for primitive type: ", TypeNameUpper(type)));
    }
    const int64_t value = tok().int_value;
    if (type != PrimitiveType::kPred) {
      const int bits = PrimitiveTypeBits(type);
      if (IsUnsignedInteger(type)) {
        // The value is reinterpreted as uint64 (so u64 takes -1).
        const uint64_t upper = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
        if (static_cast<uint64_t>(value) > upper) {
          return Error(offset, StrCat("value ", value,
                                      " is out of range for literal's primitive type ",
                                      TypeNameUpper(type), " namely [0, ", upper, "]."));
        }
      } else if (bits < 64) {
        const int64_t lower = -(int64_t{1} << (bits - 1));
        const int64_t upper = (int64_t{1} << (bits - 1)) - 1;
        if (value < lower || value > upper) {
          return Error(offset, StrCat("value ", value,
                                      " is out of range for literal's primitive type ",
                                      TypeNameUpper(type), " namely [", lower, ", ", upper,
                                      "]."));
        }
      }
    }
    if (!CheckLiteralIndex(shape, offset, text, index, element_count)) return false;
    Lex();
    return true;
  }
  if (IsFloatingPoint(type)) {
    const bool is_nan = kind() == TokKind::kDecimal && text.find("nan") != std::string_view::npos;
    double value;
    // An overflowing decimal fails here with XLA's "Constant is out of range
    // for double" message.
    if (!ParseDouble(&value)) return false;
    if (std::isfinite(value)) {
      const FloatRange range = RangeOf(type);
      const double limit = range.max + range.half_ulp;
      bool out_of_range = false;
      switch (range.mode) {
        case Overflow::kTieOverflows: out_of_range = std::fabs(value) >= limit; break;
        case Overflow::kTieToMax: out_of_range = std::fabs(value) > limit; break;
        case Overflow::kSaturates: case Overflow::kNever: break;
      }
      // f8e8m0fnu has no sign bit.
      if (type == PrimitiveType::kF8E8M0FNU && value < 0) out_of_range = true;
      if (out_of_range) {
        const double lowest =
            type == PrimitiveType::kF8E8M0FNU ? 5.877471754111438e-39 : -range.max;
        return Error(offset, StrCat("value ", SixDigits(value),
                                    " is out of range for literal's primitive type ",
                                    TypeNameUpper(type), " namely [", SixDigits(lowest), ", ",
                                    SixDigits(range.max), "]."));
      }
    }
    if (!CheckLiteralIndex(shape, offset, text, index, element_count)) return false;
    if (is_nan && !CheckNanPayload(shape, offset, NanPayloadOfToken(text), index)) return false;
    return true;
  }
  return Error(offset, StrCat("unsupported primitive type ", TypeNameUpper(type),
                              IsComplex(type) ? ": complex values are written as (real, imag)"
                                              : ""));
}

bool ValueParser::ParseComplex(const Shape& shape, uint32_t offset, int64_t index,
                               int64_t element_count) {
  Lex();  // '('
  const bool single = shape.element_type == PrimitiveType::kC64;
  const double max = single ? 3.4028234663852886e38 : std::numeric_limits<double>::max();
  uint64_t real_payload = 0;
  bool real_is_nan = false;
  for (const char* part : {"real", "imaginary"}) {
    const uint32_t part_offset = lexer_.offset();
    const std::string_view text = lexer_.TokenText();
    const bool is_nan = kind() == TokKind::kDecimal && text.find("nan") != std::string_view::npos;
    if (part[0] == 'r') {
      real_is_nan = is_nan;
      if (is_nan) real_payload = NanPayloadOfToken(text);
    }
    double value;
    if (kind() != TokKind::kDecimal && kind() != TokKind::kInt && kind() != TokKind::kw_inf &&
        kind() != TokKind::kNegInf) {
      return Error(part_offset, StrCat("expect floating-point value for ", part,
                                       " part of complex number"));
    }
    if (!ParseDouble(&value)) return false;
    if (std::isfinite(value) && (value > max || value < -max)) {
      return Error(part_offset, StrCat(part, " part ", SixDigits(value),
                                       " is out of range for literal's primitive type ",
                                       TypeNameUpper(shape.element_type), ", namely [",
                                       SixDigits(-max), ", ", SixDigits(max), "]."));
    }
    if (part[0] == 'r' && !ParseToken(TokKind::kComma,
                                       "expect comma after real part of complex literal")) {
      return false;
    }
  }
  if (!ParseToken(TokKind::kRparen, "expect ')' after complex number")) return false;
  const std::string_view written(lexer_.buffer() + offset, lexer_.previous_end() - offset);
  if (!CheckLiteralIndex(shape, offset, written, index, element_count)) return false;
  // XLA checks the real part's payload (twice) and never the imaginary one.
  if (real_is_nan && !CheckNanPayload(shape, offset, real_payload, index)) return false;
  return true;
}

bool ValueParser::ParseLiteral(const Shape& shape) {
  literal_pending_.reset();
  if (ParseLiteralImpl(shape)) {
    literal_pending_.reset();
    return true;
  }
  return ReportLiteralFailure();
}

bool ValueParser::ParseLiteralImpl(const Shape& shape) {
  if (shape.IsTuple()) return ParseTupleLiteral(shape);
  if (!shape.IsArray()) {
    // XLA aborts on token, opaque and buffer constants.
    return TokenError(StrCat("a literal needs an array or tuple shape, not ",
                             ShapeToString(shape)));
  }
  return ParseDenseLiteral(shape);
}

bool ValueParser::ParseTupleLiteral(const Shape& shape) {
  DepthGuard guard(this);
  if (!guard.ok) return false;
  if (!ParseToken(TokKind::kLparen, "expects '(' in front of tuple elements")) return false;
  // `()` is accepted for any tuple shape (its elements stay empty).
  if (kind() != TokKind::kRparen) {
    for (size_t i = 0; i < shape.tuple_shapes.size(); ++i) {
      if (i > 0 && !EatIfPresent(TokKind::kComma)) {
        NotePendingLiteralError(lexer_.offset(), "expects ',' to separate tuple elements");
      }
      if (!ParseLiteralImpl(*shape.tuple_shapes[i])) return false;
    }
  }
  return ParseToken(TokKind::kRparen, StrCat("expects ')' at the end of the tuple with ",
                                             shape.tuple_shapes.size(), "elements"));
}

bool ValueParser::ParseDenseLiteral(const Shape& shape) {
  const int rank = shape.rank();
  for (int64_t dim : shape.dimensions) {
    if (dim == kUnboundedSize) {
      return TokenError(StrCat("a literal of shape ", ShapeToString(shape, false),
                               " cannot be written: it has an unbounded dimension"));
    }
  }
  const int64_t element_count = ElementCount(shape).value_or(INT64_MAX);
  std::vector<int64_t>& seen = ints_scratch_;
  seen.assign(static_cast<size_t>(rank), 0);
  int64_t nest_level = 0;
  int64_t linear_index = 0;
  auto index_string = [&](int dim) {
    std::string out = "[";
    for (int i = 0; i < dim; ++i) out += StrCat(i ? "," : "", seen[i] - 1);
    return out + "]";
  };
  // XLA's add_one_elem_seen; `strict` when XLA returns its error (complex
  // values) instead of only recording it.
  auto add_one_element = [&](uint32_t offset, bool strict) {
    if (rank == 0) return true;
    std::string problem;
    if (nest_level != rank) {
      problem = StrCat("expects nested array in rank ", rank, ", but sees ", nest_level);
    } else if (++seen[rank - 1] > shape.dimensions[rank - 1]) {
      problem = StrCat("expects ", shape.dimensions[rank - 1],
                       " elements on the minor-most dimension, but sees more");
    }
    if (problem.empty()) return true;
    if (strict) return Error(offset, std::move(problem));
    NotePendingLiteralError(offset, std::move(problem));
    return true;
  };
  do {
    switch (kind()) {
      case TokKind::kLbrace:
        if (++nest_level > rank) {
          return TokenError(StrCat("expects nested array in rank ", rank, ", but sees larger"));
        }
        if (nest_level > 1) {
          const int dim = static_cast<int>(nest_level) - 2;
          if (++seen[dim] > shape.dimensions[dim]) {
            return TokenError(StrCat("expects ", shape.dimensions[dim], " elements in the ",
                                     index_string(dim), "th element, but sees more"));
          }
        }
        Lex();
        break;
      case TokKind::kRbrace: {
        if (nest_level == 0) return TokenError("unexpected '}' token");
        --nest_level;
        const int dim = static_cast<int>(nest_level);
        if (seen[dim] != shape.dimensions[dim]) {
          return TokenError(StrCat("expects ", shape.dimensions[dim], " elements in the ",
                                   index_string(dim), "th element, but sees ", seen[dim]));
        }
        seen[dim] = 0;
        Lex();
        break;
      }
      case TokKind::kLparen: {
        if (!IsComplex(shape.element_type)) {
          return TokenError("unexpected '(' in literal. Parens are only valid for complex literals");
        }
        const uint32_t offset = lexer_.offset();
        if (!add_one_element(offset, true) ||
            !ParseComplex(shape, offset, linear_index++, element_count)) {
          return false;
        }
        break;
      }
      case TokKind::kDots:
        // An elided constant `{...}`: the first dimension counts as complete.
        if (nest_level != 1) {
          return TokenError(StrCat("expects `...` at nest level 1, but sees it at nest level ",
                                   nest_level));
        }
        seen[0] = shape.dimensions[0];
        Lex();
        break;
      case TokKind::kComma:
        Lex();  // Commas are optional and may repeat.
        break;
      case TokKind::kw_true:
      case TokKind::kw_false:
      case TokKind::kInt:
      case TokKind::kDecimal:
      case TokKind::kw_inf:
      case TokKind::kNegInf: {
        const uint32_t offset = lexer_.offset();
        add_one_element(offset, false);
        if (!ParseScalarValue(shape, offset, linear_index++, element_count)) return false;
        break;
      }
      case TokKind::kEof:
        return TokenError("the literal is not closed with '}' before the end of the file");
      default:
        return TokenError("unexpected token type in a literal");
    }
  } while (nest_level > 0);
  return true;
}

bool ValueParser::ParseLiteralWithShape() {
  literal_pending_.reset();
  if (ParseLiteralWithShapeImpl()) {
    literal_pending_.reset();
    return true;
  }
  return ReportLiteralFailure();
}

bool ValueParser::ParseLiteralWithShapeImpl() {
  DepthGuard guard(this);
  if (!guard.ok) return false;
  if (kind() == TokKind::kLparen) {
    Lex();
    while (kind() != TokKind::kRparen) {
      if (!ParseLiteralWithShapeImpl()) return TokenError("Fails when parsing tuple element");
      // XLA records a missing ',' but goes on.
      if (kind() != TokKind::kRparen && !EatIfPresent(TokKind::kComma)) {
        NotePendingLiteralError(lexer_.offset(), "expects ',' to separate tuple elements");
      }
    }
    return ParseToken(TokKind::kRparen, "expects ')' to close a tuple literal");
  }
  ShapeId id;
  if (!ParseShape(&id)) return false;
  return ParseLiteralImpl(shape(id));
}

}  // namespace hlolint
