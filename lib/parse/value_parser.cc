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

bool SplitToInt64s(std::string_view text, char delim, std::vector<int64_t>* out) {
  return ForEachPiece(text, delim, [out](std::string_view part) {
    int64_t value;
    if (!ParseIntText(part, &value)) return false;
    out->push_back(value);
    return true;
  });
}

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
      int64_t value;
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
// Shapes and layouts

bool ValueParser::CanBeShape() {
  return kind() == TokKind::kPrimitiveType || kind() == TokKind::kLparen ||
         (kind() == TokKind::kIdent && tok().text == "b" &&
          lexer_.LookAhead() == TokKind::kLparen);
}


bool ValueParser::ParseShape(ShapeId* out) {
  DepthGuard guard(this);
  if (!guard.ok) return false;
  if (shape_cache_ == nullptr ||
      (kind() != TokKind::kPrimitiveType && kind() != TokKind::kLparen)) {
    return ParseShapeImpl(out);
  }
  // Dumps repeat the same shape texts endlessly. A shape is looked up by
  // its exact text (ShapeTextEnd); on a miss it is parsed and remembered
  // if the parse ended exactly where the text does.
  const char* begin = lexer_.buffer() + lexer_.offset();
  const size_t limit = inside_shape_ ? kNestedShapeTextLimit : kShapeTextLimit;
  const char* p = ShapeTextEnd(begin, std::min(begin + limit, file_.data() + file_.size()));
  if (p == nullptr) return ParseShapeImpl(out);
  const std::string_view text(begin, static_cast<size_t>(p - begin));
  const uint32_t cached = shape_cache_->Find(text);
  const uint32_t end = static_cast<uint32_t>(p - lexer_.buffer());
  if (cached != CopyingNameTable::kNotFound) {
    lexer_.Reset(end);
    Lex();
    *out = cached;
    return true;
  }
  if (!ParseShapeImpl(out)) return false;
  if (lexer_.previous_end() == end && !HoldsMarker(text)) {
    shape_cache_->Insert(text, *out);
  }
  return true;
}

bool ValueParser::ParseShapeImpl(ShapeId* out) {
  struct InsideShape {
    bool& flag;
    const bool was = flag;
    explicit InsideShape(bool& f) : flag(f) { flag = true; }
    ~InsideShape() { flag = was; }
  } inside(inside_shape_);
  const size_t level = static_cast<size_t>(depth_);
  while (shape_scratch_.size() <= level) {
    shape_scratch_.push_back(std::make_unique<Shape>());
    id_scratch_.push_back(std::make_unique<std::vector<ShapeId>>());
  }

  const uint32_t start = lexer_.offset();
  if (kind() == TokKind::kIdent && tok().text == "b" && lexer_.LookAhead() == TokKind::kLparen) {
    Lex();
    Lex();
    const uint32_t element_offset = lexer_.offset();
    ShapeId element;
    if (!ParseShape(&element)) return false;
    if (!shape(element).IsArray()) {
      return Error(start, "a buffer shape b(...) must hold an array shape");
    }
    // ShapeUtil::MakeValidatedBufferShape checks only that the element is
    // an array: its layout and size are validated where a tuple holds the
    // buffer (ValidateElementShape), not here (XLA 2026-06-14 and HEAD).
    (void)element_offset;
    Shape& buffer = *shape_scratch_[level];
    buffer.Clear();
    buffer.element_type = PrimitiveType::kBuffer;
    buffer.tuple_shapes.push_back(&shape(element));
    *out = shapes_->Intern(buffer);
    return ParseToken(TokKind::kRparen, "expects ')' at the end of buffer shape.");
  }

  if (EatIfPresent(TokKind::kLparen)) {
    std::vector<ShapeId>& elements = *id_scratch_[level];
    elements.clear();
    if (kind() != TokKind::kRparen) {
      do {
        const uint32_t element_offset = lexer_.offset();
        ShapeId element;
        if (!ParseShape(&element)) return false;
        // XLA builds tuples with MakeValidatedTupleShape, which validates
        // each element (top-level array shapes are not validated).
        if (!ValidateElementShape(shape(element), element_offset)) return false;
        elements.push_back(element);
      } while (EatIfPresent(TokKind::kComma));
    }
    Shape& tuple = *shape_scratch_[level];
    tuple.Clear();
    tuple.element_type = PrimitiveType::kTuple;
    for (ShapeId element : elements) tuple.tuple_shapes.push_back(&shape(element));
    *out = shapes_->Intern(tuple);
    return ParseToken(TokKind::kRparen, "expects ')' at the end of tuple.");
  }

  if (kind() != TokKind::kPrimitiveType) {
    return TokenError(StrCat("expected primitive type, saw ", TokKindName(kind())));
  }
  Shape& array = *shape_scratch_[level];
  array.Clear();
  array.element_type = tok().primitive_type;
  Lex();
  const uint32_t dims_offset = lexer_.offset();
  if (!ParseDimensionSizes(&array)) return false;
  if (!IsArrayType(array.element_type) && !array.dimensions.empty()) {
    // XLA CHECK-fails adding dimensions to a token or opaque shape.
    return Error(dims_offset, StrCat(PrimitiveTypeName(array.element_type),
                                     " shapes cannot have dimensions; write ",
                                     PrimitiveTypeName(array.element_type), "[]"));
  }

  // A '{' after the dimensions starts a layout only if an integer or ':'
  // follows; otherwise it opens a computation body.
  if (kind() == TokKind::kLbrace) {
    TokKind next = lexer_.LookAhead();
    if (next == TokKind::kInt || next == TokKind::kColon) {
      const uint32_t layout_offset = lexer_.offset();
      if (!ParseLayout(&array.layout)) return false;
      if (array.layout.minor_to_major.size() != array.dimensions.size()) {
        return Error(layout_offset,
                     StrCat("Dimensions size is ", array.dimensions.size(),
                                  ", but minor to major size is ",
                                  array.layout.minor_to_major.size(), "."));
      }
      if (array.layout.physical_shape != nullptr) {
        return Error(layout_offset,
                     StrCat("Layout has physical shape, but is not for a sparse array: ",
                                  array.layout.ToString()));
      }
      array.has_layout = true;
    }
  }
  *out = shapes_->Intern(array);
  return true;
}

