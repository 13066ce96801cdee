// Helpers shared by the shape inference sources (not a public interface).
#pragma once

#include <algorithm>
#include <span>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "analysis/shape_inference.h"
#include "util/strings.h"

namespace hlolint::inference_internal {

inline bool Fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

inline std::string TypeName(PrimitiveType type) { return std::string(PrimitiveTypeName(type)); }

inline std::string Join(std::span<const int64_t> values) { return StrJoin(values, ","); }

// Clears `out` and makes it an array of `type` without dimensions.
inline void ResetArray(Shape* out, PrimitiveType type) {
  out->element_type = type;
  out->dimensions.clear();
  out->dynamic_dimensions.clear();
  out->tuple_shapes.clear();
  out->has_layout = false;
  out->layout.minor_to_major.clear();
}

// Copies element type, dimensions and dynamic flags (or the tuple elements).
inline void CopyShape(const Shape& from, Shape* out) {
  out->element_type = from.element_type;
  out->dimensions.assign(from.dimensions.begin(), from.dimensions.end());
  out->dynamic_dimensions.assign(from.dynamic_dimensions.begin(), from.dynamic_dimensions.end());
  out->tuple_shapes.assign(from.tuple_shapes.begin(), from.tuple_shapes.end());
  out->has_layout = false;
  out->layout.minor_to_major.clear();
}

inline void PushDim(Shape* out, int64_t size, bool dynamic) {
  if (dynamic && out->dynamic_dimensions.size() < out->dimensions.size()) {
    out->dynamic_dimensions.resize(out->dimensions.size(), 0);
  }
  out->dimensions.push_back(size);
  if (!out->dynamic_dimensions.empty()) out->dynamic_dimensions.push_back(dynamic ? 1 : 0);
}

inline void SetDynamic(Shape* out, size_t dim, bool dynamic) {
  if (!dynamic && out->dynamic_dimensions.empty()) return;
  out->dynamic_dimensions.resize(out->dimensions.size(), 0);
  out->dynamic_dimensions[dim] = dynamic ? 1 : 0;
}

inline bool ExpectArray(const Shape& shape, std::string_view what, std::string* error) {
  if (shape.IsArray()) return true;
  return Fail(error, StrCat("Expected array argument for ", what, ", but got ",
                            HumanString(shape), "."));
}

inline bool Contains(std::span<const int64_t> values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

inline bool SortedUnique(std::span<const int64_t> values) {
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i - 1] >= values[i]) return false;
  }
  return true;
}

// True when no value repeats (small lists: quadratic is fine).
inline bool AllUnique(std::span<const int64_t> values) {
  // Pairwise for the usual handful; hashed for hostile lists (quadratic
  // time on 100,000 dimension numbers would be a hang).
  if (values.size() > 32) {
    absl::flat_hash_set<int64_t> seen;
    seen.reserve(values.size());
    for (int64_t value : values) {
      if (!seen.insert(value).second) return false;
    }
    return true;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t j = i + 1; j < values.size(); ++j) {
      if (values[i] == values[j]) return false;
    }
  }
  return true;
}

inline bool SameDimensions(const Shape& a, const Shape& b) { return a.dimensions == b.dimensions; }

// primitive_util::HigherPrecisionType, far enough for the checks here:
// complex over real, floating over integral, wider over narrower, signed
// over unsigned.
PrimitiveType HigherPrecisionType(PrimitiveType a, PrimitiveType b);

}  // namespace hlolint::inference_internal
