// Contractions, reductions, windows, gather/scatter, sort and collectives
// (xla/service/shape_inference.cc).
#include <catch2/catch.hpp>

#include "shape_inference_test_util.h"

using namespace hlolint;
using hlolint::testing::Shapes;
using hlolint::testing::Str;
using V = std::vector<int64_t>;

TEST_CASE("dot: batch, free and contracting dimensions", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  DotDimensionNumbers d;
  d.lhs_batch = {0};
  d.rhs_batch = {0};
  d.lhs_contracting = {2};
  d.rhs_contracting = {1};
  REQUIRE(InferDotShape(s.F32({8, 16, 32}), s.F32({8, 32, 64}), d, PrimitiveType::kF32, &out,
                        &error));
  CHECK(Str(out) == "f32[8,16,64]");
  // The result type is the instruction's own (preferred) type.
  REQUIRE(InferDotShape(s.Array(PrimitiveType::kS8, {4, 2}), s.Array(PrimitiveType::kS8, {2, 3}),
                        DotDimensionNumbers{{1}, {0}, {}, {}}, PrimitiveType::kS32, &out, &error));
  CHECK(Str(out) == "s32[4,3]");
  CHECK_FALSE(InferDotShape(s.S32({4, 2}), s.S32({2, 3}), DotDimensionNumbers{{1}, {0}, {}, {}},
                            PrimitiveType::kS8, &out, &error));
  CHECK(error.find("narrower") != std::string::npos);
  CHECK_FALSE(InferDotShape(s.F32({4, 2}), s.F32({3, 3}), DotDimensionNumbers{{1}, {0}, {}, {}},
                            PrimitiveType::kF32, &out, &error));
  CHECK(error.find("Contracting dimension sizes") != std::string::npos);
  CHECK_FALSE(InferDotShape(s.F32({4, 2}), s.F32({2, 3}), DotDimensionNumbers{{2}, {0}, {}, {}},
                            PrimitiveType::kF32, &out, &error));
  // No dimension numbers: an outer product.
  REQUIRE(InferDotShape(s.F32({8}), s.F32({8}), DotDimensionNumbers{}, PrimitiveType::kF32, &out,
                        &error));
  CHECK(Str(out) == "f32[8,8]");
}

TEST_CASE("convolution: 2-D, padding, groups", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  ConvolutionDimensionNumbers d;  // b01f_01io->b01f
  d.input_batch = 0;
  d.input_feature = 3;
  d.input_spatial = {1, 2};
  d.kernel_input_feature = 2;
  d.kernel_output_feature = 3;
  d.kernel_spatial = {0, 1};
  d.output_batch = 0;
  d.output_feature = 3;
  d.output_spatial = {1, 2};
  Window window(2);
  for (WindowDimension& w : window) {
    w.size = 3;
    w.padding_low = w.padding_high = 1;
  }
  REQUIRE(InferConvolutionShape(s.F32({1, 8, 8, 4}), s.F32({3, 3, 4, 16}), 1, 1, window, d,
                                PrimitiveType::kF32, &out, &error));
  CHECK(Str(out) == "f32[1,8,8,16]");
  window[0].stride = 2;
  REQUIRE(InferConvolutionShape(s.F32({1, 8, 8, 4}), s.F32({3, 3, 4, 16}), 1, 1, window, d,
                                PrimitiveType::kF32, &out, &error));
  CHECK(Str(out) == "f32[1,4,8,16]");
  // Grouped: input features 4 = 2 groups x 2 kernel input features.
  REQUIRE(InferConvolutionShape(s.F32({1, 8, 8, 4}), s.F32({3, 3, 2, 16}), 2, 1, window, d,
                                PrimitiveType::kF32, &out, &error));
  CHECK_FALSE(InferConvolutionShape(s.F32({1, 8, 8, 4}), s.F32({3, 3, 3, 16}), 1, 1, window, d,
                                    PrimitiveType::kF32, &out, &error));
  CHECK_FALSE(InferConvolutionShape(s.F32({1, 8, 8, 4}), s.F32({2, 3, 4, 16}), 1, 1, window, d,
                                    PrimitiveType::kF32, &out, &error));
}

TEST_CASE("reduce: kept dimensions, variadic, reducer signature", "[shape_inference]") {
  Shapes s;
  ShapeArena arena;
  Shape out;
  std::string error;
  const Shape& scalar = s.F32({});
  const Shape* params[] = {&scalar, &scalar};
  ProgramShapeView add{params, &scalar};
  const Shape& x = s.F32({2, 3, 4});
  const Shape* args[] = {&x, &scalar};
  REQUIRE(InferReduceShape(args, V{1}, add, arena, &out, &error));
  CHECK(Str(out) == "f32[2,4]");
  CHECK_FALSE(InferReduceShape(args, V{3}, add, arena, &out, &error));
  CHECK_FALSE(InferReduceShape(args, V{1, 1}, add, arena, &out, &error));
  const Shape* one_param[] = {&scalar};
  CHECK_FALSE(InferReduceShape(args, V{1}, ProgramShapeView{one_param, &scalar}, arena, &out,
                               &error));
  // Variadic (argmax-like): (f32, s32) reducer.
  const Shape& si = s.S32({});
  const Shape& idx = s.S32({2, 3, 4});
  const Shape& acc = s.Tuple({&scalar, &si});
  const Shape* vparams[] = {&scalar, &si, &scalar, &si};
  const Shape* vargs[] = {&x, &idx, &scalar, &si};
  REQUIRE(InferReduceShape(vargs, V{2}, ProgramShapeView{vparams, &acc}, arena, &out, &error));
  CHECK(Str(out) == "(f32[2,3], s32[2,3])");
}