bool ValueParser::ParseDimensionSizes(Shape* shape) {
  if (!ParseToken(TokKind::kLsquare, "expects a list starting with '['")) return false;
  if (kind() != TokKind::kRsquare) {
    do {
      if (shape->dimensions.size() >= limits_.max_rank) {
        return TokenError(StrCat("shape has more than ", limits_.max_rank,
                                 " dimensions (hlolint's limit)"));
      }
      int64_t size = 0;
      bool dynamic = false;
      if (kind() == TokKind::kQuestionMark) {
        size = kUnboundedSize;
        dynamic = true;
        Lex();
      } else {
        if (EatIfPresent(TokKind::kLeq)) dynamic = true;
        const uint32_t size_offset = lexer_.offset();
        const bool written_negative = kind() == TokKind::kInt && lexer_.TokenText()[0] == '-';
        if (!ParseInt64(&size)) return false;
        if (size < 0) {
          // Integers above INT64_MAX lex as their uint64 bit pattern.
          return Error(size_offset,
                       written_negative
                           ? StrCat("invalid dimension size ", size,
                                    ": sizes must be non-negative")
                           : StrCat("dimension size ", static_cast<uint64_t>(size),
                                    " is out of range (at most 9223372036854775807)"));
        }
      }
      shape->dimensions.push_back(size);
      if (dynamic) {
        shape->dynamic_dimensions.resize(shape->dimensions.size(), 0);
        shape->dynamic_dimensions.back() = 1;
      }
    } while (EatIfPresent(TokKind::kComma));
  }
  if (!shape->dynamic_dimensions.empty()) {
    shape->dynamic_dimensions.resize(shape->dimensions.size(), 0);
  }
  // No element-count check: XLA's ParseShape checks each dimension
  // (Shape::IsValidDimensionSize) but not their product, so
  // f32[9223372036854775807,2] parses (2026-06-14 and HEAD); only a tuple
  // element's byte size is checked (ValidateElementShape). Consumers use
  // ElementCount, which is nullopt on overflow.
  return ParseToken(TokKind::kRsquare, "expects a list to end with ']'");
}

bool ValueParser::ValidateElementShape(const Shape& element, uint32_t offset) {
  // ValidateShapeWithOptionalLayout looks through a buffer to its array.
  if (element.IsBuffer() && element.tuple_shapes.size() == 1) {
    return ValidateElementShape(*element.tuple_shapes[0], offset);
  }
  if (!element.IsArray()) return true;
  std::string problem = LayoutValidationError(element);
  if (!problem.empty()) {
    return Error(offset, StrCat("invalid layout of tuple element ", ShapeToString(element), ": ",
                                problem));
  }
  // ShapeUtil::ValidateShapeSize: the array's byte size must fit in int64.
  int64_t bytes = std::max(1, PrimitiveTypeBits(element.element_type) / 8);
  for (int64_t dim : element.dimensions) {
    if (dim == 0) return true;
  }
  for (int64_t dim : element.dimensions) {
    if (dim == kUnboundedSize) continue;
    if (bytes > INT64_MAX / dim) {
      return Error(offset, StrCat("Shape ", ShapeToString(element, false),
                                  " size may overflow int64_t."));
    }
    bytes *= dim;
  }
  return true;
}

void ValueParser::RecordAndGoOn() {
  if (!recorded_error_) {
    recorded_error_ = error_ ? *error_ : ParseError{lexer_.offset(), "syntax error"};
  }
  error_.reset();
}

bool ValueParser::ParseLayoutIntAttribute(int64_t* out, std::string_view what) {
  return ParseToken(TokKind::kLparen, StrCat("expects ", what, " to start with '('")) &&
         ParseInt64(out) &&
         ParseToken(TokKind::kRparen, StrCat("expects ", what, " to end with ')'"));
}

bool ValueParser::ParseTiles(Layout* layout) {
  do {
    layout->tiles.emplace_back();
    std::vector<int64_t>& tile = layout->tiles.back();
    if (!ParseToken(TokKind::kLparen, "expects a list starting with '('")) return false;
    if (kind() != TokKind::kRparen) {
      do {
        if (kind() == TokKind::kInt) {
          tile.push_back(tok().int_value);
          Lex();
        } else if (kind() == TokKind::kAsterisk) {
          tile.push_back(kCombineDimension);
          Lex();
        } else {
          return TokenError("expects integer or '*' in a tile");
        }
      } while (EatIfPresent(TokKind::kComma));
    }
    if (!ParseToken(TokKind::kRparen, "expects a list to end with ')'")) return false;
  } while (kind() == TokKind::kLparen);
  return true;
}

