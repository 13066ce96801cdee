// Shape-manipulating ops: broadcast, reshape, transpose, slice, dynamic
// slices, concatenate, pad, iota, get-tuple-element
// (xla/service/shape_inference.cc and ShapeVerifier::HandleBroadcast/
// HandleReshape/HandleIota).
#include <catch2/catch.hpp>

#include "shape_inference_test_util.h"

using namespace hlolint;
using hlolint::testing::Shapes;
using hlolint::testing::Str;
using V = std::vector<int64_t>;

TEST_CASE("broadcast: mapped dimensions keep their sizes", "[shape_inference]") {
  Shapes s;
  std::string error;
  CHECK(CheckBroadcastShape(s.F32({3}), V{1}, s.F32({2, 3}), &error));
  CHECK(CheckBroadcastShape(s.F32({}), V{}, s.F32({2, 3}), &error));
  // Mixed precision is allowed (TPU dumps broadcast bf16 into f32).
  CHECK(CheckBroadcastShape(s.Array(PrimitiveType::kBF16, {3}), V{1}, s.F32({2, 3}), &error));
  CHECK_FALSE(CheckBroadcastShape(s.S32({3}), V{1}, s.F32({2, 3}), &error));
  CHECK_FALSE(CheckBroadcastShape(s.F32({3}), V{0}, s.F32({2, 3}), &error));
  CHECK(error.find("sizes must be equal") != std::string::npos);
  // No size-1 stretching in HLO.
  CHECK_FALSE(CheckBroadcastShape(s.F32({1}), V{0}, s.F32({3}), &error));
  CHECK_FALSE(CheckBroadcastShape(s.F32({3}), V{2}, s.F32({2, 3}), &error));
  CHECK_FALSE(CheckBroadcastShape(s.F32({3}), V{}, s.F32({2, 3}), &error));
}

TEST_CASE("reshape: element counts", "[shape_inference]") {
  Shapes s;
  std::string error;
  CHECK(CheckReshapeShape(s.F32({2, 6}), s.F32({3, 4}), &error));
  CHECK(CheckReshapeShape(s.F32({0, 6}), s.F32({0}), &error));
  CHECK_FALSE(CheckReshapeShape(s.F32({2, 6}), s.F32({13}), &error));
  CHECK(error.find("mismatched element counts") != std::string::npos);
  CHECK_FALSE(CheckReshapeShape(s.F32({2}), s.S32({2}), &error));
}

TEST_CASE("transpose and reverse", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  REQUIRE(InferTransposeShape(s.F32({2, 3, 4}), V{2, 0, 1}, &out, &error));
  CHECK(Str(out) == "f32[4,2,3]");
  CHECK_FALSE(InferTransposeShape(s.F32({2, 3}), V{0, 0}, &out, &error));
  CHECK_FALSE(InferTransposeShape(s.F32({2, 3}), V{0}, &out, &error));
  CHECK(InferReverseShape(s.F32({2, 3}), V{1}, &out, &error));
  CHECK_FALSE(InferReverseShape(s.F32({2, 3}), V{2}, &out, &error));
  CHECK_FALSE(InferReverseShape(s.F32({2, 3}), V{1, 1}, &out, &error));
}

TEST_CASE("slice: strided sizes and bounds", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  REQUIRE(InferSliceShape(s.F32({10, 8}), V{1, 0}, V{10, 8}, V{3, 1}, &out, &error));
  CHECK(Str(out) == "f32[3,8]");
  CHECK_FALSE(InferSliceShape(s.F32({10}), V{0}, V{11}, V{1}, &out, &error));
  CHECK_FALSE(InferSliceShape(s.F32({10}), V{5}, V{4}, V{1}, &out, &error));
  CHECK_FALSE(InferSliceShape(s.F32({10}), V{0}, V{4}, V{0}, &out, &error));
  CHECK_FALSE(InferSliceShape(s.F32({10, 2}), V{0}, V{4}, V{1}, &out, &error));
}

