// ShapeChecker: contractions, reductions, gather/scatter and the remaining
// opcodes with a ShapeVerifier handler.
#include "rules/checks/shape_checker.h"
#include "parse/attributes.h"
#include "util/strings.h"

namespace hlolint {
namespace {

bool IsToken(const Shape& shape) { return shape.IsToken(); }

// HandleScaledDot: a scale that is "no-op" (bf16 like its operand, all
// dimensions 1, operand not all 1) is skipped; otherwise it must have the
// operand's rank and divide its dimensions.
bool CheckScale(const Shape& operand, const Shape& scale, std::span<const int64_t> contracting,
                std::string_view side, std::string* error) {
  bool all_one = true;
  for (int64_t d : scale.dimensions) all_one &= d == 1;
  bool operand_all_one = true;
  for (int64_t d : operand.dimensions) operand_all_one &= d == 1;
  if (scale.element_type == PrimitiveType::kBF16 && operand.element_type == PrimitiveType::kBF16 &&
      all_one && !operand_all_one) {
    return true;
  }
  if (scale.rank() != operand.rank()) {
    *error = StrCat("The ", side, " scale ", HumanString(scale),
                    " has a different number of dimensions than operand ", HumanString(operand));
    return false;
  }
  if (contracting.size() != 1) {
    *error = StrCat("scaled-dot needs exactly one ", side, " contracting dimension");
    return false;
  }
  for (int i = 0; i < operand.rank(); ++i) {
    if (scale.dimensions[i] == 0 || operand.dimensions[i] % scale.dimensions[i] != 0) {
      *error = StrCat("The ", side, " operand dimension ", i, " (", operand.dimensions[i],
                      ") should be a multiple of dimension ", i, " of the scale (",
                      scale.dimensions[i], ")");
      return false;
    }
  }
  return true;
}

}  // namespace

bool ShapeChecker::CheckComputeOps(InstrId id, VerifyFinding* f) {
  const Opcode op = m_.opcode(id);
  const Shape& result = m_.shape(id);
  std::span<const CompId> called = m_.called(id);
  ProgramShapeView program;
  switch (op) {
    case Opcode::kDot: case Opcode::kScaledDot: {
      const bool scaled = op == Opcode::kScaledDot;
      const char* check = scaled ? "ShapeVerifier::HandleScaledDot" : "ShapeVerifier::HandleDot";
      // Sparse dots (older XLA) carry metadata operands: not modelled.
      if (operands_.size() != (scaled ? 4u : 2u)) return true;
      DotDimensionNumbers& dnums = dot_;
      Ints(id, AttrName::kLhsContractingDims, &dnums.lhs_contracting);
      Ints(id, AttrName::kRhsContractingDims, &dnums.rhs_contracting);
      Ints(id, AttrName::kLhsBatchDims, &dnums.lhs_batch);
      Ints(id, AttrName::kRhsBatchDims, &dnums.rhs_batch);
      if (scaled) {
        if (!CheckScale(operand(0), operand(2), dnums.lhs_contracting, "lhs", &error_) ||
            !CheckScale(operand(1), operand(3), dnums.rhs_contracting, "rhs", &error_)) {
          return InferenceFailed(check, f);
        }
        if (operand(2).IsScalar() && operand(3).IsScalar()) {
          return Fail(check, "At least one of the scales should be not a scalar", f);
        }
      }
      if (!InferDotShape(operand(0), operand(1), dnums, result.element_type, &inferred_,
                         &error_)) {
        return InferenceFailed(check, f);
      }
      return Compare(id, inferred_, false, check, f);
    }
    case Opcode::kConvolution: {
      std::optional<ConvolutionDimensionNumbers> dnums = DimLabelsAttr(m_, id);
      if (!dnums || operands_.size() != 2) return true;
      std::optional<Window> window = WindowAttr(m_, id);
      if (!InferConvolutionShape(operand(0), operand(1),
                                 IntAttr(m_, id, AttrName::kFeatureGroupCount).value_or(1),
                                 IntAttr(m_, id, AttrName::kBatchGroupCount).value_or(1),
                                 window ? *window : Window(), *dnums, result.element_type,
                                 &inferred_, &error_)) {
        InferenceFailed("ShapeVerifier::HandleConvolution", f);
        f->warning = true;
        return false;
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleConvolution", f);
    }
    case Opcode::kReduce: {
      if (called.empty() || !Signature(called[0], &program)) return true;
      const std::vector<int64_t>& dims = Ints(id, AttrName::kDimensions, &ints_);
      if (!InferReduceShape(operands_, dims, program, arena_, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleReduce", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleReduce", f);
    }
    case Opcode::kReduceWindow: {
      if (called.empty() || !Signature(called[0], &program)) return true;
      if (operands_.size() % 2) return true;
      const size_t half = operands_.size() / 2;
      std::optional<Window> window = WindowAttr(m_, id);
      if (!InferReduceWindowShape(std::span(operands_).first(half),
                                  std::span(operands_).subspan(half),
                                  window ? *window : Window(), program, arena_, &inferred_,
                                  &error_)) {
        return InferenceFailed("ShapeVerifier::HandleReduceWindow", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleReduceWindow", f);
    }
    case Opcode::kSelectAndScatter: {
      ProgramShapeView scatter;
      if (called.size() != 2 || !Signature(called[0], &program) ||
          !Signature(called[1], &scatter, 1)) {
        return true;
      }
      std::optional<Window> window = WindowAttr(m_, id);
      if (!InferSelectAndScatterShape(operand(0), program, window ? *window : Window(),
                                      operand(1), operand(2), scatter, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleSelectAndScatter", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleSelectAndScatter", f);
    }
    case Opcode::kMap: {
      if (called.empty() || !Signature(called[0], &program)) return true;
      if (!InferMapShape(operands_, program, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleMap", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleMap", f);
    }
    case Opcode::kSort: {
      if (called.empty() || !Signature(called[0], &program)) return true;
      const std::vector<int64_t>& dims = Ints(id, AttrName::kDimensions, &ints_);
      if (dims.size() != 1) return true;
      if (!InferSortShape(operands_, dims[0], program, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleSort", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleSort", f);
    }
    case Opcode::kGather: {
      GatherDimensionNumbers& dnums = gather_;
      Ints(id, AttrName::kOffsetDims, &dnums.offset_dims);
      Ints(id, AttrName::kCollapsedSliceDims, &dnums.collapsed_slice_dims);
      Ints(id, AttrName::kStartIndexMap, &dnums.start_index_map);
      Ints(id, AttrName::kOperandBatchingDims, &dnums.operand_batching_dims);
      Ints(id, AttrName::kStartIndicesBatchingDims, &dnums.start_indices_batching_dims);
      dnums.index_vector_dim = IntAttr(m_, id, AttrName::kIndexVectorDim).value_or(0);
      const std::vector<int64_t>& sizes = Ints(id, AttrName::kSliceSizes, &ints_);
      if (!InferGatherShape(operand(0), operand(1), dnums, sizes, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleGather", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleGather", f);
    }
    case Opcode::kScatter: {
      if (called.empty() || !Signature(called[0], &program)) return true;
      ScatterDimensionNumbers& dnums = scatter_;
      Ints(id, AttrName::kUpdateWindowDims, &dnums.update_window_dims);
      Ints(id, AttrName::kInsertedWindowDims, &dnums.inserted_window_dims);
      Ints(id, AttrName::kScatterDimsToOperandDims, &dnums.scatter_dims_to_operand_dims);
      Ints(id, AttrName::kInputBatchingDims, &dnums.input_batching_dims);
      Ints(id, AttrName::kScatterIndicesBatchingDims, &dnums.scatter_indices_batching_dims);
      dnums.index_vector_dim = IntAttr(m_, id, AttrName::kIndexVectorDim).value_or(0);
      if (!InferScatterShape(operands_, dnums, program, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleScatter", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleScatter", f);
    }
    case Opcode::kTopK: {
      std::optional<int64_t> k = IntAttr(m_, id, AttrName::kK);
      if (!k) return true;
      if (!InferTopKShape(operand(0), *k, arena_, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleTopK", f, AttrName::kK);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleTopK", f);
    }
    case Opcode::kCholesky:
      if (!InferCholeskyShape(operand(0), &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleCholesky", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleCholesky", f);
    case Opcode::kTriangularSolve:
      if (!InferTriangularSolveShape(operand(0), operand(1),
                                     BoolAttr(m_, id, AttrName::kLeftSide).value_or(false),
                                     &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleTriangularSolve", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleTriangularSolve", f);
    case Opcode::kFft: {
      std::optional<std::string_view> type = IdentAttr(m_, id, AttrName::kFftType);
      if (!type) return true;
      const std::vector<int64_t>& length = Ints(id, AttrName::kFftLength, &ints_);
      if (!InferFftShape(operand(0), *type, length, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleFft", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleFft", f);
    }
    case Opcode::kBatchNormTraining: case Opcode::kBatchNormInference:
    case Opcode::kBatchNormGrad: {
      std::optional<int64_t> feature = IntAttr(m_, id, AttrName::kFeatureIndex);
      if (!feature) return true;
      if (!InferBatchNormShape(op, operands_, *feature, arena_, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleBatchNorm", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleBatchNorm", f);
    }
    default:
      return CheckMisc(id, f);
  }
}

bool ShapeChecker::CheckMisc(InstrId id, VerifyFinding* f) {
  const Opcode op = m_.opcode(id);
  const Shape& result = m_.shape(id);
  switch (op) {
    case Opcode::kRng: {
      const char* check = "ShapeVerifier::HandleRng";
      // An older form passes the shape as a third operand; its count is
      // left to the parser.
      if (operands_.size() != 2) return true;
      if (!operand(0).IsScalar() || !operand(1).IsScalar()) {
        return Fail(check, "Expected scalar types for the two operands of Rng instruction", f);
      }
      const PrimitiveType t = operand(0).element_type;
      if (t != operand(1).element_type ||
          !SameElementTypeIgnoringFpPrecision(t, result.element_type)) {
        return Fail(check, "Expected compatible element types for the result and the two "
                           "operands of Rng instruction", f);
      }
      std::optional<std::string_view> distribution = IdentAttr(m_, id, AttrName::kDistribution);
      if (distribution && *distribution == "rng_normal" && !IsFloatingPoint(t)) {
        return Fail(check, StrCat("Element type not supported. Expected element to be "
                                  "FloatingPointType for RngNormal, got ", PrimitiveTypeName(t)),
                    f);
      }
      if (distribution && *distribution == "rng_uniform" && !IsFloatingPoint(t) &&
          !IsInteger(t) && t != PrimitiveType::kPred) {
        return Fail(check, StrCat("Element type not supported for RngUniform: ",
                                  PrimitiveTypeName(t)), f);
      }
      return true;
    }
    case Opcode::kRngBitGenerator:
      if (!result.IsTuple()) return true;
      if (result.tuple_shapes.size() != 2) {
        return Fail("ShapeVerifier::HandleRngBitGenerator",
                    StrCat("Expected tuple shape with 2 elements for RngBitGenerator. Got: ",
                           HumanString(result)), f);
      }
      if (!Compatible(operand(0), *result.tuple_shapes[0])) {
        return Fail("ShapeVerifier::HandleRngBitGenerator",
                    StrCat("Expected state shape to match between input and output for "
                           "RngBitGenerator. Got ", HumanString(operand(0)), " vs. ",
                           HumanString(*result.tuple_shapes[0])), f);
      }
      return true;
    case Opcode::kRngGetAndUpdateState:
      if (!(result.IsArray() && result.element_type == PrimitiveType::kU64 &&
            result.dimensions == std::vector<int64_t>{2})) {
        return Fail("ShapeVerifier::HandleRngGetAndUpdateState",
                    StrCat("Invalid RngGetAndUpdateState, expect result to have shape u64[2], "
                           "got ", HumanString(result)), f);
      }
      return true;
    case Opcode::kReplicaId: case Opcode::kPartitionId:
      if (!(result.IsScalar() && result.element_type == PrimitiveType::kU32)) {
        return Fail(op == Opcode::kReplicaId ? "ShapeVerifier::HandleReplicaId"
                                             : "ShapeVerifier::HandlePartitionId",
                    StrCat("Expected instruction to have shape equal to u32[], actual shape is ",
                           HumanString(result)), f);
      }
      return true;
    case Opcode::kAfterAll:
      if (!result.IsToken()) {
        return Fail("ShapeVerifier::HandleAfterAll",
                    StrCat("Expected instruction to have shape equal to token[], actual shape "
                           "is ", HumanString(result)), f);
      }
      return true;
    case Opcode::kAddDependency:
      if (!IsToken(operand(1))) {
        return Fail("ShapeVerifier::CheckIsTokenOperand",
                    StrCat("Expected operand 1 to be token-shaped, actual shape is ",
                           HumanString(operand(1))), f);
      }
      return Compare(id, operand(0), false, "ShapeVerifier::HandleAddDependency", f);
    case Opcode::kOptimizationBarrier:
      return Compare(id, operand(0), true, "ShapeVerifier::HandleOptimizationBarrier", f);
    case Opcode::kDomain:
      return Compare(id, operand(0), false, "ShapeVerifier::HandleDomain", f);
    case Opcode::kInfeed:
      if (!IsToken(operand(0))) {
        return Fail("ShapeVerifier::CheckIsTokenOperand",
                    StrCat("Expected operand 0 to be token-shaped, actual shape is ",
                           HumanString(operand(0))), f);
      }
      if (!result.IsTuple() || result.tuple_shapes.size() != 2 ||
          !result.tuple_shapes[1]->IsToken()) {
        return Fail("ShapeVerifier::HandleInfeed",
                    StrCat("infeed must produce (data, token[]), got ", HumanString(result)), f);
      }
      return true;
    case Opcode::kOutfeed: {
      if (!IsToken(operand(1))) {
        return Fail("ShapeVerifier::CheckIsTokenOperand",
                    StrCat("Expected operand 1 to be token-shaped, actual shape is ",
                           HumanString(operand(1))), f);
      }
      std::optional<std::vector<ShapeId>> declared =
          ShapeListAttr(m_, id, AttrName::kOutfeedShape, attribute_shapes_);
      if (declared && declared->size() == 1 &&
          !Compatible(attribute_shapes_.Get((*declared)[0]), operand(0))) {
        return Fail("ShapeVerifier::HandleOutfeed",
                    StrCat("Expected outfeed shape to be equal to operand's shape ",
                           HumanString(operand(0)), ", actual shape is ",
                           HumanString(attribute_shapes_.Get((*declared)[0]))),
                    f, AttrName::kOutfeedShape);
      }
      if (!result.IsToken()) {
        return Fail("ShapeVerifier::HandleOutfeed",
                    StrCat("Expected instruction to have shape equal to token[], actual shape "
                           "is ", HumanString(result)), f);
      }
      return true;
    }
    case Opcode::kCustomCall: {
      if (call_attributes_.Target(id) != "GetRngSeed") {
        return true;
      }
      if (!operands_.empty()) {
        return Fail("ShapeVerifier::HandleCustomCall", "GetRngSeed custom call must have 0 operands",
                    f);
      }
      if (!(result.IsArray() && result.element_type == PrimitiveType::kU64)) {
        return Fail("ShapeVerifier::HandleCustomCall",
                    StrCat("GetRngSeed custom call must return U64 type, got ",
                           HumanString(result)), f);
      }
      return true;
    }
    default:
      return true;
  }
}

}  // namespace hlolint
