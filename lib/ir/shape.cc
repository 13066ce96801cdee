#include "ir/shape.h"

#include <functional>

#include "absl/hash/hash.h"
#include "util/strings.h"

namespace hlolint {

std::string ShapeIndexToString(const ShapeIndex& index) {
  return StrCat("{", StrJoin(index, ","), "}");
}

std::string ShapeIndexSuffix(const ShapeIndex& index) {
  return index.empty() ? std::string() : StrCat(" at ", ShapeIndexToString(index));
}

void Layout::Clear() {
  minor_to_major.clear();
  dim_level_types.clear();
  tiles.clear();
  tail_padding_alignment = 1;
  index_type = PrimitiveType::kInvalid;
  pointer_type = PrimitiveType::kInvalid;
  element_size_bits = 0;
  memory_space = 0;
  split_configs.clear();
  physical_shape = nullptr;
  dynamic_shape_metadata_prefix_bytes = 0;
}

void Shape::Clear() {
  id = kNoShape;
  element_type = PrimitiveType::kInvalid;
  dimensions.clear();
  dynamic_dimensions.clear();
  has_layout = false;
  layout.Clear();
  tuple_shapes.clear();
}

bool Shape::IsDynamic() const {
  if (IsTuple() || IsBuffer()) {
    for (const Shape* element : tuple_shapes) {
      if (element->IsDynamic()) return true;
    }
    return false;
  }
  for (uint8_t flag : dynamic_dimensions) {
    if (flag) return true;
  }
  return false;
}

std::string Layout::ToString() const {
  std::string out = StrCat("{", StrJoin(minor_to_major, ","));
  bool colon = false;
  auto add_colon = [&] {
    if (!colon) out += ":";
    colon = true;
  };
  if (!dim_level_types.empty()) {
    add_colon();
    out += "D(";
    for (size_t i = 0; i < dim_level_types.size(); ++i) {
      if (i) out += ",";
      out += "DCSH"[static_cast<int>(dim_level_types[i])];
    }
    out += ")";
  }
  if (!tiles.empty()) {
    add_colon();
    out += "T";
    for (const auto& tile : tiles) {
      out += "(";
      for (size_t i = 0; i < tile.size(); ++i) {
        if (i) out += ",";
        if (tile[i] == kCombineDimension) {
          out += "*";
        } else {
          out += StrCat(tile[i]);
        }
      }
      out += ")";
    }
  }
  if (tail_padding_alignment != 1) {
    add_colon();
    out += StrCat("L(", tail_padding_alignment, ")");
  }
  if (index_type != PrimitiveType::kInvalid) {
    add_colon();
    out += StrCat("#(", PrimitiveTypeName(index_type), ")");
  }
  if (pointer_type != PrimitiveType::kInvalid) {
    add_colon();
    out += StrCat("*(", PrimitiveTypeName(pointer_type), ")");
  }
  if (element_size_bits != 0) {
    add_colon();
    out += StrCat("E(", element_size_bits, ")");
  }
  if (memory_space != 0) {
    add_colon();
    out += StrCat("S(", memory_space, ")");
  }
  if (!split_configs.empty()) {
    add_colon();
    out += "SC";
    for (const auto& config : split_configs) {
      out += StrCat("(", config.dimension, ":", StrJoin(config.split_indices, ","),
                      ")");
    }
  }
  if (physical_shape != nullptr) {
    add_colon();
    out += StrCat("P(", ShapeToString(*physical_shape), ")");
  }
  if (dynamic_shape_metadata_prefix_bytes != 0) {
    add_colon();
    out += StrCat("M(", dynamic_shape_metadata_prefix_bytes, ")");
  }
  out += "}";
  return out;
}

std::optional<int64_t> ElementCount(const Shape& shape) {
  int64_t count = 1;
  for (int64_t dim : shape.dimensions) {
    if (dim < 0) return std::nullopt;
    if (dim != 0 && count > INT64_MAX / dim) return std::nullopt;
    count *= dim;
  }
  return count;
}

int64_t LeafCount(const Shape& shape) {
  if (!shape.IsTuple()) return 1;
  int64_t count = 0;
  for (const Shape* element : shape.tuple_shapes) count += LeafCount(*element);
  return count;
}

const Shape* Subshape(const Shape& shape, std::span<const int64_t> index) {
  const Shape* current = &shape;
  for (int64_t i : index) {
    if (!current->IsTuple() || i < 0 || i >= static_cast<int64_t>(current->tuple_shapes.size())) {
      return nullptr;
    }
    current = current->tuple_shapes[static_cast<size_t>(i)];
  }
  return current;
}

namespace {

bool SameFpClass(PrimitiveType a, PrimitiveType b) {
  if (IsFloatingPoint(a) && IsFloatingPoint(b)) return true;
  if (IsComplex(a) && IsComplex(b)) return true;
  return a == b;
}

}  // namespace

bool LayoutsEqual(const Layout& a, const Layout& b, const ShapeEqualOptions& options) {
  if (a.minor_to_major != b.minor_to_major) return false;
  if (a.dim_level_types != b.dim_level_types) return false;
  if (!options.ignore_tiles && a.tiles != b.tiles) return false;
  if (!options.ignore_tail_padding && a.tail_padding_alignment != b.tail_padding_alignment) {
    return false;
  }
  if (a.index_type != b.index_type || a.pointer_type != b.pointer_type) return false;
  if (!options.ignore_element_size && a.element_size_bits != b.element_size_bits) return false;
  if (!options.ignore_memory_space && a.memory_space != b.memory_space) return false;
  if (a.split_configs != b.split_configs) return false;
  if ((a.physical_shape == nullptr) != (b.physical_shape == nullptr)) return false;
  if (a.physical_shape != nullptr && !ShapesEqual(*a.physical_shape, *b.physical_shape)) {
    return false;
  }
  return a.dynamic_shape_metadata_prefix_bytes == b.dynamic_shape_metadata_prefix_bytes;
}

bool ShapesEqual(const Shape& a, const Shape& b, const ShapeEqualOptions& options) {
  // Interned shapes: the same object is equal under every option (the
  // verifier compares operands with results millions of times).
  if (&a == &b) return true;
  if (a.IsTuple() || b.IsTuple() || a.IsBuffer() || b.IsBuffer()) {
    if (a.element_type != b.element_type) return false;
    if (a.tuple_shapes.size() != b.tuple_shapes.size()) return false;
    for (size_t i = 0; i < a.tuple_shapes.size(); ++i) {
      if (!ShapesEqual(*a.tuple_shapes[i], *b.tuple_shapes[i], options)) return false;
    }
    return true;
  }
  if (options.ignore_element_type) {
    // Arrays vs tokens still differ.
    if (a.IsArray() != b.IsArray()) return false;
  } else if (options.ignore_fp_precision) {
    if (!SameFpClass(a.element_type, b.element_type)) return false;
  } else if (a.element_type != b.element_type) {
    return false;
  }
  if (!a.IsArray()) return true;
  if (a.dimensions != b.dimensions) return false;
  if (!options.ignore_dynamic_dimension) {
    for (int i = 0; i < a.rank(); ++i) {
      if (a.is_dynamic_dimension(i) != b.is_dynamic_dimension(i)) return false;
    }
  }
  if (options.ignore_layout) return true;
  // XLA's parser fills unwritten layouts with the default one.
  if (a.has_layout && b.has_layout) return LayoutsEqual(a.layout, b.layout, options);
  if (!a.has_layout && !b.has_layout) return true;
  const Shape& written = a.has_layout ? a : b;
  Layout default_layout;
  for (int i = written.rank() - 1; i >= 0; --i) default_layout.minor_to_major.push_back(i);
  return LayoutsEqual(written.layout, default_layout, options);
}

bool IsDefaultLayoutOrUnset(const Shape& shape) {
  if (!shape.has_layout) return true;
  const auto& m2m = shape.layout.minor_to_major;
  for (size_t i = 0; i < m2m.size(); ++i) {
    if (m2m[i] != static_cast<int64_t>(m2m.size() - 1 - i)) return false;
  }
  return true;
}

bool Compatible(const Shape& a, const Shape& b) {
  ShapeEqualOptions options;
  options.ignore_layout = true;
  options.ignore_dynamic_dimension = true;
  return ShapesEqual(a, b, options);
}

bool CompatibleIgnoringElementType(const Shape& a, const Shape& b) {
  ShapeEqualOptions options;
  options.ignore_layout = true;
  options.ignore_dynamic_dimension = true;
  options.ignore_element_type = true;
  return ShapesEqual(a, b, options);
}

bool CompatibleIgnoringFpPrecision(const Shape& a, const Shape& b) {
  ShapeEqualOptions options;
  options.ignore_layout = true;
  options.ignore_dynamic_dimension = true;
  options.ignore_fp_precision = true;
  return ShapesEqual(a, b, options);
}

std::string ShapeToString(const Shape& shape, bool with_layout) {
  if (shape.IsTuple()) {
    std::string out = "(";
    for (size_t i = 0; i < shape.tuple_shapes.size(); ++i) {
      if (i) out += ", ";
      out += ShapeToString(*shape.tuple_shapes[i], with_layout);
    }
    return out + ")";
  }
  if (shape.IsBuffer()) {
    return StrCat("b(", ShapeToString(*shape.tuple_shapes[0], with_layout), ")");
  }
  std::string out(PrimitiveTypeName(shape.element_type));
  out += "[";
  for (int i = 0; i < shape.rank(); ++i) {
    if (i) out += ",";
    int64_t dim = shape.dimensions[i];
    if (dim == kUnboundedSize) {
      out += "?";
      continue;
    }
    if (shape.is_dynamic_dimension(i)) out += "<=";
    out += StrCat(dim);
  }
  out += "]";
  if (with_layout && shape.has_layout && shape.IsArray() && shape.rank() > 0) {
    out += shape.layout.ToString();
  } else if (with_layout && shape.has_layout && shape.IsArray() &&
             shape.layout.ToString() != "{}") {
    out += shape.layout.ToString();
  }
  return out;
}

std::string ShapeToStringWithDefaultLayout(const Shape& shape) {
  if (shape.IsTuple()) {
    std::string out = "(";
    for (size_t i = 0; i < shape.tuple_shapes.size(); ++i) {
      if (i) out += ", ";
      out += ShapeToStringWithDefaultLayout(*shape.tuple_shapes[i]);
    }
    return out + ")";
  }
  if (shape.IsBuffer()) {
    return StrCat("b(", ShapeToStringWithDefaultLayout(*shape.tuple_shapes[0]), ")");
  }
  std::string out = ShapeToString(shape, true);
  if (shape.IsArray() && !shape.has_layout && shape.rank() > 0) {
    out += "{";
    for (int i = shape.rank() - 1; i >= 0; --i) {
      out += StrCat(i);
      if (i) out += ",";
    }
    out += "}";
  }
  return out;
}

std::string LayoutValidationError(const Shape& shape) {
  if (!shape.IsArray() || !shape.has_layout) return "";
  const Layout& layout = shape.layout;
  const int64_t rank = shape.rank();
  if (static_cast<int64_t>(layout.minor_to_major.size()) != rank) {
    return StrCat("layout minor_to_major field contains ", layout.minor_to_major.size(),
                  " elements, but shape is rank ", rank);
  }
  // Distinctness: a bit mask for the usual ranks, a vector beyond 64.
  uint64_t seen_small = 0;
  std::vector<bool> seen_large;
  if (rank > 64) seen_large.assign(static_cast<size_t>(rank), false);
  for (int64_t dim : layout.minor_to_major) {
    if (dim < 0 || dim >= rank) {
      return StrCat("layout minor_to_major field has out-of-bounds value ", dim, " for rank ",
                    rank);
    }
    bool duplicate;
    if (rank <= 64) {
      duplicate = (seen_small >> dim) & 1;
      seen_small |= uint64_t{1} << dim;
    } else {
      duplicate = seen_large[static_cast<size_t>(dim)];
      seen_large[static_cast<size_t>(dim)] = true;
    }
    if (duplicate) {
      return StrCat("layout minor_to_major field has duplicate value ", dim);
    }
  }
  if (!layout.dim_level_types.empty() &&
      static_cast<int64_t>(layout.dim_level_types.size()) != rank) {
    return StrCat("layout dim_level_types field contains ", layout.dim_level_types.size(),
                  " elements, but shape is rank ", rank);
  }
  if (layout.tail_padding_alignment <= 0) {
    return "layout tail_padding_alignment_in_elements L(...) must be positive";
  }
  bool sparse = false;
  for (DimLevelType type : layout.dim_level_types) sparse |= type != DimLevelType::kDense;
  if (!sparse && layout.index_type != PrimitiveType::kInvalid) {
    return "layout has an index primitive type #(...) but is not sparse";
  }
  if (!sparse && layout.pointer_type != PrimitiveType::kInvalid) {
    return "layout has a pointer primitive type *(...) but is not sparse";
  }
  if (!sparse && layout.physical_shape != nullptr) {
    return "layout has a physical shape P(...) but is not sparse";
  }
  for (const auto& tile : layout.tiles) {
    if (tile.empty()) return "layout has an empty tile T()";
    for (int64_t d : tile) {
      if (d == 0) return "layout has a tile with a 0 dimension";
    }
  }
  if (layout.element_size_bits < 0) return "layout element size E(...) must not be negative";
  return "";
}

ShapeTable::ShapeTable() : index_(16, Hash{this}, Eq{this}) {}

size_t ShapeTable::Hash::operator()(ShapeId id) const { return (*this)(table->Get(id)); }

size_t ShapeTable::Hash::operator()(const Shape& s) const {
  size_t h = absl::HashOf(static_cast<int>(s.element_type), s.has_layout);
  h = absl::HashOf(h, s.dimensions, s.dynamic_dimensions);
  if (s.has_layout) {
    const Layout& l = s.layout;
    h = absl::HashOf(h, l.minor_to_major, l.tiles, l.element_size_bits, l.memory_space,
                     l.tail_padding_alignment, l.split_configs.size(),
                     static_cast<const void*>(l.physical_shape));
  }
  for (const Shape* element : s.tuple_shapes) h = absl::HashOf(h, element->id);
  return h;
}

bool ShapeTable::Eq::operator()(ShapeId a, const Shape& b) const {
  const Shape& s = table->Get(a);
  if (s.element_type != b.element_type || s.has_layout != b.has_layout ||
      s.dimensions != b.dimensions || s.dynamic_dimensions != b.dynamic_dimensions ||
      s.tuple_shapes != b.tuple_shapes) {
    return false;
  }
  return !s.has_layout || s.layout == b.layout;
}

ShapeId ShapeTable::Intern(const Shape& shape) {
  auto it = index_.find(shape);
  if (it != index_.end()) return *it;
  ShapeId id = static_cast<ShapeId>(shapes_.size());
  shapes_.push_back(shape);
  shapes_.back().id = id;
  by_id_.push_back(&shapes_.back());
  index_.insert(id);
  return id;
}

ShapeId ShapeTable::MakeArray(PrimitiveType type, std::span<const int64_t> dims) {
  Shape shape;
  shape.element_type = type;
  shape.dimensions.assign(dims.begin(), dims.end());
  return Intern(shape);
}

ShapeId ShapeTable::MakeTuple(std::span<const ShapeId> elements) {
  Shape shape;
  shape.element_type = PrimitiveType::kTuple;
  for (ShapeId element : elements) shape.tuple_shapes.push_back(&Get(element));
  return Intern(shape);
}

}  // namespace hlolint
