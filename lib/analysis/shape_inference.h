// Shape inference for HLO instructions: pure functions over IR shapes that
// mirror xla/service/shape_inference.cc (ShapeInference::Infer*) and the
// checks ShapeVerifier makes for opcodes without an inference function
// (broadcast, reshape, iota). The verify-* rules compare the result with the
// shape written in the text.
//
// Conventions: every function writes its result to `*out` (overwritten; it
// must not alias an input) and returns true, or returns false with an
// XLA-style message in `*error`. Results have no layout. Tuple results point
// at shapes owned by the inputs or by the caller's ShapeArena. Nothing here
// allocates in the success path beyond the vectors of `out` (reused when the
// caller reuses `out`).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/opcode.h"
#include "ir/shape.h"
#include "parse/values.h"

namespace hlolint {

// Scratch shapes for inferred tuple elements. Reset() between instructions;
// the shapes' vectors keep their capacity.
class ShapeArena {
 public:
  Shape& New();
  void Reset() { used_ = 0; }

 private:
  std::vector<std::unique_ptr<Shape>> pool_;
  size_t used_ = 0;
};

// The parameter and result shapes of a called computation (ProgramShape).
struct ProgramShapeView {
  std::span<const Shape* const> parameters;
  const Shape* result = nullptr;
};

struct DotDimensionNumbers {
  std::vector<int64_t> lhs_contracting;
  std::vector<int64_t> rhs_contracting;
  std::vector<int64_t> lhs_batch;
  std::vector<int64_t> rhs_batch;
};

struct GatherDimensionNumbers {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> start_index_map;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;
  int64_t index_vector_dim = 0;
};

struct ScatterDimensionNumbers {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
  int64_t index_vector_dim = 0;
};

// "f32[2,3]" / "(f32[2], s32[])": ShapeUtil::HumanString.
std::string HumanString(const Shape& shape);
// True when some dimension of the shape (or a tuple element) is `?`.
bool HasUnboundedDimension(const Shape& shape);

// HasUnboundedDimension memoised per interned tuple shape: a big parameter
// tuple is the operand of every get-tuple-element that reads it, so
// recomputing would be quadratic.
class UnboundedShapeCache {
 public:
  bool Has(const Shape& shape);
  // True when instruction `id`'s shape is unknown (!has_known_shape) or has
  // a `?` dimension: the checks skip it. Asked for every instruction and
  // operand, so answered from one byte per interned shape of `m` (the same
  // module on every call).
  bool UnknownOrUnbounded(const Module& m, InstrId id) {
    const ShapeId shape = m.instr(id).shape;
    if (shape < skip_.size() && skip_[shape] != 0) return skip_[shape] == 2;
    return Classify(m, id);
  }