bool ValueParser::ParseLayout(Layout* layout) {
  layout->Clear();
  if (!ParseToken(TokKind::kLbrace, "expects layout to start with '{'")) return false;
  if (kind() != TokKind::kRbrace) {
    if (kind() == TokKind::kInt) {
      do {
        int64_t dim;
        if (!ParseInt64(&dim)) return false;
        layout->minor_to_major.push_back(dim);
      } while (EatIfPresent(TokKind::kComma));
    }
    if (EatIfPresent(TokKind::kColon)) {
      // XLA's ParseLayout calls each sub-parser below without looking at
      // what it returns (`ParseTiles(&tiles);`, `ParseLayoutIntAttribute(
      // &memory_space, "memory space");`, ...): a failed one leaves its
      // error recorded and what it read so far, and the layout goes on at
      // the token where it stopped (`{0:T(128 }` parses, with tile (128)).
      auto is_ident = [this](std::string_view text) {
        return kind() == TokKind::kIdent && tok().text == text;
      };
      auto go_on = [this](bool ok) {
        if (!ok) RecordAndGoOn();
      };
      if (is_ident("D")) {
        Lex();
        go_on([&] {
          if (!ParseToken(TokKind::kLparen, "expects a list starting with '('")) return false;
          if (kind() != TokKind::kRparen) {
            do {
              DimLevelType type;
              if (is_ident("D")) {
                type = DimLevelType::kDense;
              } else if (is_ident("C")) {
                type = DimLevelType::kCompressed;
              } else if (is_ident("S")) {
                type = DimLevelType::kSingleton;
              } else if (is_ident("H")) {
                type = DimLevelType::kLooseCompressed;
              } else {
                return TokenError("expected a DimLevelType abbreviation (D, C, or S)");
              }
              Lex();
              EatIfPresent(TokKind::kPlus);
              EatIfPresent(TokKind::kTilde);
              layout->dim_level_types.push_back(type);
            } while (EatIfPresent(TokKind::kComma));
          }
          return ParseToken(TokKind::kRparen, "expects a list to end with ')'");
        }());
      }
      if (is_ident("T")) {
        Lex();
        go_on(ParseTiles(layout));
      }
      if (is_ident("L")) {
        Lex();
        go_on(ParseLayoutIntAttribute(&layout->tail_padding_alignment,
                                      "multiple padded to in elements"));
      }
      // '#' / '*': XLA makes three calls, each whatever the one before did:
      // ParseToken('('), ParseUnsignedIntegerType (which keeps a signed
      // type it has read before complaining) and ParseToken(')').
      auto parse_unsigned_type = [&](PrimitiveType* out, std::string_view what) {
        go_on(ParseToken(TokKind::kLparen, StrCat("expects ", what, " to be followed by '('")));
        if (kind() != TokKind::kPrimitiveType) {
          go_on(TokenError(StrCat("expected primitive type, saw ", TokKindName(kind()))));
        } else {
          *out = tok().primitive_type;
          Lex();
          if (!IsUnsignedInteger(*out)) go_on(TokenError("expecting an unsigned integer type"));
        }
        go_on(ParseToken(TokKind::kRparen, StrCat("expects ", what, " type to be followed by ')'")));
      };
      if (EatIfPresent(TokKind::kOctothorp)) parse_unsigned_type(&layout->index_type, "'#'");
      if (EatIfPresent(TokKind::kAsterisk)) parse_unsigned_type(&layout->pointer_type, "'*'");
      if (is_ident("E")) {
        Lex();
        go_on(ParseLayoutIntAttribute(&layout->element_size_bits, "element size in bits"));
      }
      if (is_ident("S")) {
        Lex();
        go_on(ParseLayoutIntAttribute(&layout->memory_space, "memory space"));
      }
      if (is_ident("SC")) {
        Lex();
        go_on([&] {
          do {
            if (!ParseToken(TokKind::kLparen, "expects split configs to start with '('")) {
              return false;
            }
            SplitConfig config;
            if (!ParseInt64(&config.dimension)) return false;
            // XLA adds the config before reading its indices.
            layout->split_configs.push_back(std::move(config));
            if (!ParseInt64List(TokKind::kColon, TokKind::kRparen, TokKind::kComma,
                                &layout->split_configs.back().split_indices)) {
              return false;
            }
          } while (kind() == TokKind::kLparen);
          return true;
        }());
      }
      if (is_ident("P")) {
        Lex();
        go_on([&] {
          if (!ParseToken(TokKind::kLparen, "expects physical shape to start with '('")) {
            return false;
          }
          // XLA ignores whether the shape parsed, too.
          ShapeId physical;
          if (ParseShape(&physical)) {
            layout->physical_shape = &shape(physical);
          } else {
            RecordAndGoOn();
          }
          return ParseToken(TokKind::kRparen, "expects physical shape to end with ')'");
        }());
      }
      if (is_ident("M")) {
        Lex();
        go_on(ParseLayoutIntAttribute(&layout->dynamic_shape_metadata_prefix_bytes,
                                      "dynamic shape metadata prefix bytes"));
      }
    }
  }
  return ParseToken(TokKind::kRbrace, "expects layout to end with '}'");
}

