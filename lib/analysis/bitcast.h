// When a reshape or transpose moves no data: XLA's layout arithmetic from
// xla/shape_util.cc (ShapeUtil::ReshapeIsBitcast, AlignLayouts,
// TransposeIsBitcast, DeduceTransposeDimensionsForBitcast) and the rewrite
// xla/service/reshape_decomposer.cc makes of a reshape that is not a bitcast.
//
// XLA CHECK-fails when a shape has no layout; here a shape without a written
// layout has the default descending one, as XLA's parser gives it. Functions
// on non-array shapes, negative (unbounded) dimensions or element counts that
// overflow int64 answer "no" instead of failing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/shape.h"

namespace hlolint {

// The layout XLA uses: the written minor_to_major, else {rank-1, ..., 0}.
std::vector<int64_t> MinorToMajor(const Shape& shape);
// "{3,2,1,0}".
std::string MinorToMajorString(std::span<const int64_t> minor_to_major);
// `shape` with `minor_to_major` as its (only) layout information.
Shape WithLayout(const Shape& shape, std::vector<int64_t> minor_to_major);
// `shape` with the descending layout {rank-1, ..., 0}.
Shape WithDescendingLayout(const Shape& shape);

// IndexUtil::MultidimensionalIndexToLinearIndex: the element's position in
// memory, in elements, under the shape's layout.
int64_t PhysicalOffset(const Shape& shape, std::span<const int64_t> index);
// Position of `index` in row-major (dimension 0 most major) order, and back.
int64_t LogicalOffset(std::span<const int64_t> dims, std::span<const int64_t> index);
std::vector<int64_t> LogicalIndex(std::span<const int64_t> dims, int64_t offset);

// xla/permutation_util.h: ComposePermutations(p1, p2)[i] = p1[p2[i]];
// InversePermutation(p)[p[i]] = i.
std::vector<int64_t> ComposePermutations(std::span<const int64_t> p1,
                                         std::span<const int64_t> p2);
std::vector<int64_t> InversePermutation(std::span<const int64_t> permutation);

// xla/util.h CommonFactors: the boundaries (i, j) that split `a` and `b` into
// groups of equal product. Requires equal products.
std::vector<std::pair<int64_t, int64_t>> CommonFactors(std::span<const int64_t> a,
                                                       std::span<const int64_t> b);

// The answer of ShapeUtil::ReshapeIsBitcast with the reason behind it.
struct ReshapeBitcastCheck {
  enum class Verdict : uint8_t {
    kBitcast,
    kElementTypeDiffers,
    kElementCountDiffers,
    kUnitIndexMoves,  // some element changes its physical offset
    kUnsupported,     // not arrays, unbounded dims or element count overflow
  };
  Verdict verdict = Verdict::kBitcast;
  // For kUnitIndexMoves, the first unit index XLA finds out of place, in
  // XLA's order: the input's unit indices first (checked against the
  // output), then the output's (checked against the input).
  bool unit_of_output = false;    // the unit index belongs to the output shape
  int64_t dimension = -1;         // its non-zero dimension
  std::vector<int64_t> unit_index;   // in its own shape
  std::vector<int64_t> other_index;  // the same logical element in the other shape
  int64_t logical_offset = 0;     // row-major position of that element
  int64_t unit_physical = 0;      // physical offset of unit_index in its shape
  int64_t other_physical = 0;     // physical offset of other_index in the other shape

  bool is_bitcast() const { return verdict == Verdict::kBitcast; }
};

// ShapeUtil::ReshapeIsBitcast(input, output, ignore_element_type): true when
// reshaping `input` to `output` keeps every element at its physical offset.
// Only dimensions and minor_to_major matter (tiles, memory space and element
// size are not consulted, as in XLA). Symmetric in its arguments.
ReshapeBitcastCheck CheckReshapeIsBitcast(const Shape& input, const Shape& output,
                                          bool ignore_element_type = false);
bool ReshapeIsBitcast(const Shape& input, const Shape& output, bool ignore_element_type = false);

// ShapeUtil::AlignLayouts(input, output): `output` with a layout that makes
// the reshape input -> output a bitcast, or nullopt when there is none that
// keeps every common-factor group of `input` in logical order.
std::optional<Shape> AlignLayouts(const Shape& input, const Shape& output);

// ShapeUtil::TransposeIsBitcast(input, output, dimension_mapping).
bool TransposeIsBitcast(const Shape& input, const Shape& output,
                        std::span<const int64_t> dimension_mapping,
                        bool ignore_element_type = false);
// ShapeUtil::DeduceTransposeDimensionsForBitcast(input, output): the
// transpose permutation that makes input -> output a bitcast, if any.
std::optional<std::vector<int64_t>> DeduceTransposeDimensionsForBitcast(const Shape& input,
                                                                        const Shape& output);

// What ReshapeDecomposerVisitor::HandleReshape does with `reshape(operand)`
// of shape `result` (xla/service/reshape_decomposer.cc).
struct ReshapeDecomposition {
  enum class Kind : uint8_t {
    kAlreadyBitcast,  // left alone
    kCopyOperand,     // copy(operand) to operand_copy, then a bitcast reshape to result
    kCopyResult,      // bitcast reshape to bitcast_result, then copy to result
    kCopyBoth,        // copy to descending operand_copy, bitcast reshape to
                      // descending bitcast_result, copy to result
  };
  Kind kind = Kind::kAlreadyBitcast;
  std::optional<Shape> operand_copy;
  std::optional<Shape> bitcast_result;
};
ReshapeDecomposition DecomposeReshape(const Shape& operand, const Shape& result);

}  // namespace hlolint
