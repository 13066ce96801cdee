// The layout arithmetic of lib/analysis/bitcast.h on hand-checked cases
// (xla-semantics.md B.3 and the behaviour of XLA's shape_util functions).
#include <catch2/catch.hpp>

#include "analysis/bitcast.h"
#include "bitcast_test_util.h"

using namespace hlolint;
using hlolint::testing::ArrayShape;
using V = std::vector<int64_t>;

TEST_CASE("ReshapeIsBitcast: worked examples", "[bitcast]") {
  // operand, result, expected
  struct Case {
    Shape a, b;
    bool bitcast;
  };
  const PrimitiveType f16 = PrimitiveType::kF16;
  std::vector<Case> cases = {
      {ArrayShape({6, 4}, V{1, 0}), ArrayShape({24}, V{0}), true},
      {ArrayShape({6, 4}, V{0, 1}), ArrayShape({24}, V{0}), false},
      {ArrayShape({6, 4}, V{0, 1}), ArrayShape({2, 3, 4}, V{1, 0, 2}), true},
      {ArrayShape({6, 4}, V{0, 1}), ArrayShape({3, 2, 4}, V{0, 1, 2}), false},
      {ArrayShape({1, 8}, V{0, 1}), ArrayShape({8}, V{0}), true},
      {ArrayShape({2, 3, 4}, V{1, 2, 0}), ArrayShape({6, 4}, V{1, 0}), false},
      {ArrayShape({2048, 4096}, V{1, 0}, f16), ArrayShape({2048, 32, 128}, V{2, 1, 0}, f16), true},
      {ArrayShape({2048, 4096}, V{1, 0}, f16), ArrayShape({2048, 32, 128}, V{1, 2, 0}, f16), false},
      {ArrayShape({16, 128, 4096}, V{2, 1, 0}, f16),
       ArrayShape({16, 128, 32, 128}, V{2, 3, 1, 0}, f16), false},
      {ArrayShape({16, 128, 4096}, V{2, 1, 0}, f16),
       ArrayShape({16, 128, 32, 128}, V{3, 2, 1, 0}, f16), true},
      {ArrayShape({16, 128, 128}, V{2, 1, 0}, f16),
       ArrayShape({16, 128, 1, 128}, V{2, 3, 1, 0}, f16), true},
      {ArrayShape({8, 512, 64}, V{2, 1, 0}, f16), ArrayShape({8, 512, 1, 64}, V{2, 3, 1, 0}, f16),
       true},
      {ArrayShape({3, 2, 2}, V{0, 1, 2}), ArrayShape({6, 2}, V{0, 1}), false},
      {ArrayShape({1, 16, 17, 3}, V{3, 2, 1, 0}), ArrayShape({16, 51}, V{1, 0}), true},
      {ArrayShape({17, 3, 1, 16}, V{1, 0, 3, 2}), ArrayShape({51, 16}, V{0, 1}), true},
      // Zero elements: always a bitcast, whatever the layouts.
      {ArrayShape({0, 4}, V{0, 1}), ArrayShape({4, 0}, V{1, 0}), true},
      // Scalars and all-ones shapes.
      {ArrayShape({}, V{}), ArrayShape({1, 1}, V{0, 1}), true},
      // Without written layouts both sides are descending: always a bitcast.
      {ArrayShape({6, 4}), ArrayShape({2, 3, 4}), true},
      {ArrayShape({6, 4}), ArrayShape({2, 3, 4}, V{1, 2, 0}), false},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i << ": " << ShapeToString(cases[i].a) << " -> "
                 << ShapeToString(cases[i].b));
    CHECK(ReshapeIsBitcast(cases[i].a, cases[i].b) == cases[i].bitcast);
    CHECK(ReshapeIsBitcast(cases[i].b, cases[i].a) == cases[i].bitcast);
  }
}

TEST_CASE("ReshapeIsBitcast: element type and count", "[bitcast]") {
  const Shape f32 = ArrayShape({6, 4}, V{1, 0});
  const Shape s32 = ArrayShape({24}, V{0}, PrimitiveType::kS32);
  CHECK(CheckReshapeIsBitcast(f32, s32).verdict ==
        ReshapeBitcastCheck::Verdict::kElementTypeDiffers);
  CHECK(ReshapeIsBitcast(f32, s32, /*ignore_element_type=*/true));
  CHECK(CheckReshapeIsBitcast(f32, ArrayShape({25}, V{0})).verdict ==
        ReshapeBitcastCheck::Verdict::kElementCountDiffers);
  Shape tuple;
  tuple.element_type = PrimitiveType::kTuple;
  CHECK(CheckReshapeIsBitcast(f32, tuple).verdict == ReshapeBitcastCheck::Verdict::kUnsupported);
  // A layout that is not a permutation is not reasoned about.
  CHECK(CheckReshapeIsBitcast(f32, ArrayShape({24, 1}, V{0, 0})).verdict ==
        ReshapeBitcastCheck::Verdict::kUnsupported);
}