bool ValueParser::ParseShapeList(std::vector<ShapeId>* out) {
  out->clear();
  if (!ParseToken(TokKind::kLbrace, "expects a list starting with '{'")) return false;
  if (kind() != TokKind::kRbrace) {
    do {
      ShapeId id;
      if (!ParseShape(&id)) return false;
      out->push_back(id);
    } while (EatIfPresent(TokKind::kComma));
  }
  return ParseToken(TokKind::kRbrace, "expects a list to end with '}'");
}

// ---------------------------------------------------------------------------
// Windows, convolution dimension labels, slices, padding

bool ValueParser::ParseDxD(std::string_view name, std::vector<int64_t>* out) {
  const uint32_t offset = lexer_.offset();
  if (!out->empty()) {
    // Point at the repeated `name=` just before the value.
    return Error(lexer_.previous_end() - static_cast<uint32_t>(name.size()) - 1,
                 StrCat("sub-attribute '", name, "=' already exists"));
  }
  if (kind() == TokKind::kInt) {
    out->push_back(tok().int_value);
    Lex();
    return true;
  }
  if (kind() == TokKind::kDxD) {
    if (!SplitToInt64s(tok().text, 'x', out)) {
      return Error(offset, StrCat("expects sub-attribute '", name, "=ixj...'"));
    }
    Lex();
    return true;
  }
  return TokenError("expects token type kInt or kDxD");
}

bool ValueParser::ParseWindow(Window* window) {
  window->clear();
  const uint32_t offset = lexer_.offset();
  if (!ParseToken(TokKind::kLbrace, "expected '{' to start window attribute")) return false;
  std::vector<int64_t> size, stride, lhs_dilate, rhs_dilate, rhs_reversal;
  std::vector<std::vector<int64_t>> pad;
  // Where each sub-attribute was written, to point at a mismatching one.
  uint32_t stride_at = offset, lhs_dilate_at = offset, rhs_dilate_at = offset;
  uint32_t rhs_reversal_at = offset, pad_at = offset;
  while (kind() != TokKind::kRbrace) {
    const uint32_t attr_offset = lexer_.offset();
    std::string_view field;
    if (kind() != TokKind::kAttributeName) {
      if (kind() == TokKind::kEof || kind() == TokKind::kError) {
        return TokenError("expected '}' to end window attribute");
      }
      return Error(attr_offset, "expects sub-attributes in window");
    }
    ParseAttributeName(&field);
    bool ok;
    if (field == "size") {
      ok = ParseDxD("size", &size);
    } else if (field == "stride") {
      stride_at = attr_offset;
      ok = ParseDxD("stride", &stride);
    } else if (field == "lhs_dilate") {
      lhs_dilate_at = attr_offset;
      ok = ParseDxD("lhs_dilate", &lhs_dilate);
    } else if (field == "rhs_dilate") {
      rhs_dilate_at = attr_offset;
      ok = ParseDxD("rhs_dilate", &rhs_dilate);
    } else if (field == "rhs_reversal") {
      rhs_reversal_at = attr_offset;
      ok = ParseDxD("rhs_reversal", &rhs_reversal);
    } else if (field == "pad") {
      pad_at = attr_offset;
      const uint32_t pad_offset = lexer_.offset();
      if (!pad.empty()) return Error(attr_offset, "sub-attribute 'pad=' already exists");
      if (kind() != TokKind::kPad) return TokenError("expects window pad pattern, e.g., '0_0x3_3'");
      const bool pad_ok = ForEachPiece(tok().text, 'x', [&pad](std::string_view dim) {
        std::vector<int64_t> low_high;
        if (!SplitToInt64s(dim, '_', &low_high) || low_high.size() != 2) return false;
        pad.push_back(std::move(low_high));
        return true;
      });
      if (!pad_ok) {
        return Error(pad_offset, "expects padding_low and padding_high separated by '_'");
      }
      Lex();
      ok = true;
    } else {
      return Error(attr_offset, StrCat("unexpected attribute name: ", field));
    }
    if (!ok) return false;
  }
  auto check = [&](const auto& v, std::string_view name, uint32_t at) {
    if (!v.empty() && v.size() != size.size()) {
      return Error(at, StrCat("expects '", name, "=' has the same size as 'size=' (", v.size(),
                              " vs ", size.size(), ")"));
    }
    return true;
  };
  // rhs_reversal's size is checked from openxla/xla@7205f71e15de (2026-07-27,
  // "Return parse errors instead of OOB on malformed sharding/window/conv
  // attributes"); before, XLA ignored extra entries and read past the end of
  // a short list (undefined; taken here as "not reversed").
  const bool reversal_checked =
      !any_xla_syntax_ && limits_.xla.Has(XlaChange::kMalformedAttributeErrors);
  if (!check(stride, "stride", stride_at) || !check(lhs_dilate, "lhs_dilate", lhs_dilate_at) ||
      !check(rhs_dilate, "rhs_dilate", rhs_dilate_at) || !check(pad, "pad", pad_at) ||
      (reversal_checked && !check(rhs_reversal, "rhs_reversal", rhs_reversal_at))) {
    return false;
  }
  for (size_t i = 0; i < size.size(); ++i) {
    WindowDimension dim;
    dim.size = size[i];
    if (!pad.empty()) {
      dim.padding_low = pad[i][0];
      dim.padding_high = pad[i][1];
    }
    if (!stride.empty()) dim.stride = stride[i];
    if (!lhs_dilate.empty()) dim.base_dilation = lhs_dilate[i];
    if (!rhs_dilate.empty()) dim.window_dilation = rhs_dilate[i];
    if (i < rhs_reversal.size()) dim.window_reversal = rhs_reversal[i] == 1;
    window->push_back(dim);
  }
  return ParseToken(TokKind::kRbrace, "expected '}' to end window attribute");
}