TEST_CASE("window output shapes (reduce-window)", "[shape_inference]") {
  Shapes s;
  ShapeArena arena;
  Shape out;
  std::string error;
  Window window(1);
  window[0].size = 3;
  window[0].stride = 2;
  REQUIRE(InferWindowOutputShape(s.F32({10}), window, PrimitiveType::kF32, &out, &error));
  CHECK(Str(out) == "f32[4]");
  window[0].padding_low = 1;
  window[0].padding_high = 1;
  window[0].base_dilation = 2;
  // Dilated base 19, padded 21, (21-3)/2+1 = 10.
  REQUIRE(InferWindowOutputShape(s.F32({10}), window, PrimitiveType::kF32, &out, &error));
  CHECK(Str(out) == "f32[10]");
  window[0].stride = 0;
  CHECK_FALSE(InferWindowOutputShape(s.F32({10}), window, PrimitiveType::kF32, &out, &error));
  const Shape& scalar = s.F32({});
  const Shape* params[] = {&scalar, &scalar};
  Window w2(2);
  for (WindowDimension& w : w2) w.size = 2;
  const Shape& x = s.F32({4, 6});
  const Shape* inputs[] = {&x};
  const Shape* inits[] = {&scalar};
  REQUIRE(InferReduceWindowShape(inputs, inits, w2, ProgramShapeView{params, &scalar}, arena,
                                 &out, &error));
  CHECK(Str(out) == "f32[3,5]");
}

TEST_CASE("gather and scatter dimension numbers", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  GatherDimensionNumbers g;
  g.offset_dims = {1};
  g.collapsed_slice_dims = {0};
  g.start_index_map = {0};
  g.index_vector_dim = 1;
  REQUIRE(InferGatherShape(s.F32({3, 3}), s.S32({2}), g, V{1, 3}, &out, &error));
  CHECK(Str(out) == "f32[2,3]");
  CHECK_FALSE(InferGatherShape(s.F32({3, 3}), s.S32({2}), g, V{2, 3}, &out, &error));
  CHECK_FALSE(InferGatherShape(s.F32({3, 3}), s.F32({2}), g, V{1, 3}, &out, &error));
  g.start_index_map = {5};
  CHECK_FALSE(InferGatherShape(s.F32({3, 3}), s.S32({2}), g, V{1, 3}, &out, &error));

  const Shape& scalar = s.F32({});
  const Shape* params[] = {&scalar, &scalar};
  ProgramShapeView add{params, &scalar};
  ScatterDimensionNumbers d;
  d.update_window_dims = {1};
  d.inserted_window_dims = {0};
  d.scatter_dims_to_operand_dims = {0};
  d.index_vector_dim = 1;
  const Shape& operand = s.F32({3, 3});
  const Shape& indices = s.S32({2});
  const Shape& updates = s.F32({2, 3});
  const Shape* args[] = {&operand, &indices, &updates};
  REQUIRE(InferScatterShape(args, d, add, &out, &error));
  CHECK(Str(out) == "f32[3,3]");
  d.scatter_dims_to_operand_dims = {7};
  CHECK_FALSE(InferScatterShape(args, d, add, &out, &error));
  CHECK(error.find("scatter_dims_to_operand_dims") != std::string::npos);
  d.scatter_dims_to_operand_dims = {0};
  const Shape& big = s.F32({2, 4});
  const Shape* too_wide[] = {&operand, &indices, &big};
  CHECK_FALSE(InferScatterShape(too_wide, d, add, &out, &error));
}

TEST_CASE("sort comparator and operands", "[shape_inference]") {
  Shapes s;
  Shape out;
  std::string error;
  const Shape& f = s.F32({});
  const Shape& i = s.S32({});
  const Shape& pred = s.Array(PrimitiveType::kPred, {});
  const Shape& keys = s.F32({8});
  const Shape& values = s.S32({8});
  const Shape* operands[] = {&keys, &values};
  const Shape* params[] = {&f, &f, &i, &i};
  REQUIRE(InferSortShape(operands, 0, ProgramShapeView{params, &pred}, &out, &error));
  CHECK(Str(out) == "(f32[8], s32[8])");
  CHECK_FALSE(InferSortShape(operands, 1, ProgramShapeView{params, &pred}, &out, &error));
  CHECK_FALSE(InferSortShape(operands, 0, ProgramShapeView{params, &f}, &out, &error));
  const Shape* wrong[] = {&f, &f, &f, &f};
  CHECK_FALSE(InferSortShape(operands, 0, ProgramShapeView{wrong, &pred}, &out, &error));
}

TEST_CASE("collectives: all-gather, reduce-scatter, all-to-all", "[shape_inference]") {
  Shapes s;
  ShapeArena arena;
  Shape out;
  std::string error;
  const Shape& x = s.F32({4, 8});
  const Shape* one[] = {&x};
  REQUIRE(InferAllGatherShape(one, 1, 2, arena, &out, &error));
  CHECK(Str(out) == "f32[4,16]");
  REQUIRE(InferReduceScatterShape(one, 0, 2, arena, &out, &error));
  CHECK(Str(out) == "f32[2,8]");
  CHECK_FALSE(InferReduceScatterShape(one, 0, 3, arena, &out, &error));
  REQUIRE(InferAllToAllShape(x, 1, 4, &out, &error));
  CHECK(Str(out) == "f32[4,8]");
  CHECK_FALSE(InferAllToAllShape(x, 1, 3, &out, &error));
  const Shape& y = s.F32({4, 9});
  const Shape* mixed[] = {&x, &y};
  CHECK_FALSE(InferAllToAllTupleShape(mixed, &out, &error));
}