TEST_CASE("dynamic-slice and dynamic-update-slice", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  const Shape& i = s.S32({});
  const Shape* two[] = {&i, &i};
  REQUIRE(InferDynamicSliceShape(s.F32({8, 4}), two, V{2, 4}, &out, &error));
  CHECK(Str(out) == "f32[2,4]");
  CHECK_FALSE(InferDynamicSliceShape(s.F32({8, 4}), two, V{2, 5}, &out, &error));
  const Shape& f = s.F32({});
  const Shape* float_index[] = {&f, &f};
  CHECK_FALSE(InferDynamicSliceShape(s.F32({8, 4}), float_index, V{2, 4}, &out, &error));
  CHECK(error.find("integral") != std::string::npos);
  const Shape* one[] = {&i};
  CHECK_FALSE(InferDynamicSliceShape(s.F32({8, 4}), one, V{2, 4}, &out, &error));
  // Legacy form: one rank-1 index vector.
  const Shape& vec = s.S32({2});
  const Shape* legacy[] = {&vec};
  CHECK(InferDynamicSliceShape(s.F32({8, 4}), legacy, V{2, 4}, &out, &error));
  REQUIRE(InferDynamicUpdateSliceShape(s.F32({8, 4}), s.F32({2, 4}), two, &out, &error));
  CHECK(Str(out) == "f32[8,4]");
  CHECK_FALSE(InferDynamicUpdateSliceShape(s.F32({8, 4}), s.F32({9, 4}), two, &out, &error));
  CHECK_FALSE(InferDynamicUpdateSliceShape(s.F32({8, 4}), s.S32({2, 4}), two, &out, &error));
}

TEST_CASE("concatenate and pad", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  const Shape& a = s.F32({2, 3});
  const Shape& b = s.F32({2, 5});
  const Shape* ab[] = {&a, &b};
  REQUIRE(InferConcatenateShape(ab, 1, &out, &error));
  CHECK(Str(out) == "f32[2,8]");
  CHECK_FALSE(InferConcatenateShape(ab, 0, &out, &error));
  CHECK_FALSE(InferConcatenateShape(ab, 2, &out, &error));
  PaddingConfig padding = {{1, 2, 0}, {-1, 0, 1}};
  REQUIRE(InferPadShape(s.F32({4, 3}), s.F32({}), padding, &out, &error));
  CHECK(Str(out) == "f32[7,4]");  // 4+1+2, 3-1+0+2*1
  PaddingConfig too_negative = {{-5, 0, 0}, {0, 0, 0}};
  CHECK_FALSE(InferPadShape(s.F32({4, 3}), s.F32({}), too_negative, &out, &error));
  CHECK_FALSE(InferPadShape(s.F32({4, 3}), s.F32({1}), padding, &out, &error));
}

TEST_CASE("iota, get-tuple-element, get/set-dimension-size", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  CHECK(CheckIotaShape(s.F32({4, 2}), 1, &error));
  CHECK_FALSE(CheckIotaShape(s.F32({4, 2}), 2, &error));
  CHECK_FALSE(CheckIotaShape(s.F32({}), 0, &error));
  CHECK_FALSE(CheckIotaShape(s.Array(PrimitiveType::kPred, {4}), 0, &error));
  const Shape& tuple = s.Tuple({&s.F32({1}), &s.S32({})});
  const Shape* element = nullptr;
  REQUIRE(InferGetTupleElementShape(tuple, 1, &element, &error));
  CHECK(Str(*element) == "s32[]");
  CHECK_FALSE(InferGetTupleElementShape(tuple, 2, &element, &error));
  CHECK_FALSE(InferGetTupleElementShape(s.F32({1}), 0, &element, &error));
  REQUIRE(InferGetDimensionSizeShape(s.F32({3, 4}), 1, &out, &error));
  CHECK(Str(out) == "s32[]");
  REQUIRE(InferSetDimensionSizeShape(s.F32({3, 4}), s.S32({}), 0, &out, &error));
  CHECK(Str(out) == "f32[<=3,4]");
  CHECK_FALSE(InferSetDimensionSizeShape(s.F32({3, 4}), s.F32({}), 0, &out, &error));
}
