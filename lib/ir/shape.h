// Shapes and layouts of HLO values (xla/shape.h, xla/layout.h), interned per
// module: equal shapes share one ShapeId, so an instruction stores 4 bytes.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "ir/primitive_type.h"

namespace hlolint {

using ShapeId = uint32_t;
inline constexpr ShapeId kNoShape = 0xffffffffu;

// Index of a subshape inside a (nested) tuple shape.
using ShapeIndex = absl::InlinedVector<int64_t, 2>;
std::string ShapeIndexToString(const ShapeIndex& index);
// " at {0,1}" for a non-empty index, "" for the whole value: for messages.
std::string ShapeIndexSuffix(const ShapeIndex& index);

// A tile dimension written as '*' (Tile::kCombineDimension in XLA).
inline constexpr int64_t kCombineDimension = INT64_MIN;
// A dimension written as '?' (Shape::kUnboundedSize in XLA).
inline constexpr int64_t kUnboundedSize = INT64_MIN;

enum class DimLevelType : uint8_t { kDense, kCompressed, kSingleton, kLooseCompressed };

struct SplitConfig {
  int64_t dimension = 0;
  std::vector<int64_t> split_indices;
  bool operator==(const SplitConfig&) const = default;
};

struct Shape;

struct Layout {
  std::vector<int64_t> minor_to_major;
  std::vector<DimLevelType> dim_level_types;
  std::vector<std::vector<int64_t>> tiles;
  int64_t tail_padding_alignment = 1;
  PrimitiveType index_type = PrimitiveType::kInvalid;
  PrimitiveType pointer_type = PrimitiveType::kInvalid;
  int64_t element_size_bits = 0;
  int64_t memory_space = 0;
  std::vector<SplitConfig> split_configs;
  const Shape* physical_shape = nullptr;
  int64_t dynamic_shape_metadata_prefix_bytes = 0;

  void Clear();
  bool operator==(const Layout&) const = default;
  std::string ToString() const;  // "{1,0:T(8,128)}"
};

struct Shape {
  ShapeId id = kNoShape;
  // kTuple for tuples, kBuffer for b(...) buffer shapes.
  PrimitiveType element_type = PrimitiveType::kInvalid;
  std::vector<int64_t> dimensions;
  // One flag per dimension; empty when no dimension is dynamic.
  std::vector<uint8_t> dynamic_dimensions;
  bool has_layout = false;
  Layout layout;
  // Tuple elements, or the single buffer element of b(...).
  std::vector<const Shape*> tuple_shapes;

