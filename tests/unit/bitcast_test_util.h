// Shape builders for the bitcast analysis tests.
#pragma once

#include <optional>
#include <vector>

#include "analysis/bitcast.h"
#include "ir/shape.h"

namespace hlolint::testing {

// dims with a written layout, or no written layout when `m2m` is nullopt.
inline Shape ArrayShape(std::vector<int64_t> dims,
                        std::optional<std::vector<int64_t>> m2m = std::nullopt,
                        PrimitiveType type = PrimitiveType::kF32) {
  Shape s;
  s.element_type = type;
  s.dimensions = std::move(dims);
  if (m2m) {
    s.has_layout = true;
    s.layout.minor_to_major = std::move(*m2m);
  }
  return s;
}

// Brute force: does every element keep its physical offset? (Zero-element
// shapes trivially do.)
inline bool EveryElementKeepsItsOffset(const Shape& a, const Shape& b) {
  const int64_t n = *ElementCount(a);
  if (n != *ElementCount(b)) return false;
  for (int64_t k = 0; k < n; ++k) {
    if (PhysicalOffset(a, LogicalIndex(a.dimensions, k)) !=
        PhysicalOffset(b, LogicalIndex(b.dimensions, k))) {
      return false;
    }
  }
  return true;
}

}  // namespace hlolint::testing