 private:
  bool Classify(const Module& m, InstrId id);
  std::vector<uint8_t> state_;  // by ShapeId: 0 unknown, 1 bounded, 2 unbounded
  std::vector<uint8_t> skip_;   // by the module's ShapeId: 0 unknown, 1 checked, 2 skipped
};
// IsElementwiseUnary(op) || IsElementwiseBinary(op), from a table: some
// checks ask it of every instruction.
std::array<bool, kOpcodeCount + 1> MakeElementwiseOpcodeTable();
inline bool IsElementwiseOpcode(Opcode op) {
  static const std::array<bool, kOpcodeCount + 1> kTable = MakeElementwiseOpcodeTable();
  return kTable[static_cast<size_t>(op)];
}

// ShapeUtil::SameElementTypeIgnoringFpPrecision for element types.
bool SameElementTypeIgnoringFpPrecision(PrimitiveType a, PrimitiveType b);

// --- element-wise ---
bool InferUnaryOpShape(Opcode opcode, const Shape& operand, Shape* out, std::string* error);
// Includes XLA's degenerate-dimension and scalar broadcasting; the
// "no implicit broadcast" rule is CheckElementwiseOperands.
bool InferBinaryOpShape(Opcode opcode, const Shape& lhs, const Shape& rhs, Shape* out,
                        std::string* error);
// Scalar min/max are accepted (older XLA and hlo_to_mhlo tests use them).
bool InferClampShape(const Shape& min, const Shape& operand, const Shape& max, Shape* out,
                     std::string* error);
// A scalar predicate is accepted (older XLA).
bool InferSelectShape(const Shape& pred, const Shape& on_true, const Shape& on_false, Shape* out,
                      std::string* error);
bool InferConvertShape(const Shape& operand, PrimitiveType new_type, Shape* out,
                       std::string* error);
bool InferBitcastConvertShape(const Shape& operand, PrimitiveType new_type, Shape* out,
                              std::string* error);
bool InferStochasticConvertShape(const Shape& operand, const Shape& random, PrimitiveType new_type,
                                 Shape* out, std::string* error);
bool InferReducePrecisionShape(const Shape& operand, int64_t exponent_bits, int64_t mantissa_bits,
                               Shape* out, std::string* error);
// InstructionVerifier's CheckElementwiseInstruction: every operand has the
// result's dimensions (element types ignored).
bool CheckElementwiseOperands(Opcode opcode, std::span<const Shape* const> operands,
                              const Shape& result, std::string* error);

// --- shape-manipulating ops ---
// ShapeVerifier::HandleBroadcast (with fp precision ignored, i.e. mixed
// precision allowed).
bool CheckBroadcastShape(const Shape& operand, std::span<const int64_t> dimensions,
                         const Shape& result, std::string* error);
// ShapeVerifier::HandleReshape: same element type (fp precision ignored) and
// element count.
bool CheckReshapeShape(const Shape& operand, const Shape& result, std::string* error);
bool InferTransposeShape(const Shape& operand, std::span<const int64_t> permutation, Shape* out,
                         std::string* error);
bool InferReverseShape(const Shape& operand, std::span<const int64_t> dimensions, Shape* out,
                       std::string* error);
bool InferSliceShape(const Shape& operand, std::span<const int64_t> starts,
                     std::span<const int64_t> limits, std::span<const int64_t> strides, Shape* out,
                     std::string* error);
bool InferDynamicSliceShape(const Shape& operand, std::span<const Shape* const> start_indices,
                            std::span<const int64_t> slice_sizes, Shape* out, std::string* error);
bool InferDynamicUpdateSliceShape(const Shape& operand, const Shape& update,
                                  std::span<const Shape* const> start_indices, Shape* out,
                                  std::string* error);
bool InferConcatenateShape(std::span<const Shape* const> operands, int64_t dimension, Shape* out,
                           std::string* error);
bool InferPadShape(const Shape& operand, const Shape& padding_value, const PaddingConfig& padding,
                   Shape* out, std::string* error);
// ShapeVerifier::HandleIota.
bool CheckIotaShape(const Shape& result, int64_t iota_dimension, std::string* error);
// Points *out at the element shape inside `tuple`.
bool InferGetTupleElementShape(const Shape& tuple, int64_t index, const Shape** out,
                               std::string* error);
void InferTupleShape(std::span<const Shape* const> elements, Shape* out);
bool InferGetDimensionSizeShape(const Shape& operand, int64_t dimension, Shape* out,
                                std::string* error);
bool InferSetDimensionSizeShape(const Shape& operand, const Shape& value, int64_t dimension,
                                Shape* out, std::string* error);

// --- contractions ---
// `preferred_type` is the instruction's own element type (HandleDot).
bool InferDotShape(const Shape& lhs, const Shape& rhs, const DotDimensionNumbers& dnums,
                   PrimitiveType preferred_type, Shape* out, std::string* error);
bool InferConvolutionShape(const Shape& lhs, const Shape& rhs, int64_t feature_group_count,
                           int64_t batch_group_count, const Window& window,
                           const ConvolutionDimensionNumbers& dnums, PrimitiveType preferred_type,
                           Shape* out, std::string* error);

// --- reductions and windows ---
bool VerifyReducerShape(const ProgramShapeView& reducer,
                        std::span<const Shape* const> init_values,
                        std::span<const PrimitiveType> input_element_types, int64_t inputs,
                        std::string* error);
bool InferWindowOutputShape(const Shape& base, const Window& window, PrimitiveType element_type,
                            Shape* out, std::string* error);
bool InferReduceShape(std::span<const Shape* const> operands, std::span<const int64_t> dimensions,
                      const ProgramShapeView& reducer, ShapeArena& arena, Shape* out,
                      std::string* error);
bool InferReduceWindowShape(std::span<const Shape* const> inputs,
                            std::span<const Shape* const> init_values, const Window& window,
                            const ProgramShapeView& reducer, ShapeArena& arena, Shape* out,
                            std::string* error);
bool InferSelectAndScatterShape(const Shape& operand, const ProgramShapeView& select,
                                const Window& window, const Shape& source, const Shape& init_value,
                                const ProgramShapeView& scatter, Shape* out, std::string* error);
bool InferMapShape(std::span<const Shape* const> operands, const ProgramShapeView& to_apply,
                   Shape* out, std::string* error);
// ShapeVerifier::HandleSort (comparator checks) and the variadic result.
bool InferSortShape(std::span<const Shape* const> operands, int64_t dimension,
                    const ProgramShapeView& comparator, Shape* out, std::string* error);
bool InferGatherShape(const Shape& input, const Shape& start_indices,
                      const GatherDimensionNumbers& dnums, std::span<const int64_t> slice_sizes,
                      Shape* out, std::string* error);
bool InferScatterShape(std::span<const Shape* const> operands, const ScatterDimensionNumbers& dnums,
                       const ProgramShapeView& to_apply, Shape* out, std::string* error);

// --- misc ---
bool InferTopKShape(const Shape& operand, int64_t k, ShapeArena& arena, Shape* out,
                    std::string* error);
bool InferCholeskyShape(const Shape& a, Shape* out, std::string* error);
bool InferTriangularSolveShape(const Shape& a, const Shape& b, bool left_side, Shape* out,
                               std::string* error);
// fft_type: FFT, IFFT, RFFT or IRFFT.
bool InferFftShape(const Shape& operand, std::string_view fft_type,
                   std::span<const int64_t> fft_length, Shape* out, std::string* error);
bool InferBatchNormShape(Opcode opcode, std::span<const Shape* const> operands,
                         int64_t feature_index, ShapeArena& arena, Shape* out, std::string* error);

// --- collectives ---
// all-gather: each operand with `dimension` multiplied by shard_count.
bool InferAllGatherShape(std::span<const Shape* const> operands, int64_t dimension,
                         int64_t shard_count, ShapeArena& arena, Shape* out, std::string* error);
bool InferReduceScatterShape(std::span<const Shape* const> operands, int64_t dimension,
                             int64_t shard_count, ShapeArena& arena, Shape* out,
                             std::string* error);
bool InferAllReduceShape(std::span<const Shape* const> operands, Shape* out, std::string* error);
bool InferAllToAllShape(const Shape& operand, int64_t split_dimension, int64_t split_count,
                        Shape* out, std::string* error);
bool InferAllToAllTupleShape(std::span<const Shape* const> operands, Shape* out,
                             std::string* error);

}  // namespace hlolint