  bool IsTuple() const { return element_type == PrimitiveType::kTuple; }
  bool IsBuffer() const { return element_type == PrimitiveType::kBuffer; }
  bool IsToken() const { return element_type == PrimitiveType::kToken; }
  bool IsOpaque() const { return element_type == PrimitiveType::kOpaque; }
  bool IsArray() const { return IsArrayType(element_type); }
  int rank() const { return static_cast<int>(dimensions.size()); }
  bool IsScalar() const { return IsArray() && dimensions.empty(); }
  bool is_dynamic_dimension(int dim) const {
    return !dynamic_dimensions.empty() && dynamic_dimensions[dim] != 0;
  }
  bool IsDynamic() const;
  void Clear();
};

// Number of elements of an array shape; nullopt if it overflows int64.
std::optional<int64_t> ElementCount(const Shape& shape);
// Leaf arrays (and tokens/opaques) in a possibly nested tuple.
int64_t LeafCount(const Shape& shape);
// Subshape at `index`, or nullptr when the index is invalid.
const Shape* Subshape(const Shape& shape, std::span<const int64_t> index);
// All leaf (non-tuple) subshapes with their indices, in order; `fn` is
// called as fn(const ShapeIndex&, const Shape&). A template, not a
// std::function: the analyses call it for every fusion output.
template <typename Fn>
void ForEachLeaf(const Shape& shape, Fn&& fn);

// XLA's ShapeUtil::Compatible: equal ignoring layouts and dynamic flags.
bool Compatible(const Shape& a, const Shape& b);
bool CompatibleIgnoringElementType(const Shape& a, const Shape& b);
bool CompatibleIgnoringFpPrecision(const Shape& a, const Shape& b);
// XLA's Shape::Equal (layout-sensitive) with knobs used by the verifier.
struct ShapeEqualOptions {
  bool ignore_layout = false;
  bool ignore_tiles = false;
  bool ignore_memory_space = false;
  bool ignore_element_size = false;
  bool ignore_tail_padding = false;
  bool ignore_dynamic_dimension = false;
  bool ignore_element_type = false;
  bool ignore_fp_precision = false;
};
bool ShapesEqual(const Shape& a, const Shape& b, const ShapeEqualOptions& options = {});
bool LayoutsEqual(const Layout& a, const Layout& b, const ShapeEqualOptions& options = {});
// True when the minor_to_major order is descending (or no layout is written).
bool IsDefaultLayoutOrUnset(const Shape& shape);

// "f32[2,3]{1,0}" / "(f32[2]{0}, s32[])"; layouts only when `with_layout`.
std::string ShapeToString(const Shape& shape, bool with_layout = true);
// As XLA's ShapeUtil::HumanStringWithLayout after parsing: array shapes
// without a written layout print the default one, as XLA fills it in.
std::string ShapeToStringWithDefaultLayout(const Shape& shape);

// Why the layout written on an array shape is invalid (XLA's
// LayoutUtil::ValidateLayoutForShape), or "" when it is valid or absent.
// XLA checks this for tuple elements, constants and default entry layouts.
std::string LayoutValidationError(const Shape& shape);

// Interns shapes of one module. References stay valid for the table's life.
class ShapeTable {
 public:
  ShapeTable();
  ShapeTable(const ShapeTable&) = delete;
  ShapeTable& operator=(const ShapeTable&) = delete;

  // Returns the id of a shape equal to `shape`, adding a copy if new.
  ShapeId Intern(const Shape& shape);
  // Through a pointer per id: indexing the deque costs several times more,
  // and the parser and rules ask for shapes several times per instruction.
  const Shape& Get(ShapeId id) const { return *by_id_[id]; }
  size_t size() const { return shapes_.size(); }

  // Convenience builders (used by shape inference and tests).
  ShapeId MakeArray(PrimitiveType type, std::span<const int64_t> dims);
  ShapeId MakeTuple(std::span<const ShapeId> elements);

 private:
  struct Hash {
    using is_transparent = void;
    const ShapeTable* table;
    size_t operator()(ShapeId id) const;
    size_t operator()(const Shape& shape) const;
  };
  struct Eq {
    using is_transparent = void;
    const ShapeTable* table;
    bool operator()(ShapeId a, ShapeId b) const { return a == b; }
    bool operator()(ShapeId a, const Shape& b) const;
    bool operator()(const Shape& a, ShapeId b) const { return (*this)(b, a); }
  };

  std::deque<Shape> shapes_;  // never moves a shape: by_id_ and tuple elements point in
  std::vector<const Shape*> by_id_;
  absl::flat_hash_set<ShapeId, Hash, Eq> index_;
};

namespace shape_internal {
template <typename Fn>
void ForEachLeafImpl(const Shape& shape, ShapeIndex& index, Fn& fn) {
  if (!shape.IsTuple()) {
    fn(static_cast<const ShapeIndex&>(index), shape);
    return;
  }
  for (size_t i = 0; i < shape.tuple_shapes.size(); ++i) {
    index.push_back(static_cast<int64_t>(i));
    ForEachLeafImpl(*shape.tuple_shapes[i], index, fn);
    index.pop_back();
  }
}
}  // namespace shape_internal

template <typename Fn>
void ForEachLeaf(const Shape& shape, Fn&& fn) {
  ShapeIndex index;
  shape_internal::ForEachLeafImpl(shape, index, fn);
}

}  // namespace hlolint
