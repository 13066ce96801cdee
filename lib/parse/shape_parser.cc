// Shapes and layouts (ValueParser: XLA's ParseShape, ParseLayout and their helpers).
#include <algorithm>
#include <cstring>

#include "lex/byte_scan.h"
#include "parse/value_parser.h"
#include "util/strings.h"

namespace hlolint {

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
    if (EatIfPresent(TokKind::kColon)) ParseLayoutAttributes(layout);
  }
  return ParseToken(TokKind::kRbrace, "expects layout to end with '}'");
}

// XLA's ParseLayout calls each sub-parser below without looking at what it
// returns (`ParseTiles(&tiles);`, `ParseLayoutIntAttribute(&memory_space,
// "memory space");`, ...): a failed one leaves its error recorded and what
// it read so far, and the layout goes on at the token where it stopped
// (`{0:T(128 }` parses, with tile (128)).
void ValueParser::ParseLayoutAttributes(Layout* layout) {
  auto go_on = [this](bool ok) {
    if (!ok) RecordAndGoOn();
  };
  if (AtIdentifier("D")) {
    Lex();
    go_on(ParseDimLevelTypes(layout));
  }
  if (AtIdentifier("T")) {
    Lex();
    go_on(ParseTiles(layout));
  }
  if (AtIdentifier("L")) {
    Lex();
    go_on(ParseLayoutIntAttribute(&layout->tail_padding_alignment,
                                  "multiple padded to in elements"));
  }
  if (EatIfPresent(TokKind::kOctothorp)) ParseUnsignedLayoutType(&layout->index_type, "'#'");
  if (EatIfPresent(TokKind::kAsterisk)) ParseUnsignedLayoutType(&layout->pointer_type, "'*'");
  if (AtIdentifier("E")) {
    Lex();
    go_on(ParseLayoutIntAttribute(&layout->element_size_bits, "element size in bits"));
  }
  if (AtIdentifier("S")) {
    Lex();
    go_on(ParseLayoutIntAttribute(&layout->memory_space, "memory space"));
  }
  if (AtIdentifier("SC")) {
    Lex();
    go_on(ParseSplitConfigs(layout));
  }
  if (AtIdentifier("P")) {
    Lex();
    go_on(ParsePhysicalShape(layout));
  }
  if (AtIdentifier("M")) {
    Lex();
    go_on(ParseLayoutIntAttribute(&layout->dynamic_shape_metadata_prefix_bytes,
                                  "dynamic shape metadata prefix bytes"));
  }
}

bool ValueParser::ParseDimLevelTypes(Layout* layout) {
  if (!ParseToken(TokKind::kLparen, "expects a list starting with '('")) return false;
  if (kind() != TokKind::kRparen) {
    do {
      DimLevelType type;
      if (AtIdentifier("D")) {
        type = DimLevelType::kDense;
      } else if (AtIdentifier("C")) {
        type = DimLevelType::kCompressed;
      } else if (AtIdentifier("S")) {
        type = DimLevelType::kSingleton;
      } else if (AtIdentifier("H")) {
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
}

// '#' / '*': XLA makes three calls, each whatever the one before did:
// ParseToken('('), ParseUnsignedIntegerType (which keeps a signed type it
// has read before complaining) and ParseToken(')').
void ValueParser::ParseUnsignedLayoutType(PrimitiveType* out, std::string_view what) {
  auto go_on = [this](bool ok) {
    if (!ok) RecordAndGoOn();
  };
  go_on(ParseToken(TokKind::kLparen, StrCat("expects ", what, " to be followed by '('")));
  if (kind() != TokKind::kPrimitiveType) {
    go_on(TokenError(StrCat("expected primitive type, saw ", TokKindName(kind()))));
  } else {
    *out = tok().primitive_type;
    Lex();
    if (!IsUnsignedInteger(*out)) go_on(TokenError("expecting an unsigned integer type"));
  }
  go_on(ParseToken(TokKind::kRparen, StrCat("expects ", what, " type to be followed by ')'")));
}

bool ValueParser::ParseSplitConfigs(Layout* layout) {
  do {
    if (!ParseToken(TokKind::kLparen, "expects split configs to start with '('")) return false;
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
}

bool ValueParser::ParsePhysicalShape(Layout* layout) {
  if (!ParseToken(TokKind::kLparen, "expects physical shape to start with '('")) return false;
  // XLA ignores whether the shape parsed, too.
  ShapeId physical;
  if (ParseShape(&physical)) {
    layout->physical_shape = &shape(physical);
  } else {
    RecordAndGoOn();
  }
  return ParseToken(TokKind::kRparen, "expects physical shape to end with ')'");
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

}  // namespace hlolint