bool ValueParser::ParseConvolutionDimensionNumbers(ConvolutionDimensionNumbers* dnums) {
  if (kind() != TokKind::kDimLabels) {
    return TokenError("expects dim labels pattern, e.g., 'bf0_0io->0bf'");
  }
  std::string_view text = tok().text;
  size_t underscore = text.find('_');
  size_t arrow = text.find("->");
  std::string_view lhs = text.substr(0, underscore);
  std::string_view rhs = text.substr(underscore + 1, arrow - underscore - 1);
  std::string_view out = text.substr(arrow + 2);

  auto is_unique = [](std::string_view s) {
    bool seen[256] = {};
    for (char c : s) {
      if (c == '?') continue;
      if (seen[static_cast<unsigned char>(c)]) return false;
      seen[static_cast<unsigned char>(c)] = true;
    }
    return true;
  };
  // Fills one side; `a` and `b` are the two named dimensions of that side.
  // Spatial digits must be below the side's count of spatial dimensions
  // (XLA's check since openxla/xla@7205f71e15de, 2026-07-27; before, XLA
  // bounded them by the label's length and wrote such a digit past the end
  // of the spatial dimensions, which hlolint does not mirror for any version).
  auto parse_side = [&](std::string_view side, std::string_view which, char a, char b,
                        int64_t* a_dim, int64_t* b_dim, std::vector<int64_t>* spatial) {
    if (!is_unique(side)) {
      return TokenError(StrCat("expects unique ", which, " dimension numbers, but sees ", side));
    }
    spatial->clear();
    for (char c : side) {
      if (c != a && c != b && c != '?') spatial->push_back(-1);
    }
    const size_t spatial_count = spatial->size();
    for (size_t i = 0; i < side.size(); ++i) {
      char c = side[i];
      if (c == '?') continue;
      if (c == a) {
        *a_dim = static_cast<int64_t>(i);
      } else if (c == b) {
        *b_dim = static_cast<int64_t>(i);
      } else if (c >= '0' && static_cast<size_t>(c - '0') < spatial_count) {
        (*spatial)[static_cast<size_t>(c - '0')] = static_cast<int64_t>(i);
      } else {
        return TokenError(StrCat("expects [0-", static_cast<int64_t>(spatial_count) - 1, a, b,
                                 "?] in ", which, " dimension numbers"));
      }
    }
    return true;
  };
  if (!parse_side(lhs, "lhs", 'b', 'f', &dnums->input_batch, &dnums->input_feature,
                  &dnums->input_spatial) ||
      !parse_side(rhs, "rhs", 'i', 'o', &dnums->kernel_input_feature,
                  &dnums->kernel_output_feature, &dnums->kernel_spatial) ||
      !parse_side(out, "output", 'b', 'f', &dnums->output_batch, &dnums->output_feature,
                  &dnums->output_spatial)) {
    return false;
  }
  if (dnums->input_spatial.size() != dnums->output_spatial.size() ||
      dnums->input_spatial.size() != dnums->kernel_spatial.size()) {
    return TokenError(StrCat(
        "input, kernel, and output must have same number of spatial dimensions, but got ",
        dnums->input_spatial.size(), ", ", dnums->kernel_spatial.size(), ", ",
        dnums->output_spatial.size(), ", respectively."));
  }
  Lex();
  return true;
}

bool ValueParser::ParseSliceRanges(SliceRanges* out) {
  out->Clear();
  if (!ParseToken(TokKind::kLbrace, "expects '{' to start ranges")) return false;
  if (kind() == TokKind::kRbrace) return ParseToken(TokKind::kRbrace, "expects '}' to end ranges");
  std::vector<int64_t>& range = ints_scratch_;
  do {
    const uint32_t offset = lexer_.offset();
    if (!ParseInt64List(TokKind::kLsquare, TokKind::kRsquare, TokKind::kColon, &range)) {
      return false;
    }
    if (range.size() != 2 && range.size() != 3) {
      return Error(offset, StrCat("expects [start:limit:step] or [start:limit], but sees ",
                                        range.size(), " elements."));
    }
    out->starts.push_back(range[0]);
    out->limits.push_back(range[1]);
    out->strides.push_back(range.size() == 3 ? range[2] : 1);
  } while (EatIfPresent(TokKind::kComma));
  return ParseToken(TokKind::kRbrace, "expects '}' to end ranges");
}

