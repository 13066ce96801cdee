// Shapes and layouts: the grammar of XLA's ParseShape / ParseLayout and the
// helpers of ir/shape.h.
#include <catch2/catch.hpp>

#include <string>

#include "parse_helpers.h"

namespace hlolint::parse_testing {
namespace {

// A module with a parameter of shape `shape` outside the entry computation
// (XLA validates entry parameter layouts, see parser_module_test.cc); the
// shape text starts at line 3, column 12.
std::string WithShape(const std::string& shape) {
  return "HloModule m\nc {\n  ROOT p = " + shape +
         " parameter(0)\n}\nENTRY e {\n  ROOT x = f32[] constant(0)\n}\n";
}

struct ParsedShape {
  Parsed parsed;
  const Shape& shape() const { return parsed.m().shape(parsed.Id("p")); }
};

ParsedShape ShapeOf(const std::string& shape) { return {Parse(WithShape(shape))}; }

std::string Col(int offset_in_shape) { return "3:" + std::to_string(12 + offset_in_shape); }

TEST_CASE("shape: every primitive type parses and prints back") {
  for (std::string type : {"pred", "s1", "s2", "s4", "s8", "s16", "s32", "s64", "u1", "u2",
                           "u4", "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bf16",
                           "f8e5m2", "f8e4m3", "f8e4m3fn", "f8e4m3b11fnuz", "f8e3m4",
                           "f8e5m2fnuz", "f8e4m3fnuz", "f4e2m1fn", "f8e8m0fnu", "c64",
                           "c128"}) {
    INFO(type);
    ParsedShape s = ShapeOf(type + "[2]");
    CHECK(PrimitiveTypeName(s.shape().element_type) == type);
    CHECK(s.shape().IsArray());
    CHECK(ShapeToString(s.shape()) == type + "[2]");
  }
  ParsedShape token = ShapeOf("token[]");
  CHECK(token.shape().IsToken());
  CHECK_FALSE(token.shape().IsArray());
  CHECK(ShapeOf("opaque[]").shape().IsOpaque());
}

TEST_CASE("shape: static, bounded dynamic and unbounded dimensions") {
  ParsedShape s = ShapeOf("f32[2,<=3,?,0]");
  const Shape& shape = s.shape();
  REQUIRE(shape.rank() == 4);
  CHECK(shape.dimensions[0] == 2);
  CHECK(shape.dimensions[1] == 3);
  CHECK(shape.dimensions[2] == kUnboundedSize);
  CHECK(shape.dimensions[3] == 0);
  CHECK_FALSE(shape.is_dynamic_dimension(0));
  CHECK(shape.is_dynamic_dimension(1));
  CHECK(shape.is_dynamic_dimension(2));
  CHECK_FALSE(shape.is_dynamic_dimension(3));
  CHECK(shape.IsDynamic());
  CHECK(ShapeToString(shape) == "f32[2,<=3,?,0]");
  CHECK_FALSE(ShapeOf("f32[2,3]").shape().IsDynamic());
  CHECK(ShapeOf("f32[]").shape().IsScalar());
  // Whitespace and comments may separate every shape token.
  ParsedShape spaced = ShapeOf("f32 [ 2 , /* rows */ 3 ] { 0 , 1 }");
  CHECK(ShapeToString(spaced.shape()) == "f32[2,3]{0,1}");
}

TEST_CASE("shape: tuples, nested tuples and buffers") {
  ParsedShape s = ShapeOf("((f32[2]{0}, s32[]), () , pred[], /*index=3*/ b(u8[4]))");
  const Shape& t = s.shape();
  REQUIRE(t.IsTuple());
  REQUIRE(t.tuple_shapes.size() == 4);
  CHECK(t.tuple_shapes[0]->IsTuple());
  CHECK(t.tuple_shapes[0]->tuple_shapes.size() == 2);
  CHECK(ShapeToString(*t.tuple_shapes[0]->tuple_shapes[0]) == "f32[2]{0}");
  CHECK(t.tuple_shapes[1]->IsTuple());
  CHECK(t.tuple_shapes[1]->tuple_shapes.empty());
  CHECK(t.tuple_shapes[2]->IsScalar());
  const Shape& buffer = *t.tuple_shapes[3];
  CHECK(buffer.IsBuffer());
  REQUIRE(buffer.tuple_shapes.size() == 1);
  CHECK(ShapeToString(*buffer.tuple_shapes[0]) == "u8[4]");
  CHECK(ShapeToString(t) == "((f32[2]{0}, s32[]), (), pred[], b(u8[4]))");
  CHECK(LeafCount(t) == 4);  // f32, s32, pred, buffer; the empty tuple has none
  int64_t index[] = {0, 1};
  const Shape* sub = Subshape(t, index);
  REQUIRE(sub != nullptr);
  CHECK(ShapeToString(*sub) == "s32[]");
  int64_t bad[] = {5};
  CHECK(Subshape(t, bad) == nullptr);
  CHECK(ShapeOf("()").shape().IsTuple());
}

TEST_CASE("shape: equal shapes are interned once") {
  Parsed p = Parse(R"(HloModule m
ENTRY e {
  a = f32[2,3]{1,0} parameter(0)
  b = f32[2,3]{1,0} parameter(1)
  c = f32[2,3] parameter(2)
  ROOT t = (f32[2,3]{1,0}, f32[2,3]) tuple(a, c)
})");
  const Module& m = p.m();
  CHECK(m.instr(p.Id("a")).shape == m.instr(p.Id("b")).shape);
  // A written default layout and no layout are different texts but equal.
  CHECK(m.instr(p.Id("a")).shape != m.instr(p.Id("c")).shape);
  CHECK(ShapesEqual(m.shape(p.Id("a")), m.shape(p.Id("c"))));
  const Shape& t = m.shape(p.Id("t"));
  CHECK(t.tuple_shapes[0] == &m.shape(p.Id("a")));
}

TEST_CASE("layout: minor_to_major and every sub-attribute in order") {
  ParsedShape s = ShapeOf(
      "f32[8,128]{0,1:D(D,C+,S~,H+~)T(8,128)(2,1)(*,4)L(4)#(u32)*(u16)E(4)S(1)SC(0:1,2)(1:)M(8)}");
  const Shape& shape = s.shape();
  REQUIRE(shape.has_layout);
  const Layout& l = shape.layout;
  CHECK(l.minor_to_major == std::vector<int64_t>{0, 1});
  CHECK(l.dim_level_types ==
        std::vector<DimLevelType>{DimLevelType::kDense, DimLevelType::kCompressed,
                                  DimLevelType::kSingleton, DimLevelType::kLooseCompressed});
  REQUIRE(l.tiles.size() == 3);
  CHECK(l.tiles[0] == std::vector<int64_t>{8, 128});
  CHECK(l.tiles[1] == std::vector<int64_t>{2, 1});
  CHECK(l.tiles[2] == std::vector<int64_t>{kCombineDimension, 4});
  CHECK(l.tail_padding_alignment == 4);
  CHECK(l.index_type == PrimitiveType::kU32);
  CHECK(l.pointer_type == PrimitiveType::kU16);
  CHECK(l.element_size_bits == 4);
  CHECK(l.memory_space == 1);
  REQUIRE(l.split_configs.size() == 2);
  CHECK(l.split_configs[0].dimension == 0);
  CHECK(l.split_configs[0].split_indices == std::vector<int64_t>{1, 2});
  CHECK(l.split_configs[1].split_indices.empty());
  CHECK(l.dynamic_shape_metadata_prefix_bytes == 8);
  CHECK(l.physical_shape == nullptr);
  CHECK(l.ToString() ==
        "{0,1:D(D,C,S,H)T(8,128)(2,1)(*,4)L(4)#(u32)*(u16)E(4)S(1)SC(0:1,2)(1:)M(8)}");
}

TEST_CASE("layout: sub-attributes alone, on scalars and empty lists") {
  CHECK(ShapeOf("f32[]{:T(128)}").shape().layout.tiles.size() == 1);
  CHECK(ShapeOf("u32[]{:T(128)S(1)}").shape().layout.memory_space == 1);
  CHECK(ShapeOf("f32[4]{0:S(2)}").shape().layout.memory_space == 2);
  CHECK(ShapeOf("f32[4]{0:T()}").shape().layout.tiles.front().empty());
  CHECK(ShapeOf("f32[4]{0:D()}").shape().layout.dim_level_types.empty());
  ParsedShape none = ShapeOf("f32[4]");
  CHECK_FALSE(none.shape().has_layout);
  CHECK(IsDefaultLayoutOrUnset(none.shape()));
  CHECK_FALSE(IsDefaultLayoutOrUnset(ShapeOf("f32[4,2]{0,1}").shape()));
}

TEST_CASE("layout: errors") {
  // Wrong rank: located at the layout.
  CHECK_PARSE_ERROR(WithShape("f32[4,2]{0}"), Col(8),
                    "Dimensions size is 2, but minor to major size is 1.");
  // A physical shape is only for sparse layouts, and XLA rejects it here.
  CHECK_PARSE_ERROR(WithShape("f32[4]{0:P(f32[4])}"), Col(6),
                    "Layout has physical shape, but is not for a sparse array");
  // Sub-attributes out of order are not consumed.
  CHECK_PARSE_ERROR(WithShape("f32[4]{0:S(1)T(2)}"), Col(13), "expects layout to end with '}'");
  // XLA's ParseLayout ignores what its sub-parsers return: a signed index
  // type is kept (and rejected only where the layout is validated), a
  // sub-attribute without its ')' ends at the '}'.
  CHECK(ShapeOf("f32[4]{0:#(s32)}").shape().layout.index_type == PrimitiveType::kS32);
  CHECK(ShapeOf("f32[4]{0:T(128 }").shape().layout.tiles ==
        std::vector<std::vector<int64_t>>{{128}});
  CHECK(ShapeOf("f32[4]{0:S(1 }").shape().layout.memory_space == 1);
  // In a tuple the element is validated and fails; XLA lists the recorded
  // error first.
  CHECK_PARSE_ERROR(WithShape("(f32[4]{0:#(s32)})"), Col(15), "expecting an unsigned integer type");
  CHECK_PARSE_ERROR(WithShape("f32[4]{0:D(X)}"), Col(11),
                    "expected a DimLevelType abbreviation (D, C, or S)");
  CHECK_PARSE_ERROR(WithShape("f32[4]{0:T(2,x)}"), Col(13), "expects integer or '*' in a tile");
  // `{}` after a shape is never a layout: here it is where the opcode belongs.
  CHECK_PARSE_ERROR(WithShape("f32[]{}"), Col(5), "expects opcode");
}

TEST_CASE("shape: dimension errors") {
  CHECK_PARSE_ERROR(WithShape("f32[-1]"), Col(4), "invalid dimension size -1");
  CHECK_PARSE_ERROR(WithShape("f32[<=-3]"), Col(6), "invalid dimension size -3");
  CHECK_PARSE_ERROR(WithShape("f32[2,9223372036854775808]"), Col(6),
                    "dimension size 9223372036854775808 is out of range");
  CHECK_PARSE_ERROR(WithShape("f32[2,99999999999999999999]"), Col(6),
                    "integer literal 99999999999999999999 does not fit in 64 bits");
  // Element counts that overflow int64 parse, as in XLA (only each
  // dimension is checked); ElementCount says so.
  CHECK_FALSE(ElementCount(ShapeOf("f32[4294967296,4294967296]").shape()).has_value());
  CHECK(ShapeOf("f32[9223372036854775807]").shape().dimensions[0] == INT64_MAX);
  CHECK(ElementCount(ShapeOf("f32[9223372036854775807,1,0]").shape()) == 0);
  CHECK_PARSE_ERROR(WithShape("token[2]"), Col(5), "token shapes cannot have dimensions");
  CHECK_PARSE_ERROR(WithShape("g32[]"), Col(0), "Unknown opcode: g32");
  CHECK_PARSE_ERROR(WithShape("f32[2"), "3:18", "expects a list to end with ']'");
  CHECK_PARSE_ERROR(WithShape("f32"), "3:16", "expects a list starting with '['");
}

TEST_CASE("shape: tuple elements are validated as XLA's MakeValidatedTupleShape does") {
  // Top-level array layouts are not validated by XLA's parser...
  CHECK(ShapeOf("f32[2,3]{0,0}").shape().layout.minor_to_major == std::vector<int64_t>{0, 0});
  // ...but tuple elements are.
  CHECK_PARSE_ERROR(WithShape("(s32[], f32[2,3]{0,0})"), Col(8),
                    "layout minor_to_major field has duplicate value 0");
  CHECK_PARSE_ERROR(WithShape("(f32[2]{5})"), Col(1), "out-of-bounds value 5");
  CHECK_PARSE_ERROR(WithShape("(f32[2]{0:T(0)})"), Col(1), "tile with a 0 dimension");
  CHECK_PARSE_ERROR(WithShape("(f32[2]{0:L(0)})"), Col(1), "must be positive");
  CHECK_PARSE_ERROR(WithShape("(f32[2]{0:#(u32)})"), Col(1), "index primitive type");
  CHECK_PARSE_ERROR(WithShape("(f32[2]{0:D(D,D)})"), Col(1), "dim_level_types field contains 2");
  CHECK_PARSE_ERROR(WithShape("(f32[4611686018427387904])"), Col(1),
                    "Shape f32[4611686018427387904] size may overflow int64_t.");
  // A buffer's array is validated only inside a tuple: MakeValidatedBufferShape
  // checks that it holds an array, nothing more.
  CHECK(ShapeOf("b(f32[2]{1})").shape().tuple_shapes[0]->layout.minor_to_major ==
        std::vector<int64_t>{1});
  CHECK_PARSE_ERROR(WithShape("(b(f32[2]{1}))"), Col(1), "out-of-bounds value 1");
  CHECK_PARSE_ERROR(WithShape("b((f32[]))"), Col(0), "must hold an array shape");
}

TEST_CASE("shape helpers: element counts, compatibility, printing") {
  // A zero dimension makes any product of the others fine.
  ParsedShape empty = ShapeOf("(s8[0,4611686018427387904,4], f32[0,4294967296,4294967296])");
  CHECK(ElementCount(*empty.shape().tuple_shapes[0]) == 0);
  Parsed p = Parse(R"(HloModule m
ENTRY e {
  a = f32[2,3]{1,0} parameter(0)
  b = f32[2,<=3]{0,1} parameter(1)
  c = s32[2,3] parameter(2)
  ROOT d = f16[2,3] parameter(3)
})");
  const Module& m = p.m();
  const Shape& a = m.shape(p.Id("a"));
  const Shape& b = m.shape(p.Id("b"));
  const Shape& c = m.shape(p.Id("c"));
  const Shape& d = m.shape(p.Id("d"));
  CHECK(Compatible(a, b));  // layout and dynamism ignored
  CHECK_FALSE(ShapesEqual(a, b));
  CHECK_FALSE(Compatible(a, c));
  CHECK(CompatibleIgnoringElementType(a, c));
  CHECK(CompatibleIgnoringFpPrecision(a, d));
  CHECK_FALSE(CompatibleIgnoringFpPrecision(a, c));
  CHECK(ShapeToString(c) == "s32[2,3]");
  CHECK(ShapeToStringWithDefaultLayout(c) == "s32[2,3]{1,0}");
  CHECK(ShapeToStringWithDefaultLayout(b) == "f32[2,<=3]{0,1}");
  CHECK(ShapeToString(b, false) == "f32[2,<=3]");
  CHECK(LayoutValidationError(a).empty());
  CHECK(LayoutValidationError(c).empty());  // no layout written
}

}  // namespace
}  // namespace hlolint::parse_testing
