// ir/shape_bytes.h: the bytes XLA's ShapeUtil gives a shape, counted by hand
// for each layout feature that changes them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "ir/shape_bytes.h"
#include "parse_helpers.h"

namespace hlolint::parse_testing {
namespace {

// A module whose non-entry computation has a parameter of shape `shape`
// (entry parameter layouts are validated, tiled ones would be rejected).
struct ShapeHolder {
  Parsed parsed;
  explicit ShapeHolder(const std::string& shape)
      : parsed(Parse("HloModule m\nc {\n  ROOT p = " + shape +
                     " parameter(0)\n}\nENTRY e {\n  ROOT x = f32[] constant(0)\n}\n")) {}
  const Shape& shape() const { return parsed.m().shape(parsed.Id("p")); }
};

std::optional<uint64_t> ArrayBytes(const std::string& shape) {
  return ArrayByteSize(ShapeHolder(shape).shape());
}
std::optional<uint64_t> ValueBytes(const std::string& shape) {
  return ShapeByteSize(ShapeHolder(shape).shape());
}

TEST_CASE("shape bytes: dense arrays are elements times the element width") {
  CHECK(ArrayBytes("f32[2,3]") == 24u);
  CHECK(ArrayBytes("f32[2,3]{0,1}") == 24u);
  CHECK(ArrayBytes("bf16[7]{0}") == 14u);
  CHECK(ArrayBytes("c128[3]") == 48u);
  CHECK(ArrayBytes("f64[]") == 8u);
  CHECK(ArrayBytes("s32[0,5]") == 0u);
  // A bounded dynamic dimension allocates its bound.
  CHECK(ArrayBytes("f32[2,<=3]") == 24u);
  CHECK(ValueBytes("f32[2,3]{1,0}") == 24u);
}

TEST_CASE("shape bytes: pred and unpacked sub-byte types take a byte per element") {
  CHECK(ArrayBytes("pred[5]") == 5u);
  CHECK(ArrayBytes("s4[7]{0}") == 7u);
  CHECK(ArrayBytes("u4[8]") == 8u);
  CHECK(ArrayBytes("s2[3]") == 3u);
  CHECK(ArrayBytes("f4e2m1fn[9]") == 9u);
  CHECK(ArrayBytes("f8e4m3fn[9]") == 9u);
}

TEST_CASE("shape bytes: an element size in the layout packs the elements, rounding up") {
  CHECK(ArrayBytes("s4[7]{0:E(4)}") == 4u);
  CHECK(ArrayBytes("u4[8]{0:E(4)}") == 4u);
  CHECK(ArrayBytes("u4[2,3]{1,0:E(4)}") == 3u);
  CHECK(ArrayBytes("s2[5]{0:E(2)}") == 2u);
  CHECK(ArrayBytes("pred[9]{0:E(1)}") == 2u);
  // A wider element size than the type's: XLA trusts the layout.
  CHECK(ArrayBytes("s8[3]{0:E(16)}") == 6u);
}

TEST_CASE("shape bytes: the outermost tile pads the minor dimensions") {
  // 2x3 pads to one 8x128 tile.
  CHECK(ArrayBytes("f32[2,3]{1,0:T(8,128)}") == 8u * 128u * 4u);
  // 10x200: 16 rows of 256 columns.
  CHECK(ArrayBytes("f32[10,200]{1,0:T(8,128)}") == 16u * 256u * 4u);
  // Column-major: dimension 0 is minor and pads to 128, dimension 1 to 8.
  CHECK(ArrayBytes("f32[10,200]{0,1:T(8,128)}") == 128u * 200u * 4u);
  // Major dimensions beyond the tile's rank are not padded.
  CHECK(ArrayBytes("f32[3,10,200]{2,1,0:T(8,128)}") == 3u * 16u * 256u * 4u);
  // Sub-tiles are taken to add no padding of their own.
  CHECK(ArrayBytes("bf16[10,200]{1,0:T(8,128)(2,1)}") == 16u * 256u * 2u);
  // A tile of higher rank than the array tiles implicit unit dimensions.
  CHECK(ArrayBytes("f32[3]{0:T(2,128)}") == 2u * 128u * 4u);
  CHECK(ArrayBytes("f32[300]{0:T(256)}") == 512u * 4u);
  // Tiling and packing together: 16x256 four-bit elements.
  CHECK(ArrayBytes("s4[10,200]{1,0:T(8,128)E(4)}") == 16u * 256u / 2u);
}

TEST_CASE("shape bytes: tail padding and split configs") {
  CHECK(ArrayBytes("f32[10]{0:T(4)L(16)}") == 16u * 4u);
  // Splitting 10 rows at 3 pads the largest piece (7 rows) to the tile: 8.
  CHECK(ArrayBytes("f32[10,128]{1,0:T(8,128)SC(0:3)}") == 8u * 128u * 4u);
}

TEST_CASE("shape bytes: tuples add an index table of 8 bytes per element at every level") {
  CHECK(ValueBytes("(f32[2], s32[])") == 8u + 4u + 2u * 8u);
  CHECK(ValueBytes("()") == 0u);
  CHECK(ValueBytes("((f32[2]), token[])") == (8u + 8u) + 0u + 2u * 8u);
  CHECK(ValueBytes("(f32[2,3]{1,0:T(8,128)}, pred[])") == 4096u + 1u + 16u);
  CHECK_FALSE(ArrayBytes("(f32[2], s32[])").has_value());
}

TEST_CASE("shape bytes: tokens take nothing and are not arrays") {
  CHECK(ValueBytes("token[]") == 0u);
  CHECK_FALSE(ArrayBytes("token[]").has_value());
}

TEST_CASE("shape bytes: unbounded dimensions and overflow have no size") {
  CHECK_FALSE(ArrayBytes("f32[?]").has_value());
  CHECK_FALSE(ValueBytes("(f32[?], f32[2])").has_value());
  CHECK_FALSE(ArrayBytes("f64[4611686018427387904,4]").has_value());
  CHECK_FALSE(ArrayBytes("s4[9223372036854775807]{0:E(4)}").has_value());
  CHECK(ArrayBytes("s8[9223372036854775807]") == 9223372036854775807u);
}

}  // namespace
}  // namespace hlolint::parse_testing