bool ValueParser::ParsePaddingConfig(PaddingConfig* out) {
  out->clear();
  if (kind() != TokKind::kPad) return TokenError("expects padding config, e.g., '0_0_0x3_3_1'");
  const uint32_t offset = lexer_.offset();
  std::vector<int64_t>& values = ints_scratch_;
  const bool ok = ForEachPiece(tok().text, 'x', [&values, out](std::string_view dim) {
    values.clear();
    if (!SplitToInt64s(dim, '_', &values) || (values.size() != 2 && values.size() != 3)) {
      return false;
    }
    out->push_back({values[0], values[1], values.size() == 3 ? values[2] : 0});
    return true;
  });
  if (!ok) {
    return Error(offset, "expects padding config pattern like 'low_high_interior' or 'low_high'");
  }
  Lex();
  return true;
}

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

// ---------------------------------------------------------------------------
// Frontend attributes, statistics, replication, metadata

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

// ---------------------------------------------------------------------------
// Aliasing and layouts of the module header

bool ValueParser::ParseOutputOperandAliasing(std::vector<OutputOperandAlias>* out) {
  out->clear();
  if (!ParseToken(TokKind::kLbrace, "Expects '{' at the start of instruction aliasing description")) {
    return false;
  }
  constexpr std::string_view kFormat =
      "Expected format: <output_shape_index>: (<operand_index>, <operand_shape_index>)";
  while (kind() != TokKind::kRbrace) {
    OutputOperandAlias alias;
    alias.offset = lexer_.offset();
    if (!ParseShapeIndex(&alias.output_index) || !ParseToken(TokKind::kColon, kFormat) ||
        !ParseToken(TokKind::kLparen, kFormat) || !ParseInt64(&alias.operand) ||
        !ParseToken(TokKind::kComma, kFormat) || !ParseShapeIndex(&alias.operand_index) ||
        !ParseToken(TokKind::kRparen, kFormat)) {
      return false;
    }
    out->push_back(std::move(alias));
    if (!EatIfPresent(TokKind::kComma)) break;
  }
  return ParseToken(TokKind::kRbrace, "Expects '}' at the end of instruction aliasing description");
}

// `{ {0}: (0, {}, may-alias), {1}: (1, {1,0}), ... }`: an entry per
// aliased output, as many as a model has parameters. Decimal numbers of up
// to 9 digits, without leading zeros, the separators XLA prints; anything
// else is left to the token-level reading (which reports what is wrong),
// so both accept the same text.
bool ValueParser::TakePlainInputOutputAlias(std::vector<InputOutputAlias>* out) {
  const char* const base = file_.data();
  const char* p = base + lexer_.offset();
  auto index = [&](const char* q, ShapeIndex* into) -> const char* {
    if (*q++ != '{') return nullptr;
    if (*q == '}') return q + 1;
    while (true) {
      int64_t v;
      q = ScanSmallDecimal(q, &v);
      if (q == nullptr) return nullptr;
      into->push_back(v);
      if (*q == '}') return q + 1;
      if (*q++ != ',') return nullptr;
    }
  };
  if (p[0] != '{' || p[1] != ' ') return false;
  p += 2;
  while (true) {
    InputOutputAlias& alias = out->emplace_back();
    alias.offset = static_cast<uint32_t>(p - base);
    p = index(p, &alias.output_index);
    if (p == nullptr || std::memcmp(p, ": (", 3) != 0) break;
    p = ScanSmallDecimal(p + 3, &alias.parameter);
    if (p == nullptr || p[0] != ',' || p[1] != ' ') break;
    p = index(p + 2, &alias.parameter_index);
    if (p == nullptr) break;
    if (std::memcmp(p, ", may-alias)", 12) == 0) {
      p += 12;
    } else if (std::memcmp(p, ", must-alias)", 13) == 0) {
      alias.must_alias = true;
      p += 13;
    } else if (*p == ')') {
      ++p;
    } else {
      break;
    }
    if (p[0] == ',' && p[1] == ' ') {
      p += 2;
    } else if (p[0] == ' ' && p[1] == '}') {
      lexer_.Reset(static_cast<uint32_t>(p + 2 - base));
      Lex();
      return true;
    } else {
      break;
    }
  }
  out->clear();
  return false;
}

bool ValueParser::ParseInputOutputAlias(std::vector<InputOutputAlias>* out) {
  out->clear();
  if (limits_.fast_paths && TakePlainInputOutputAlias(out)) return true;
  if (!ParseToken(TokKind::kLbrace, "Expects '{' at the start of aliasing description")) {
    return false;
  }
  constexpr std::string_view kFormat =
      "Expected format: <output_shape_index>: (<input_param>, <input_param_shape_index>) OR "
      "<output_shape_index>: <input_param>";
  while (kind() != TokKind::kRbrace) {
    InputOutputAlias alias;
    alias.offset = lexer_.offset();
    if (!ParseShapeIndex(&alias.output_index) || !ParseToken(TokKind::kColon, kFormat) ||
        !ParseToken(TokKind::kLparen, kFormat) || !ParseInt64(&alias.parameter) ||
        !ParseToken(TokKind::kComma, kFormat) || !ParseShapeIndex(&alias.parameter_index)) {
      return false;
    }
    if (EatIfPresent(TokKind::kComma)) {
      const uint32_t kind_offset = lexer_.offset();
      std::string_view kind_name;
      if (!ParseName(&kind_name)) return false;
      if (kind_name == "must-alias") {
        alias.must_alias = true;
      } else if (kind_name != "may-alias") {
        return Error(kind_offset, StrCat("Unexpected aliasing kind ", kind_name,
                                         "; expected SYSTEM or USER (must-alias or may-alias)"));
      }
    }
    if (!ParseToken(TokKind::kRparen, kFormat)) return false;
    out->push_back(std::move(alias));
    if (!EatIfPresent(TokKind::kComma)) break;
  }
  return ParseToken(TokKind::kRbrace, "Expects '}' at the end of aliasing description");
}

