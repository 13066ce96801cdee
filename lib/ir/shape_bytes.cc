#include "ir/shape_bytes.h"

#include <algorithm>

namespace hlolint {
namespace {

bool MultiplyChecked(uint64_t a, uint64_t b, uint64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}

bool AddChecked(uint64_t a, uint64_t b, uint64_t* out) {
  return !__builtin_add_overflow(a, b, out);
}

// The largest piece of dimension `dim` after the layout's split configs
// (LayoutUtil::MaxSplitSize): a split array pads each piece to the tiles.
int64_t LargestSplitPiece(const Shape& shape, int64_t dim) {
  const int64_t size = shape.dimensions[dim];
  if (!shape.has_layout) return size;
  int64_t largest = 0;
  int64_t previous = 0;
  for (const SplitConfig& config : shape.layout.split_configs) {
    if (config.dimension != dim) continue;
    for (int64_t index : config.split_indices) {
      largest = std::max(largest, index - previous);
      previous = index;
    }
  }
  return std::max(largest, size - previous);
}

// Elements stored for the array, counting the padding of its outermost
// tile (ShapeUtil::ArraySize: the sub-tiles are assumed to add none) and
// the tail padding; nullopt on overflow or an unbounded dimension.
std::optional<uint64_t> StoredElementCount(const Shape& shape) {
  for (int64_t dim : shape.dimensions) {
    if (dim < 0) return std::nullopt;
  }
  const Layout& layout = shape.layout;
  const bool tiled = shape.has_layout && !layout.tiles.empty() &&
                     layout.minor_to_major.size() == shape.dimensions.size();
  uint64_t count = 1;
  if (!tiled) {
    for (int64_t dim : shape.dimensions) {
      if (!MultiplyChecked(count, static_cast<uint64_t>(dim), &count)) return std::nullopt;
    }
  } else {
    const std::vector<int64_t>& tile = layout.tiles.front();
    const size_t rank = shape.dimensions.size();
    // Tile dimensions pair with the array's dimensions from the minor end;
    // a tile of higher rank than the array tiles implicit size-1 dimensions.
    for (size_t i = 0; i < std::max(rank, tile.size()); ++i) {
      const int64_t dim = i < rank ? layout.minor_to_major[i] : -1;
      if (dim >= static_cast<int64_t>(rank)) return std::nullopt;
      uint64_t size = dim >= 0 ? static_cast<uint64_t>(LargestSplitPiece(shape, dim)) : 1;
      if (i < tile.size()) {
        const int64_t tile_size = tile[tile.size() - 1 - i];
        // '*' (combine) tile dimensions pad nothing by themselves.
        if (tile_size > 0) {
          const uint64_t t = static_cast<uint64_t>(tile_size);
          if (!MultiplyChecked((size + t - 1) / t, t, &size)) return std::nullopt;
        }
      }
      if (!MultiplyChecked(count, size, &count)) return std::nullopt;
    }
  }
  if (shape.has_layout && layout.tail_padding_alignment > 1) {
    const uint64_t alignment = static_cast<uint64_t>(layout.tail_padding_alignment);
    if (!MultiplyChecked((count + alignment - 1) / alignment, alignment, &count)) {
      return std::nullopt;
    }
  }
  return count;
}

}  // namespace

std::optional<uint64_t> ArrayByteSize(const Shape& shape) {
  if (!shape.IsArray()) return std::nullopt;
  std::optional<uint64_t> elements = StoredElementCount(shape);
  if (!elements) return std::nullopt;
  uint64_t bytes = 0;
  if (shape.has_layout && shape.layout.element_size_bits > 0) {
    uint64_t bits = 0;
    if (!MultiplyChecked(*elements, static_cast<uint64_t>(shape.layout.element_size_bits), &bits)) {
      return std::nullopt;
    }
    return bits / 8 + (bits % 8 != 0 ? 1 : 0);
  }
  // Without an element size in the layout every element takes whole bytes
  // (primitive_util::ByteWidth): pred and the sub-byte types take one.
  const uint64_t element_bytes =
      static_cast<uint64_t>((PrimitiveTypeBits(shape.element_type) + 7) / 8);
  if (!MultiplyChecked(*elements, element_bytes, &bytes)) return std::nullopt;
  return bytes;
}

std::optional<uint64_t> ShapeByteSize(const Shape& shape) {
  if (shape.IsArray()) return ArrayByteSize(shape);
  if (shape.IsToken()) return 0;
  if (shape.IsOpaque()) return kTupleEntryBytes;
  if (shape.IsBuffer()) {
    if (shape.tuple_shapes.empty()) return std::nullopt;
    return ShapeByteSize(*shape.tuple_shapes.front());
  }
  if (!shape.IsTuple()) return std::nullopt;
  uint64_t total = 0;
  if (!MultiplyChecked(shape.tuple_shapes.size(), kTupleEntryBytes, &total)) return std::nullopt;
  for (const Shape* element : shape.tuple_shapes) {
    std::optional<uint64_t> bytes = ShapeByteSize(*element);
    if (!bytes || !AddChecked(total, *bytes, &total)) return std::nullopt;
  }
  return total;
}

}  // namespace hlolint
