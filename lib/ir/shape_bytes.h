// The bytes XLA's buffer assignment gives a value of a given shape
// (xla/shape_util.cc: ByteSizeOf, ByteSizeOfElements, ArraySize), so that a
// memory estimate from a dump adds up the way XLA's does.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/shape.h"

namespace hlolint {

// Bytes XLA allocates for one array (ShapeUtil::ByteSizeOfElements with the layout: tiling padding, element_size_bits, sub-byte packing); nullopt for non-arrays or on overflow.
std::optional<uint64_t> ArrayByteSize(const Shape& shape);
// Bytes of a whole value: its leaf arrays plus, for tuples, XLA's index table of 8 bytes per element at each tuple level (ShapeUtil::ByteSizeOf with pointer size 8).
std::optional<uint64_t> ShapeByteSize(const Shape& shape);

// The pointer size XLA's backends pass to ShapeUtil::ByteSizeOf: the size
// of one tuple index table entry and of an opaque value.
inline constexpr uint64_t kTupleEntryBytes = 8;

}  // namespace hlolint