bool ValueParser::ParseBufferDonors(std::vector<BufferDonor>* out) {
  out->clear();
  if (!ParseToken(TokKind::kLbrace, "Expects '{' at the start of buffer donor description")) {
    return false;
  }
  constexpr std::string_view kFormat = "Expected format: (<input_param>, <input_param_shape_index>)";
  while (kind() != TokKind::kRbrace) {
    BufferDonor donor;
    donor.offset = lexer_.offset();
    if (!ParseToken(TokKind::kLparen, kFormat) || !ParseInt64(&donor.parameter) ||
        !ParseToken(TokKind::kComma, kFormat) || !ParseShapeIndex(&donor.parameter_index) ||
        !ParseToken(TokKind::kRparen, kFormat)) {
      return false;
    }
    out->push_back(std::move(donor));
    if (!EatIfPresent(TokKind::kComma)) break;
  }
  return ParseToken(TokKind::kRbrace, "Expects '}' at the end of buffer donor description");
}

bool ValueParser::ParseComputationLayout(std::vector<ShapeId>* params, ShapeId* result) {
  params->clear();
  if (!ParseToken(TokKind::kLbrace, "Expects '{' at the start of aliasing description") ||
      !ParseToken(TokKind::kLparen, "Expects ( before parameter shape list")) {
    return false;
  }
  while (kind() != TokKind::kRparen) {
    ShapeId param;
    if (!ParseShape(&param)) return false;
    params->push_back(param);
    if (kind() == TokKind::kRparen) break;
    if (!ParseToken(TokKind::kComma, "Expects , between parameter shapes")) return false;
  }
  return ParseToken(TokKind::kRparen, "Expects ) at end of parameter shape list") &&
         ParseToken(TokKind::kArrow, "Expects -> before result shape") && ParseShape(result) &&
         ParseToken(TokKind::kRbrace, "Expects '}' at the end of computation layouts");
}

// ---------------------------------------------------------------------------
// Original values, result accuracy, domain

bool ValueParser::ParseOriginalArray() {
  if (!ParseToken(TokKind::kLbrace, "Expects '{'")) return false;
  if (kind() == TokKind::kString) {
    Lex();
    if (kind() == TokKind::kLbrace) {
      ShapeIndex index;
      if (!ParseShapeIndex(&index)) return false;
    }
  }
  return ParseToken(TokKind::kRbrace, "Expects '} at end of OriginalArray'");
}

bool ValueParser::ParseOriginalValue() {
  if (!ParseToken(TokKind::kLbrace, "Expects '{' to start original value")) return false;
  if (EatIfPresent(TokKind::kLsquare)) {
    if (kind() != TokKind::kIdent || tok().text != "synthetic_call") {
      return TokenError("Expects 'synthetic_call' after '[' for a synthetic_call value.");
    }
    Lex();
    return ParseToken(TokKind::kRsquare, "Expects ']' to end '[synthetic_call]'") &&
           ParseToken(TokKind::kRbrace, "Expects '}' to end original value");
  }
  int64_t depth = 0;
  bool leaf_index_valid = false;  // a ',' needs an enclosing '('
  while (kind() != TokKind::kRbrace) {
    switch (kind()) {
      case TokKind::kLparen:
        if (++depth > limits_.max_nesting_depth) {
          return TokenError("nesting too deep in original value");
        }
        leaf_index_valid = true;
        Lex();
        break;
      case TokKind::kRparen:
        if (depth == 0) return TokenError("unbalanced ')' in original value");
        --depth;
        Lex();
        break;
      case TokKind::kComma:
        if (depth == 0 || !leaf_index_valid) return TokenError("',' outside a tuple in original value");
        Lex();
        break;
      case TokKind::kLbrace:
        if (!ParseOriginalArray()) return false;
        break;
      default:
        return TokenError(
            "Expects '[synthetic]' or a tuple tree of original arrays in original_value field.");
    }
  }
  Lex();
  return true;
}

bool ValueParser::ParseOriginalValueRecoveryTable() {
  if (!ParseToken(TokKind::kLbrace, "Expects '{'")) return false;
  constexpr std::string_view kFormat =
      "Expected format: <original_array>: <original_array>, <HloModule>";
  while (kind() != TokKind::kRbrace) {
    if (!ParseOriginalArray() || !ParseToken(TokKind::kColon, kFormat) || !ParseOriginalArray()) {
      return false;
    }
    if (kind() == TokKind::kComma) {
      Lex();
      if (kind() != TokKind::kString) return TokenError("expects string");
      const uint32_t offset = lexer_.offset();
      std::string text = tok().string_has_escapes ? UnescapeString(tok().text)
                                                  : std::string(tok().text);
      if (!ValidateEmbeddedModule(offset, text)) return false;
      Lex();
    }
  }
  Lex();
  return true;
}

