// Literals of constant(...) and custom-call literal=: structure, value
// kinds and ranges per element type, NaN payloads, XLA's lax spots.
#include <catch2/catch.hpp>

#include "parse_helpers.h"

namespace hlolint::parse_testing {
namespace {

// A module with one constant; the literal starts at line 3, column
// 24 + the length of `shape`.
std::string Constant(const std::string& shape, const std::string& literal) {
  return "HloModule m\nENTRY e {\n  ROOT c = " + shape + " constant(" + literal + ")\n}\n";
}

void Accepts(const std::string& shape, const std::string& literal) {
  INFO(shape << " constant(" << literal << ")");
  Parsed p = Parse(Constant(shape, literal));
  CHECK(p.m().opcode(p.Id("c")) == Opcode::kConstant);
}

std::string Col(const std::string& shape, int offset_in_literal) {
  return "3:" + std::to_string(22 + static_cast<int>(shape.size()) + offset_in_literal);
}

TEST_CASE("literal: scalars of every kind of element type") {
  Accepts("pred[]", "true");
  Accepts("pred[]", "false");
  Accepts("pred[]", "7");  // any integer: nonzero is true
  Accepts("s4[]", "-8");
  Accepts("s4[]", "7");
  Accepts("u4[]", "15");
  Accepts("s8[]", "-128");
  Accepts("u8[]", "255");
  Accepts("s64[]", "-9223372036854775808");
  Accepts("s64[]", "18446744073709551615");  // wraps to -1, as in XLA
  Accepts("u64[]", "18446744073709551615");
  Accepts("u64[]", "-1");  // reinterpreted as uint64
  Accepts("u32[]", "4294967295");
  Accepts("f32[]", "1.5");
  Accepts("f32[]", "-2");
  Accepts("f32[]", "1e-50");  // underflows to zero
  Accepts("f32[]", "inf");
  Accepts("f32[]", "-inf");
  Accepts("f32[]", "nan");
  Accepts("f32[]", "-nan");
  Accepts("f32[]", "nan(0x7fffff)");
  Accepts("f64[]", "1.7976931348623157e308");
  Accepts("f64[]", "-nan(0xfffffffffffff)");
  Accepts("f16[]", "65504");
  Accepts("f16[]", "65519.99");  // rounds to 65504
  Accepts("bf16[]", "65505");
  Accepts("bf16[]", "nan(0x7f)");
  Accepts("f8e5m2[]", "57344");
  Accepts("f8e5m2[]", "nan(0x3)");
  Accepts("f8e4m3[]", "nan(0x7)");
  Accepts("f8e3m4[]", "nan(0xf)");
  Accepts("f8e4m3fn[]", "448");
  Accepts("f8e4m3fn[]", "464");  // the tie rounds to the even 448
  Accepts("f8e4m3fnuz[]", "240");
  Accepts("f8e4m3b11fnuz[]", "30");
  Accepts("f8e5m2fnuz[]", "nan");
  Accepts("f4e2m1fn[]", "100");  // saturates: no inf or NaN in this type
  Accepts("f8e8m0fnu[]", "1.7014118346046923e38");
  // Any type takes the default quiet NaN, even written as its payload.
  Accepts("f8e4m3fn[]", "nan(0x8000000000000)");
  Accepts("f16[]", "nan(0x8000000000000)");
  Accepts("c64[]", "(1, -2.5)");
  Accepts("c128[]", "(inf, nan)");
}

TEST_CASE("literal: arrays, nesting, elision and XLA's lax spots") {
  Accepts("f32[2,3]", "{{1, 2, 3}, {4, 5, 6}}");
  Accepts("f32[2,3]{0,1}", "{ { 1, 2, 3 }, { 4, 5, 6 } }");
  Accepts("s32[0]", "{}");
  Accepts("s32[2,0]", "{{}, {}}");
  Accepts("f32[1,1,1]", "{{{ 7 }}}");
  Accepts("c64[2]", "{(1, 2), (3, 4)}");
  Accepts("f32[3]", "{1 2 3}");      // commas are optional
  Accepts("f32[3]", "{1,,2,,3,}");   // and may repeat
  Accepts("f32[1000]", "{...}");     // elided constant
  Accepts("f32[4,5]", "{...}");
  Accepts("f32[3]", "5");            // a bare scalar for an array sets element 0
  Accepts("f32[2,2]", "{..., 5}");   // XLA's ignored depth error, then index 0
  Accepts("(f32[], s32[2])", "(1, {2, 3})");
  Accepts("(f32[], s32[2])", "(1 {2, 3})");  // XLA only records the missing ','
  Accepts("(f32[], (s32[], pred[]))", "(1, (2, true))");
  Accepts("(f32[], s32[])", "()");  // empty elements
  Accepts("()", "()");
  Accepts("f32[2]", "{1, /* comment */ 2}");
}

TEST_CASE("literal: structure errors") {
  CHECK_PARSE_ERROR(Constant("f32[]", "{1}"), Col("f32[]", 0),
                    "expects nested array in rank 0, but sees larger");
  CHECK_PARSE_ERROR(Constant("f32[2]", "{1,{2}}"), Col("f32[2]", 3),
                    "expects nested array in rank 1, but sees larger");
  // XLA records the depth mismatch at the first value and fails at '}'.
  CHECK_PARSE_ERROR(Constant("f32[2,3]", "{1,2,3,4,5,6}"), Col("f32[2,3]", 1),
                    "expects nested array in rank 2, but sees 1");
  CHECK_PARSE_ERROR(Constant("f32[2,3,2]", "{{1,2},{3,4},{5,6},{7,8},{9,10},{11,12}}"),
                    Col("f32[2,3,2]", 2), "expects nested array in rank 3, but sees 2");
  CHECK_PARSE_ERROR(Constant("f32[2,2]", "{{1,2},{3,4},{5,6}}"), Col("f32[2,2]", 13),
                    "expects 2 elements in the []th element, but sees more");
  CHECK_PARSE_ERROR(Constant("f32[2,2]", "{{1,2},{3}}"), Col("f32[2,2]", 9),
                    "expects 2 elements in the [1]th element, but sees 1");
  // More values than the minor-most dimension holds: XLA's first error.
  CHECK_PARSE_ERROR(Constant("f32[2]", "{1,2,3}"), Col("f32[2]", 5),
                    "expects 2 elements on the minor-most dimension, but sees more");
  CHECK_PARSE_ERROR(Constant("f32[2]", "}"), Col("f32[2]", 0), "unexpected '}' token");
  CHECK_PARSE_ERROR(Constant("f32[2]", "{1, x}"), Col("f32[2]", 4),
                    "unexpected token type in a literal");
  CHECK_PARSE_ERROR(Constant("f32[2,2]", "{{...}}"), Col("f32[2,2]", 2),
                    "expects `...` at nest level 1, but sees it at nest level 2");
  // XLA's first (recorded) error: a bare value where braces belong; the
  // index check that fails afterwards comes second.
  CHECK_PARSE_ERROR(Constant("f32[0]", "5"), Col("f32[0]", 0),
                    "expects nested array in rank 1, but sees 0");
  CHECK_PARSE_ERROR(Constant("f32[2]", "{1, 2, true}"), Col("f32[2]", 7),
                    "expects 2 elements on the minor-most dimension, but sees more");
  CHECK_PARSE_ERROR(Constant("pred[0]", "{true}"), Col("pred[0]", 1),
                    "expects 0 elements on the minor-most dimension, but sees more");
  CHECK_PARSE_ERROR(Constant("f32[2]", "(1, 2)"), Col("f32[2]", 0),
                    "unexpected '(' in literal. Parens are only valid for complex literals");
  CHECK_PARSE_ERROR(Constant("(f32[], s32[])", "(1, 2, 3)"), Col("(f32[], s32[])", 5),
                    "expects ')' at the end of the tuple with 2elements");
  CHECK_PARSE_ERROR(Constant("(f32[], s32[])", "(1 2.5)"), Col("(f32[], s32[])", 3),
                    "expects ',' to separate tuple elements");
  CHECK_PARSE_ERROR(Constant("token[]", "0"), Col("token[]", 0),
                    "a literal needs an array or tuple shape, not token[]");
  CHECK_PARSE_ERROR(Constant("f32[?]", "{1}"), Col("f32[?]", 0), "unbounded dimension");
  CHECK_PARSE_ERROR("HloModule m\nENTRY e {\n  ROOT c = f32[2] constant({1, 2", "3:33",
                    "the literal is not closed with '}' before the end of the file");
}

TEST_CASE("literal: value kind and range errors") {
  CHECK_PARSE_ERROR(Constant("s32[]", "1.5"), Col("s32[]", 0),
                    "expects integer for primitive type: S32");
  CHECK_PARSE_ERROR(Constant("s32[]", "true"), Col("s32[]", 0),
                    "expects s32 value, but sees the boolean true");
  CHECK_PARSE_ERROR(Constant("u32[]", "4294967296"), Col("u32[]", 0),
                    "value 4294967296 is out of range for literal's primitive type U32 namely "
                    "[0, 4294967295].");
  CHECK_PARSE_ERROR(Constant("u4[]", "-1"), Col("u4[]", 0),
                    "value -1 is out of range for literal's primitive type U4 namely [0, 15].");
  CHECK_PARSE_ERROR(Constant("s4[]", "-9"), Col("s4[]", 0),
                    "value -9 is out of range for literal's primitive type S4 namely [-8, 7].");
  CHECK_PARSE_ERROR(Constant("s8[2]", "{1, 128}"), Col("s8[2]", 4),
                    "value 128 is out of range for literal's primitive type S8 namely [-128, 127].");
  CHECK_PARSE_ERROR(Constant("f16[]", "-65520"), Col("f16[]", 0),
                    "value -65520 is out of range for literal's primitive type F16 namely "
                    "[-65504, 65504].");
  CHECK_PARSE_ERROR(Constant("bf16[]", "1e100"), Col("bf16[]", 0),
                    "is out of range for literal's primitive type BF16");
  CHECK_PARSE_ERROR(Constant("f32[]", "3.5e38"), Col("f32[]", 0),
                    "is out of range for literal's primitive type F32");
  CHECK_PARSE_ERROR(Constant("f8e4m3fn[]", "465"), Col("f8e4m3fn[]", 0),
                    "value 465 is out of range for literal's primitive type F8E4M3FN namely "
                    "[-448, 448].");
  CHECK_PARSE_ERROR(Constant("f8e5m2[]", "61440"), Col("f8e5m2[]", 0), "out of range");
  CHECK_PARSE_ERROR(Constant("f8e8m0fnu[]", "-1"), Col("f8e8m0fnu[]", 0), "out of range");
  CHECK_PARSE_ERROR(Constant("f64[]", "1.8e308"), Col("f64[]", 0),
                    "Constant is out of range for double (+/-1.79769e+308) and so is unparsable.");
  CHECK_PARSE_ERROR(Constant("f32[]", "true"), Col("f32[]", 0),
                    "expects f32 value, but sees the boolean true");
  CHECK_PARSE_ERROR(Constant("c64[]", "1"), Col("c64[]", 0),
                    "unsupported primitive type C64: complex values are written as (real, imag)");
  CHECK_PARSE_ERROR(Constant("c64[]", "(1e100, 0)"), Col("c64[]", 1),
                    "real part 1e+100 is out of range for literal's primitive type C64, namely "
                    "[-3.40282e+38, 3.40282e+38].");
  CHECK_PARSE_ERROR(Constant("c64[]", "(0, -1e100)"), Col("c64[]", 4),
                    "imaginary part -1e+100 is out of range");
  CHECK_PARSE_ERROR(Constant("c64[]", "(1 2)"), Col("c64[]", 3),
                    "expect comma after real part of complex literal");
  CHECK_PARSE_ERROR(Constant("c64[]", "(x, 2)"), Col("c64[]", 1),
                    "expect floating-point value for real part of complex number");
  CHECK_PARSE_ERROR(Constant("c64[2]", "{1, (1, 2)}"), Col("c64[2]", 1),
                    "unsupported primitive type C64");
}

TEST_CASE("literal: NaN payloads") {
  CHECK_PARSE_ERROR(Constant("bf16[]", "nan(0x3ff)"), Col("bf16[]", 0),
                    "tries to set NaN payload 0x3ff to a literal in shape bf16[] at linear index "
                    "0, but the NaN payload is out of range (0x7f)");
  CHECK_PARSE_ERROR(Constant("f8e4m3fn[2]", "{0, nan(0x1)}"), Col("f8e4m3fn[2]", 4),
                    "tries to set NaN payload 0x1 to a literal in shape f8e4m3fn[2] at linear "
                    "index 1, but f8e4m3fn does not support payloads");
  CHECK_PARSE_ERROR(Constant("f8e4m3b11fnuz[]", "-nan(0x2)"), Col("f8e4m3b11fnuz[]", 0),
                    "f8e4m3b11fnuz does not support payloads");
  CHECK_PARSE_ERROR(Constant("f32[]", "nan(0x0)"), Col("f32[]", 0),
                    "invalid NaN payload: expected nan(0x1) to nan(0xfffffffffffff)");
}

TEST_CASE("literal: custom-call literal= with shapes") {
  Parse("HloModule m\nENTRY e {\n  ROOT c = f32[] custom-call(), custom_call_target=\"t\", "
        "literal=(s32[2]{0} {1, 2}, (f32[] 3, pred[] true))\n}");
  // XLA records a missing ',' between the elements but goes on.
  Parse("HloModule m\nENTRY e {\n  ROOT c = f32[] custom-call(), custom_call_target=\"t\", "
        "literal=(s32[] 1 s32[] 2)\n}");
  CHECK_PARSE_ERROR("HloModule m\nENTRY e {\n  ROOT c = f32[] custom-call(), custom_call_target=\"t\", "
                    "literal={1}\n}",
                    "3:65", "expected primitive type, saw '{'");
}

}  // namespace
}  // namespace hlolint::parse_testing
