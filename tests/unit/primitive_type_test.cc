// Element type names: the lookup's early rejections must not lose a name.
#include <catch2/catch.hpp>

#include "ir/primitive_type.h"

using namespace hlolint;

TEST_CASE("every element type name is found again", "[primitive_type]") {
  for (int t = 1; t <= static_cast<int>(PrimitiveType::kOpaque); ++t) {
    const PrimitiveType type = static_cast<PrimitiveType>(t);
    INFO(PrimitiveTypeName(type));
    CHECK(PrimitiveTypeFromName(PrimitiveTypeName(type)) == type);
  }
}

TEST_CASE("names that are not element types", "[primitive_type]") {
  for (const char* name : {"tuple", "buffer", "<invalid>", "", "p", "param", "pre", "predx",
                           "bf", "bf17", "broadcast", "tok", "tanh", "opaq", "op", "s", "sum",
                           "s3", "u128", "f8", "fusion", "c32", "copy", "constant", "f32.1"}) {
    INFO(name);
    CHECK(PrimitiveTypeFromName(name) == PrimitiveType::kInvalid);
  }
}