TEST_CASE("CheckReshapeIsBitcast: evidence for the seed reshape", "[bitcast]") {
  // LayoutNormalization calls ReshapeIsBitcast(result, operand): the
  // result's unit indices are checked first.
  const PrimitiveType f16 = PrimitiveType::kF16;
  const Shape operand = ArrayShape({16, 128, 4096}, V{2, 1, 0}, f16);
  const Shape result = ArrayShape({16, 128, 32, 128}, V{2, 3, 1, 0}, f16);
  ReshapeBitcastCheck check = CheckReshapeIsBitcast(result, operand);
  REQUIRE(check.verdict == ReshapeBitcastCheck::Verdict::kUnitIndexMoves);
  CHECK_FALSE(check.unit_of_output);  // a unit index of the first argument (the result)
  CHECK(check.dimension == 2);
  CHECK(check.unit_index == V{0, 0, 1, 0});
  CHECK(check.logical_offset == 128);
  CHECK(check.other_index == V{0, 0, 128});
  CHECK(check.unit_physical == 1);
  CHECK(check.other_physical == 128);

  // The other argument order reports from the operand's side first:
  // operand dim 2 (4096): unit (0,0,1) -> result (0,0,0,1), physical 1 vs 32.
  check = CheckReshapeIsBitcast(operand, result);
  REQUIRE(check.verdict == ReshapeBitcastCheck::Verdict::kUnitIndexMoves);
  CHECK_FALSE(check.unit_of_output);
  CHECK(check.dimension == 2);
  CHECK(check.unit_index == V{0, 0, 1});
  CHECK(check.other_index == V{0, 0, 0, 1});
  CHECK(check.unit_physical == 1);
  CHECK(check.other_physical == 32);
}

TEST_CASE("CheckReshapeIsBitcast: evidence names real offsets", "[bitcast]") {
  // f32[6,4]{0,1} -> f32[3,2,4]{0,1,2}: the operand's unit index (1,0) is
  // logical element 4, (0,1,0) in the result: physical 1 vs 3.
  ReshapeBitcastCheck check =
      CheckReshapeIsBitcast(ArrayShape({6, 4}, V{0, 1}), ArrayShape({3, 2, 4}, V{0, 1, 2}));
  REQUIRE(check.verdict == ReshapeBitcastCheck::Verdict::kUnitIndexMoves);
  CHECK_FALSE(check.unit_of_output);
  CHECK(check.unit_index == V{1, 0});
  CHECK(check.other_index == V{0, 1, 0});
  CHECK(check.unit_physical == 1);
  CHECK(check.other_physical == 3);
  // Size-1 dims are skipped: f32[1,4]{1,0} -> f32[2,2]{0,1} is decided by
  // the operand's dim 1: (0,1) at 1 vs (0,1) at 2.
  check = CheckReshapeIsBitcast(ArrayShape({1, 4}, V{1, 0}), ArrayShape({2, 2}, V{0, 1}));
  REQUIRE(check.verdict == ReshapeBitcastCheck::Verdict::kUnitIndexMoves);
  CHECK(check.dimension == 1);
  CHECK(check.unit_physical == 1);
  CHECK(check.other_physical == 2);
}

TEST_CASE("CheckReshapeIsBitcast: failures found from the output side", "[bitcast]") {
  // Search small shapes for reshapes whose input unit indices all agree but
  // an output unit index does not (why XLA checks both directions); the
  // evidence must then come from the output side and name real offsets.
  bool found = false;
  const std::vector<std::vector<int64_t>> dims_list = {{2, 2, 2}, {4, 2}, {2, 4}, {8}};
  auto perms = [](int64_t rank) {
    std::vector<V> out;
    V p;
    for (int64_t i = 0; i < rank; ++i) p.push_back(i);
    do out.push_back(p);
    while (std::next_permutation(p.begin(), p.end()));
    return out;
  };
  for (const V& da : dims_list) {
    for (const V& db : dims_list) {
      for (const V& pa : perms(static_cast<int64_t>(da.size()))) {
        for (const V& pb : perms(static_cast<int64_t>(db.size()))) {
          const Shape a = ArrayShape(da, pa);
          const Shape b = ArrayShape(db, pb);
          const ReshapeBitcastCheck check = CheckReshapeIsBitcast(a, b);
          if (check.verdict == ReshapeBitcastCheck::Verdict::kUnitIndexMoves &&
              check.unit_of_output) {
            found = true;
            // The evidence is real: the two elements differ in offset.
            CHECK(PhysicalOffset(b, check.unit_index) == check.unit_physical);
            CHECK(PhysicalOffset(a, check.other_index) == check.other_physical);
            CHECK(check.unit_physical != check.other_physical);
          }
        }
      }
    }
  }
  CHECK(found);
}

