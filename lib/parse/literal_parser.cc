// Literal validation: XLA's ParseLiteral / ParseDenseLiteral. Values are
// checked against their element type and counted against the shape, but not
// stored (rules never need constant values).
#include <cmath>
#include <limits>

#include "fmt/format.h"
#include "util/strings.h"
#include "parse/value_parser.h"

namespace hlolint {
namespace {

// Largest finite value of a floating-point type and half a unit in the last
// place at that value: inputs up to max + half_ulp round to max.
struct FloatRange {
  double max;
  double half_ulp;
};

FloatRange RangeOf(PrimitiveType type) {
  switch (type) {
    case PrimitiveType::kF16: return {65504.0, 16.0};
    case PrimitiveType::kBF16: return {3.3895313892515355e38, 6.646139978924579e35};
    case PrimitiveType::kF32: return {3.4028234663852886e38, 1.0141204801825835e31};
    case PrimitiveType::kF8E5M2: return {57344.0, 4096.0};
    case PrimitiveType::kF8E4M3: return {240.0, 8.0};
    case PrimitiveType::kF8E4M3FN: return {448.0, 16.0};
    case PrimitiveType::kF8E4M3B11FNUZ: return {30.0, 1.0};
    case PrimitiveType::kF8E3M4: return {15.5, 0.25};
    case PrimitiveType::kF8E5M2FNUZ: return {57344.0, 4096.0};
    case PrimitiveType::kF8E4M3FNUZ: return {240.0, 8.0};
    case PrimitiveType::kF4E2M1FN: return {6.0, 1.0};
    case PrimitiveType::kF8E8M0FNU: return {1.7014118346046923e38, 0.0};
    case PrimitiveType::kC64: return {3.4028234663852886e38, 1.0141204801825835e31};
    default: return {std::numeric_limits<double>::max(), 0.0};
  }
}

std::string TypeNameUpper(PrimitiveType type) {
  std::string name(PrimitiveTypeName(type));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

}  // namespace

bool ValueParser::CheckLiteralValue(const Shape& shape, uint32_t offset, TokKind token) {
  const PrimitiveType type = shape.element_type;
  if (token == TokKind::kw_true || token == TokKind::kw_false) {
    if (type != PrimitiveType::kPred) {
      return Error(offset, StrCat("expects ", PrimitiveTypeName(type),
                                        " value, but sees a boolean"));
    }
    Lex();
    return true;
  }
  if (IsInteger(type) || type == PrimitiveType::kPred) {
    int64_t value;
    if (kind() != TokKind::kInt) {
      TokenError("expects integer");
      error_->offset = offset;
      error_->message = StrCat("expects integer for primitive type: ", TypeNameUpper(type));
      return false;
    }
    value = tok().int_value;
    if (type != PrimitiveType::kPred) {
      const int bits = PrimitiveTypeBits(type);
      if (IsUnsignedInteger(type)) {
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
    Lex();
    return true;
  }
  if (IsFloatingPoint(type)) {
    double value;
    const std::string_view text = lexer_.TokenText();
    if (!CheckNanPayload(shape, offset, text)) return false;
    if (!ParseDouble(&value)) {
      error_->offset = offset;
      error_->message =
          StrCat("expect floating point value for primitive type: ", TypeNameUpper(type));
      return false;
    }
    if (std::isfinite(value)) {
      // Values round to nearest-even; a tie above the largest finite value
      // rounds up to infinity (or NaN for types without one).
      FloatRange range = RangeOf(type);
      if (value >= range.max + range.half_ulp || value <= -(range.max + range.half_ulp)) {
        return Error(offset, StrCat("value ", value,
                                          " is out of range for literal's primitive type ",
                                          TypeNameUpper(type), " namely [", -range.max, ", ",
                                          range.max, "]."));
      }
    }
    return true;
  }
  return Error(offset, StrCat("unsupported primitive type ", TypeNameUpper(type)));
}

bool ValueParser::CheckNanPayload(const Shape& shape, uint32_t offset, std::string_view text) {
  const size_t paren = text.find("nan(0x");
  if (paren == std::string_view::npos) return true;
  uint64_t payload = 0;
  for (char c : text.substr(paren + 6)) {
    if (c == ')') break;
    payload = payload * 16 + static_cast<uint64_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  uint64_t mask = 0;
  switch (shape.element_type) {
    case PrimitiveType::kF16: mask = 0x3ff; break;
    case PrimitiveType::kBF16: mask = 0x7f; break;
    case PrimitiveType::kF32: mask = 0x7fffff; break;
    case PrimitiveType::kF64: mask = 0xfffffffffffff; break;
    case PrimitiveType::kF8E5M2: mask = 0x3; break;
    case PrimitiveType::kF8E4M3: mask = 0x7; break;
    case PrimitiveType::kF8E3M4: mask = 0xf; break;
    default: break;
  }
  if (mask == 0) {
    return Error(offset, StrCat("tries to set NaN payload 0x", fmt::format("{:x}", payload),
                                " to a literal in shape ", ShapeToString(shape), ", but ",
                                PrimitiveTypeName(shape.element_type), " does not support payloads"));
  }
  if (payload > mask) {
    return Error(offset, StrCat("tries to set NaN payload 0x", fmt::format("{:x}", payload),
                                " to a literal in shape ", ShapeToString(shape),
                                ", but the NaN payload is out of range (0x", fmt::format("{:x}", mask),
                                ")"));
  }
  return true;
}

bool ValueParser::ParseComplex(const Shape& shape) {
  Lex();  // '('
  const FloatRange range = RangeOf(shape.element_type);
  for (const char* part : {"real", "imaginary"}) {
    const uint32_t offset = lexer_.offset();
    double value;
    if (!ParseDouble(&value)) {
      error_->offset = offset;
      error_->message = StrCat("expect floating-point value for ", part,
                                     " part of complex number");
      return false;
    }
    if (std::isfinite(value) && (value > range.max || value < -range.max)) {
      return Error(offset, StrCat(part, " part ", value,
                                        " is out of range for literal's primitive type ",
                                        TypeNameUpper(shape.element_type)));
    }
    if (part[0] == 'r') {
      if (kind() != TokKind::kComma) return TokenError("expect comma after real part of complex literal");
      Lex();
    }
  }
  if (kind() != TokKind::kRparen) return TokenError("expect ')' after complex number");
  Lex();
  return true;
}

bool ValueParser::ParseLiteral(const Shape& shape) {
  if (shape.IsTuple()) return ParseTupleLiteral(shape);
  if (!shape.IsArray()) {
    return TokenError(StrCat("a literal needs an array or tuple shape, not ",
                                   ShapeToString(shape)));
  }
  return ParseDenseLiteral(shape);
}

bool ValueParser::ParseTupleLiteral(const Shape& shape) {
  DepthGuard guard(this);
  if (!guard.ok) return false;
  if (!ParseToken(TokKind::kLparen, "expects '(' in front of tuple elements")) return false;
  if (kind() != TokKind::kRparen) {
    for (size_t i = 0; i < shape.tuple_shapes.size(); ++i) {
      if (i > 0 && !ParseToken(TokKind::kComma, "expects ',' to separate tuple elements")) {
        return false;
      }
      if (!ParseLiteral(*shape.tuple_shapes[i])) return false;
    }
  }
  return ParseToken(TokKind::kRparen, StrCat("expects ')' at the end of the tuple with ",
                                                   shape.tuple_shapes.size(), "elements"));
}

bool ValueParser::ParseDenseLiteral(const Shape& shape) {
  const int rank = shape.rank();
  std::vector<int64_t>& seen = ints_scratch_;
  seen.assign(static_cast<size_t>(rank), 0);
  int64_t nest_level = 0;
  auto index_string = [&](int dim) {
    std::string out = "[";
    for (int i = 0; i < dim; ++i) out += StrCat(i ? "," : "", seen[i] - 1);
    return out + "]";
  };
  auto add_one_element = [&]() {
    if (rank > 0) {
      if (nest_level == 0) {
        // XLA accepts a bare value for a non-scalar constant (it sets element
        // 0), unless the shape has no elements.
        const std::optional<int64_t> count = ElementCount(shape);
        if (count && *count == 0) {
          return TokenError(StrCat("tries to set value ", lexer_.TokenText(),
                                   " to a literal in shape ", ShapeToString(shape),
                                   " at linear index 0, but the index is out of range"));
        }
        return true;
      }
      if (nest_level != rank) {
        return TokenError(StrCat("expects nested array in rank ", rank, ", but sees ",
                                       nest_level));
      }
      if (++seen[rank - 1] > shape.dimensions[rank - 1]) {
        return TokenError(StrCat("expects ", shape.dimensions[rank - 1],
                                       " elements on the minor-most dimension, but sees more"));
      }
    }
    return true;
  };
  do {
    switch (kind()) {
      case TokKind::kLbrace:
        if (++nest_level > rank) {
          return TokenError(StrCat("expects nested array in rank ", rank,
                                         ", but sees larger"));
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
      case TokKind::kLparen:
        if (!IsComplex(shape.element_type)) {
          return TokenError(
              "unexpected '(' in literal. Parens are only valid for complex literals");
        }
        if (!add_one_element() || !ParseComplex(shape)) return false;
        break;
      case TokKind::kDots:
        if (nest_level != 1) {
          return TokenError(StrCat("expects `...` at nest level 1, but sees it at nest level ",
                                         nest_level));
        }
        seen[0] = shape.dimensions[0];
        Lex();
        break;
      case TokKind::kComma:
        Lex();
        break;
      case TokKind::kw_true:
      case TokKind::kw_false:
      case TokKind::kInt:
      case TokKind::kDecimal:
      case TokKind::kw_inf:
      case TokKind::kNegInf: {
        const uint32_t offset = lexer_.offset();
        if (!add_one_element()) return false;
        if (IsComplex(shape.element_type)) {
          return Error(offset, "complex literal values must be written as (real, imag)");
        }
        if (!CheckLiteralValue(shape, offset, kind())) return false;
        break;
      }
      default:
        return TokenError("unexpected token type in a literal");
    }
  } while (nest_level > 0);
  return true;
}

bool ValueParser::ParseLiteralWithShape() {
  DepthGuard guard(this);
  if (!guard.ok) return false;
  if (kind() == TokKind::kLparen) {
    Lex();
    while (kind() != TokKind::kRparen) {
      if (!ParseLiteralWithShape()) return TokenError("Fails when parsing tuple element");
      if (kind() != TokKind::kRparen &&
          !ParseToken(TokKind::kComma, "expects ',' to separate tuple elements")) {
        return false;
      }
    }
    return ParseToken(TokKind::kRparen, "expects ')' to close a tuple literal");
  }
  ShapeId id;
  if (!ParseShape(&id)) return false;
  return ParseLiteral(shape(id));
}

}  // namespace hlolint