bool ValueParser::ParseResultAccuracy() {
  if (!ParseToken(TokKind::kLbrace, "expected '{' to start result precision list")) return false;
  std::string_view name;
  if (kind() != TokKind::kAttributeName) {
    return TokenError("expects string for result_accuracy spec");
  }
  ParseAttributeName(&name);
  if (name == "mode") {
    if (!ParseEnumIgnoringCase("ResultAccuracy type", {"default", "highest"})) return false;
  } else if (name == "tolerance") {
    if (!ParseToken(TokKind::kLbrace, "expected '{' to start result accuracy list")) return false;
    if (kind() != TokKind::kRbrace) {
      do {
        std::string_view field;
        if (kind() != TokKind::kAttributeName) {
          return TokenError("expects string for result_accuracy tolerance type");
        }
        ParseAttributeName(&field);
        if (field != "ulps" && field != "rtol" && field != "atol") {
          return TokenError(StrCat("invalid attribute name: ", field));
        }
        double value;
        if (!ParseDouble(&value)) return false;
      } while (EatIfPresent(TokKind::kComma));
    }
    if (!ParseToken(TokKind::kRbrace, "expects '}' at the end of result precision")) return false;
  } else {
    return TokenError(StrCat("invalid attribute name: ", name));
  }
  return ParseToken(TokKind::kRbrace, "expected '}' to end result_accuracy");
}

bool ValueParser::ParseSparsityConfig() {
  // '{' (('lhs=' | 'rhs=') '{' ('sparsity=' NxM | 'dimension=' INT |
  // 'stride=' INT)* '}')* '}', whitespace separated.
  if (!ParseToken(TokKind::kLbrace, "expected '{' to start SparsityConfig")) return false;
  while (kind() != TokKind::kRbrace) {
    const uint32_t side_offset = lexer_.offset();
    std::string_view side;
    if (!ParseAttributeName(&side)) return false;
    if (side != "lhs" && side != "rhs") {
      return Error(side_offset, StrCat("unknown attribute ", side, " in sparsity_config"));
    }
    if (!ParseToken(TokKind::kLbrace, "expected '{' to start TensorSparsityConfig")) return false;
    while (kind() != TokKind::kRbrace) {
      const uint32_t field_offset = lexer_.offset();
      std::string_view field;
      if (!ParseAttributeName(&field)) return false;
      if (field == "sparsity") {
        std::vector<int64_t>& values = ints_scratch_;
        values.clear();
        const uint32_t value_offset = lexer_.offset();
        if (!ParseDxD("sparsity", &values)) return false;
        if (values.size() != 2) return Error(value_offset, "expects 'num_non_zero:block_size'");
      } else if (field == "dimension" || field == "stride") {
        int64_t value;
        if (!ParseInt64(&value)) return false;
      } else {
        return Error(field_offset, StrCat("unknown attribute ", field, " in sparsity_config"));
      }
    }
    Lex();  // '}'
  }
  return ParseToken(TokKind::kRbrace, "expects '}' at the end of SparsityConfig");
}

bool ValueParser::ParseDomain() {
  const uint32_t offset = lexer_.offset();
  if (!ParseToken(TokKind::kLbrace, "expects '{' to start sub attributes")) return false;
  bool kind_seen = false, entry_seen = false, exit_seen = false;
  std::string_view kind_value;
  uint32_t kind_offset = 0;
  if (kind() != TokKind::kRbrace) {
    do {
      EatIfPresent(TokKind::kComma);
      const uint32_t attr_offset = lexer_.offset();
      std::string_view name;
      if (kind() != TokKind::kAttributeName) return Error(attr_offset, "error parsing attributes");
      ParseAttributeName(&name);
      bool* seen = name == "kind" ? &kind_seen : name == "entry" ? &entry_seen
                 : name == "exit" ? &exit_seen : nullptr;
      if (seen == nullptr) {
        return Error(attr_offset, StrCat("unexpected attribute \"", name,
                                               "\". Allowed attributes: entry, exit, kind"));
      }
      if (*seen) return Error(attr_offset, StrCat("attribute ", name, " already exists"));
      *seen = true;
      if (name == "kind") {
        kind_offset = lexer_.offset();
        if (!ParseString(&kind_value)) return false;
      } else if (!ParseSharding()) {
        return Error(attr_offset, StrCat("error parsing attribute ", name));
      }
    } while (kind() != TokKind::kRbrace);
  }
  for (auto [seen, name] : {std::pair{kind_seen, "kind"}, {entry_seen, "entry"},
                            {exit_seen, "exit"}}) {
    if (!seen) return Error(offset, StrCat("sub-attribute ", name, " is expected but not seen"));
  }
  if (!ParseToken(TokKind::kRbrace, "expects '}' to end sub attributes")) return false;
  if (kind_value != "sharding") {
    return Error(kind_offset, StrCat("unsupported domain kind: ", kind_value));
  }
  return true;
}

}  // namespace hlolint