TEST_CASE("AlignLayouts: XLA's alignment cases", "[bitcast]") {
  const Shape input = ArrayShape({3, 8, 5, 7, 11}, V{3, 2, 1, 0, 4});
  std::optional<Shape> aligned = AlignLayouts(input, ArrayShape({4, 3, 2, 7, 5, 11}));
  REQUIRE(aligned);
  CHECK(aligned->layout.minor_to_major == V{4, 3, 2, 1, 0, 5});
  CHECK(ReshapeIsBitcast(input, *aligned));

  aligned = AlignLayouts(input, ArrayShape({3, 2, 4, 35, 11}));
  REQUIRE(aligned);
  CHECK(aligned->layout.minor_to_major == V{3, 2, 1, 0, 4});
  CHECK(ReshapeIsBitcast(input, *aligned));

  // Groups not in logical order inside the input layout: no alignment.
  CHECK_FALSE(AlignLayouts(ArrayShape({3, 8, 5, 7, 11}, V{2, 3, 1, 0, 4}),
                           ArrayShape({4, 3, 2, 7, 5, 11})));
  // A group whose input dims are not adjacent in memory: no alignment.
  CHECK_FALSE(AlignLayouts(input, ArrayShape({4, 3, 2, 5, 77})));

  // Size-1 dims anywhere.
  const Shape ones = ArrayShape({1, 3, 8, 1, 5, 7, 1, 11, 1, 1}, V{5, 0, 4, 2, 1, 3, 6, 7, 9, 8});
  aligned = AlignLayouts(ones, ArrayShape({1, 4, 1, 3, 2, 7, 5, 11, 1}));
  REQUIRE(aligned);
  CHECK(ReshapeIsBitcast(ones, *aligned));
  // The output's size-1 dims go last (most major), highest number first.
  CHECK(aligned->layout.minor_to_major.size() == 9);
  CHECK(V(aligned->layout.minor_to_major.end() - 3, aligned->layout.minor_to_major.end()) ==
        V{8, 2, 0});

  const Shape all_ones = ArrayShape({1, 1, 1, 1}, V{0, 1, 3, 2});
  aligned = AlignLayouts(all_ones, ArrayShape({1, 1, 1, 1, 1}));
  REQUIRE(aligned);
  CHECK(aligned->layout.minor_to_major == V{4, 3, 2, 1, 0});
  CHECK(ReshapeIsBitcast(all_ones, *aligned));

  // Different element counts: nothing to align.
  CHECK_FALSE(AlignLayouts(ArrayShape({2, 3}), ArrayShape({7})));
}

TEST_CASE("AlignLayouts: the seed reshape", "[bitcast]") {
  const PrimitiveType f16 = PrimitiveType::kF16;
  const Shape operand = ArrayShape({16, 128, 4096}, V{2, 1, 0}, f16);
  const Shape result = ArrayShape({16, 128, 32, 128}, V{2, 3, 1, 0}, f16);
  // The result's group {2,3} is not in logical order: no operand layout works.
  CHECK_FALSE(AlignLayouts(result, operand));
  std::optional<Shape> aligned = AlignLayouts(operand, result);
  REQUIRE(aligned);
  CHECK(aligned->layout.minor_to_major == V{3, 2, 1, 0});
  CHECK(ShapeToString(*aligned) == "f16[16,128,32,128]{3,2,1,0}");
}

TEST_CASE("CommonFactors", "[bitcast]") {
  using P = std::vector<std::pair<int64_t, int64_t>>;
  CHECK(CommonFactors(V{2, 3}, V{2, 3}) == P{{0, 0}, {1, 1}, {2, 2}});
  CHECK(CommonFactors(V{7, 9, 2, 15}, V{63, 6, 5}) == P{{0, 0}, {2, 1}, {4, 3}});
  CHECK(CommonFactors(V{2, 0, 3}, V{0, 6}) == P{{0, 0}, {3, 2}});
  CHECK(CommonFactors(V{}, V{}) == P{{0, 0}});
}

