// The original-value check of the verify-shape rule (VerifyOriginalValue).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "ir/shape.h"

namespace hlolint {

// Where an `origin={...}` original value and the instruction's shape
// disagree: the leaf indices only one of them has, sorted.
struct OriginalValueMismatch {
  std::vector<ShapeIndex> shape_only;
  std::vector<ShapeIndex> value_only;
};

// VerifyOriginalValue: the leaf indices of the original value (`{...}`
// leaves, `{}` included, inside `(...)` tuple nodes) must be those of
// `shape` (its non-tuple subshapes). `text` is the value with its outer
// braces. nullopt when they agree, and when the text is not understood
// (`{[synthetic_call]}` included, which XLA does not check either).
std::optional<OriginalValueMismatch> CompareOriginalValue(std::string_view text,
                                                          const Shape& shape);

// "{0,1}, {2}": indices as XLA's message lists them.
std::string ShapeIndicesToString(const std::vector<ShapeIndex>& indices);

}  // namespace hlolint
