// Element-wise shape inference (lib/analysis/shape_inference.h) against the
// rules of XLA's ShapeInference::InferUnaryOpShape/InferBinaryOpShape/
// InferSelectShape/InferClampShape and the verifier's no-implicit-broadcast
// check.
#include <catch2/catch.hpp>

#include "shape_inference_test_util.h"

using namespace hlolint;
using hlolint::testing::Shapes;
using hlolint::testing::Str;

TEST_CASE("unary ops: element type rules and result types", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  REQUIRE(InferUnaryOpShape(Opcode::kAbs, s.Array(PrimitiveType::kC64, {2}), &out, &error));
  CHECK(Str(out) == "f32[2]");
  CHECK_FALSE(InferUnaryOpShape(Opcode::kAbs, s.Array(PrimitiveType::kU32, {2}), &out, &error));
  CHECK(error.find("abs") != std::string::npos);
  REQUIRE(InferUnaryOpShape(Opcode::kIsFinite, s.F32({3, 4}), &out, &error));
  CHECK(Str(out) == "pred[3,4]");
  CHECK_FALSE(InferUnaryOpShape(Opcode::kClz, s.F32({3}), &out, &error));
  CHECK_FALSE(InferUnaryOpShape(Opcode::kExp, s.S32({3}), &out, &error));
  REQUIRE(InferUnaryOpShape(Opcode::kNot, s.Array(PrimitiveType::kPred, {1}), &out, &error));
  CHECK(Str(out) == "pred[1]");
  // copy accepts tuples; other unary ops need arrays.
  const Shape& tuple = s.Tuple({&s.F32({1}), &s.S32({})});
  REQUIRE(InferUnaryOpShape(Opcode::kCopy, tuple, &out, &error));
  CHECK(Str(out) == "(f32[1], s32[])");
  CHECK_FALSE(InferUnaryOpShape(Opcode::kNegate, tuple, &out, &error));
  CHECK(error.find("Expected array argument") != std::string::npos);
}

TEST_CASE("binary ops: equal shapes, degenerate broadcast, type rules", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  REQUIRE(InferBinaryOpShape(Opcode::kAdd, s.F32({2, 3}), s.F32({2, 3}), &out, &error));
  CHECK(Str(out) == "f32[2,3]");
  // Mixed floating-point precision is allowed by inference.
  REQUIRE(InferBinaryOpShape(Opcode::kMultiply, s.Array(PrimitiveType::kBF16, {4}), s.F32({4}),
                             &out, &error));
  CHECK(out.dimensions == std::vector<int64_t>{4});
  CHECK_FALSE(InferBinaryOpShape(Opcode::kAdd, s.F32({2}), s.S32({2}), &out, &error));
  CHECK(error.find("different element types") != std::string::npos);
  // Size-1 dimensions broadcast in inference (the verifier then rejects it).
  REQUIRE(InferBinaryOpShape(Opcode::kAdd, s.F32({1, 3}), s.F32({2, 3}), &out, &error));
  CHECK(Str(out) == "f32[2,3]");
  CHECK_FALSE(InferBinaryOpShape(Opcode::kAdd, s.F32({2, 3}), s.F32({3, 3}), &out, &error));
  CHECK_FALSE(InferBinaryOpShape(Opcode::kAdd, s.F32({3}), s.F32({2, 3}), &out, &error));
  CHECK(error.find("equal rank") != std::string::npos);
  const Shape& pred = s.Array(PrimitiveType::kPred, {2});
  CHECK_FALSE(InferBinaryOpShape(Opcode::kSubtract, pred, pred, &out, &error));
  REQUIRE(InferBinaryOpShape(Opcode::kAnd, pred, pred, &out, &error));
  REQUIRE(InferBinaryOpShape(Opcode::kCompare, s.F32({5}), s.F32({5}), &out, &error));
  CHECK(Str(out) == "pred[5]");
  REQUIRE(InferBinaryOpShape(Opcode::kComplex, s.F32({5}), s.F32({5}), &out, &error));
  CHECK(Str(out) == "c64[5]");
  CHECK_FALSE(InferBinaryOpShape(Opcode::kAnd, s.F32({2}), s.F32({2}), &out, &error));
}

TEST_CASE("no implicit broadcast in HLO", "[shape_inference]") {
  Shapes s;
  std::string error;
  const Shape& scalar = s.F32({});
  const Shape& vec = s.F32({4});
  const Shape* ok[] = {&vec, &vec};
  CHECK(CheckElementwiseOperands(Opcode::kAdd, ok, vec, &error));
  const Shape* scalar_operand[] = {&vec, &scalar};
  CHECK_FALSE(CheckElementwiseOperands(Opcode::kAdd, scalar_operand, vec, &error));
  CHECK(error.find("Implicit broadcast") != std::string::npos);
  // Element types are not compared here.
  const Shape& ints = s.S32({4});
  const Shape* convert[] = {&ints};
  CHECK(CheckElementwiseOperands(Opcode::kConvert, convert, vec, &error));
}

TEST_CASE("select and clamp", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  const Shape& pred = s.Array(PrimitiveType::kPred, {3});
  REQUIRE(InferSelectShape(pred, s.F32({3}), s.F32({3}), &out, &error));
  CHECK(Str(out) == "f32[3]");
  // A scalar predicate is accepted (older XLA).
  REQUIRE(InferSelectShape(s.Array(PrimitiveType::kPred, {}), s.F32({3}), s.F32({3}), &out,
                           &error));
  CHECK_FALSE(InferSelectShape(s.S32({3}), s.F32({3}), s.F32({3}), &out, &error));
  CHECK_FALSE(InferSelectShape(pred, s.F32({3}), s.F32({4}), &out, &error));
  const Shape& tuple = s.Tuple({&s.F32({})});
  CHECK_FALSE(InferSelectShape(s.Array(PrimitiveType::kPred, {}), tuple, tuple, &out, &error));
  REQUIRE(InferClampShape(s.F32({}), s.F32({3}), s.F32({}), &out, &error));
  CHECK(Str(out) == "f32[3]");
  CHECK_FALSE(InferClampShape(s.F32({2}), s.F32({3}), s.F32({3}), &out, &error));
}

TEST_CASE("convert, bitcast-convert, reduce-precision", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  REQUIRE(InferConvertShape(s.F32({2, 2}), PrimitiveType::kS8, &out, &error));
  CHECK(Str(out) == "s8[2,2]");
  CHECK_FALSE(InferConvertShape(s.Tuple({&s.F32({})}), PrimitiveType::kS8, &out, &error));
  REQUIRE(InferBitcastConvertShape(s.F32({4}), PrimitiveType::kU8, &out, &error));
  CHECK(Str(out) == "u8[4,4]");
  REQUIRE(InferBitcastConvertShape(s.Array(PrimitiveType::kU8, {4, 4}), PrimitiveType::kF32, &out,
                                   &error));
  CHECK(Str(out) == "f32[4]");
  CHECK_FALSE(InferBitcastConvertShape(s.Array(PrimitiveType::kU8, {4, 2}), PrimitiveType::kF32,
                                       &out, &error));
  CHECK_FALSE(InferBitcastConvertShape(s.F32({4}), PrimitiveType::kC64, &out, &error));
  CHECK_FALSE(InferReducePrecisionShape(s.F32({4}), 0, 3, &out, &error));
  CHECK(InferReducePrecisionShape(s.F32({4}), 5, 10, &out, &error));
}