TEST_CASE("TransposeIsBitcast and DeduceTransposeDimensionsForBitcast", "[bitcast]") {
  const Shape input = ArrayShape({3, 7, 6, 4}, V{3, 2, 1, 0});
  const Shape output = ArrayShape({3, 6, 4, 7}, V{2, 1, 3, 0});
  std::optional<V> perm = DeduceTransposeDimensionsForBitcast(input, output);
  REQUIRE(perm);
  CHECK(*perm == V{0, 2, 3, 1});
  CHECK(TransposeIsBitcast(input, output, *perm));
  CHECK_FALSE(TransposeIsBitcast(input, output, V{0, 1, 2, 3}));
  // Dimensions that do not follow the permutation: no transpose.
  CHECK_FALSE(DeduceTransposeDimensionsForBitcast(input, ArrayShape({3, 7, 4, 6}, V{2, 1, 3, 0})));
  // Different ranks.
  CHECK_FALSE(DeduceTransposeDimensionsForBitcast(input, ArrayShape({21, 24})));
  // Plain {1,0} -> {0,1} transpose of a matrix is a bitcast.
  CHECK(TransposeIsBitcast(ArrayShape({2, 3}, V{1, 0}), ArrayShape({3, 2}, V{0, 1}), V{1, 0}));
  // Size-1 dims are not special here (unlike ReshapeIsBitcast).
  CHECK_FALSE(
      TransposeIsBitcast(ArrayShape({1, 3}, V{1, 0}), ArrayShape({1, 3}, V{0, 1}), V{0, 1}));
  // Element types must match unless ignored.
  const Shape s32 = ArrayShape({3, 2}, V{0, 1}, PrimitiveType::kS32);
  CHECK_FALSE(TransposeIsBitcast(ArrayShape({2, 3}, V{1, 0}), s32, V{1, 0}));
  CHECK(TransposeIsBitcast(ArrayShape({2, 3}, V{1, 0}), s32, V{1, 0}, true));
}

TEST_CASE("DecomposeReshape: the four ReshapeDecomposer cases", "[bitcast]") {
  using Kind = ReshapeDecomposition::Kind;
  const PrimitiveType f16 = PrimitiveType::kF16;
  // 1: already a bitcast.
  CHECK(DecomposeReshape(ArrayShape({6, 4}, V{1, 0}), ArrayShape({24}, V{0})).kind ==
        Kind::kAlreadyBitcast);
  // 3 (the seed): reshape to {3,2,1,0}, then copy.
  ReshapeDecomposition d = DecomposeReshape(ArrayShape({16, 128, 4096}, V{2, 1, 0}, f16),
                                            ArrayShape({16, 128, 32, 128}, V{2, 3, 1, 0}, f16));
  REQUIRE(d.kind == Kind::kCopyResult);
  CHECK(ShapeToString(*d.bitcast_result) == "f16[16,128,32,128]{3,2,1,0}");
  CHECK_FALSE(d.operand_copy);
  // 2: the operand can be copied to a layout the result bitcasts from.
  // Merge f32[4,6]{0,1} -> f32[24]{0}: AlignLayouts(result, operand) gives
  // the operand {1,0}.
  d = DecomposeReshape(ArrayShape({4, 6}, V{0, 1}), ArrayShape({24}, V{0}));
  REQUIRE(d.kind == Kind::kCopyOperand);
  CHECK(ShapeToString(*d.operand_copy) == "f32[4,6]{1,0}");
  CHECK(ReshapeIsBitcast(*d.operand_copy, ArrayShape({24}, V{0})));
  // Splitting a single dim can always be aligned on the operand side:
  // f32[2,3,4]{1,2,0} -> f32[6,4]{0,1} copies the operand to {1,0,2}.
  d = DecomposeReshape(ArrayShape({2, 3, 4}, V{1, 2, 0}), ArrayShape({6, 4}, V{0, 1}));
  REQUIRE(d.kind == Kind::kCopyOperand);
  CHECK(ShapeToString(*d.operand_copy) == "f32[2,3,4]{1,0,2}");
  // 4: neither side can be aligned: both sides of the one group [2,3] <->
  // [3,2] are column-major.
  d = DecomposeReshape(ArrayShape({2, 3}, V{0, 1}), ArrayShape({3, 2}, V{0, 1}));
  REQUIRE(d.kind == Kind::kCopyBoth);
  CHECK(ShapeToString(*d.operand_copy) == "f32[2,3]{1,0}");
  CHECK(ShapeToString(*d.bitcast_result) == "f32[3,2]{1,0}");
}

TEST_CASE("Physical and logical offsets", "[bitcast]") {
  const Shape col_major = ArrayShape({2, 3}, V{0, 1});
  CHECK(PhysicalOffset(col_major, V{1, 0}) == 1);
  CHECK(PhysicalOffset(col_major, V{0, 1}) == 2);
  CHECK(PhysicalOffset(ArrayShape({2, 3}), V{0, 1}) == 1);  // no layout: row-major
  CHECK(LogicalOffset(V{2, 3, 4}, V{1, 2, 3}) == 23);
  CHECK(LogicalIndex(V{2, 3, 4}, 23) == V{1, 2, 3});
  CHECK(MinorToMajor(ArrayShape({5, 6, 7})) == V{2, 1, 0});
  CHECK(ComposePermutations(V{10, 20, 30}, V{2, 0, 1}) == V{30, 10, 20});
  CHECK(InversePermutation(V{2, 0, 1}) == V{1, 2, 0});
}
