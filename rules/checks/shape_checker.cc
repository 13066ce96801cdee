#include "rules/checks/shape_checker.h"

#include <algorithm>
#include <bit>
#include <span>

#include "analysis/attribute_text.h"
#include "parse/attributes.h"
#include "rules/checks/original_value.h"
#include "util/hash.h"
#include "util/strings.h"

namespace hlolint {
namespace {

bool IsUnaryVisitedAsElementwise(Opcode op) {
  // DfsHloVisitor routes these to HandleElementwiseUnary; bitcast-convert has
  // its own handler in InstructionVerifier.
  return (IsElementwiseUnary(op) && op != Opcode::kBitcastConvert);
}

std::string_view UnaryHandler(Opcode op) {
  switch (op) {
    case Opcode::kConvert: return "ShapeVerifier::HandleConvert";
    case Opcode::kBitcastConvert: return "ShapeVerifier::HandleBitcastConvert";
    case Opcode::kCopy: return "ShapeVerifier::HandleCopy";
    case Opcode::kReducePrecision: return "ShapeVerifier::HandleReducePrecision";
    default: return "ShapeVerifier::HandleElementwiseUnary";
  }
}

}  // namespace

// Opcodes checked elsewhere (verify-call-signature, verify-async-pairs,
// verify-collectives, verify-channels) or not at all (bitcast: only the
// layout-sensitive verifier compares sizes): skipped before any work.
bool ShapeChecker::HasShapeCheck(Opcode op) {
  switch (op) {
    case Opcode::kParameter: case Opcode::kConstant: case Opcode::kBitcast:
    case Opcode::kFusion: case Opcode::kCall: case Opcode::kWhile: case Opcode::kConditional:
    case Opcode::kAsyncStart: case Opcode::kAsyncUpdate: case Opcode::kAsyncDone:
    case Opcode::kCopyStart: case Opcode::kCopyDone:
    case Opcode::kAllGather: case Opcode::kAllGatherStart: case Opcode::kAllGatherDone:
    case Opcode::kAllReduce: case Opcode::kAllReduceStart: case Opcode::kAllReduceDone:
    case Opcode::kReduceScatter: case Opcode::kAllToAll: case Opcode::kRaggedAllToAll:
    case Opcode::kCollectivePermute: case Opcode::kCollectivePermuteStart:
    case Opcode::kCollectivePermuteDone: case Opcode::kCollectiveBroadcast:
      return false;
    default:
      return true;
  }
}

namespace {

// Slots of the memo caches: few for a small module (they are filled on
// first use), up to 4096 for big ones, which repeat a few thousand
// combinations at most.
size_t MemoSlots(const Module& m) {
  return std::clamp<size_t>(std::bit_ceil(m.instruction_count()), 64, 4096);
}

}  // namespace

ShapeChecker::ShapeChecker(const Module& module, const CallAttributes& call_attributes)
    : m_(module),
      call_attributes_(call_attributes),
      elementwise_ok_(MemoSlots(module)),
      shape_ops_ok_(MemoSlots(module)) {
  for (size_t o = 0; o < dispatch_.size(); ++o) {
    const Opcode op = static_cast<Opcode>(o);
    dispatch_[o] = !HasShapeCheck(op) ? Dispatch::kNone
                   : IsElementwiseOpcode(op) || op == Opcode::kSelect || op == Opcode::kClamp
                       ? Dispatch::kElementwise
                       : Dispatch::kShapeOps;
  }
}

bool ShapeChecker::Fail(std::string_view check, std::string message, VerifyFinding* f,
                        AttrName attribute) {
  f->check = std::string(check);
  f->message = std::move(message);
  f->attribute = attribute;
  f->warning = false;
  return false;
}

bool ShapeChecker::InferenceFailed(std::string_view check, VerifyFinding* f, AttrName attribute) {
  Fail(check, error_, f, attribute);
  // Reducers, comparators and mapped functions with the wrong signature
  // (e.g. returning a 1-tuple) are warnings: XLA's HLO importer accepts
  // them and its translation tests use them.
  for (std::string_view prefix : {"Reduction function", "Mapped computation", "Map applied",
                                  "The Sort compare", "Expected the ", "Select function"}) {
    if (std::string_view(error_).substr(0, prefix.size()) == prefix) f->warning = true;
  }
  return false;
}

const std::vector<int64_t>& ShapeChecker::Ints(InstrId id, AttrName name,
                                               std::vector<int64_t>* out) const {
  IntListAttrInto(m_, id, name, out);
  return *out;
}

bool ShapeChecker::Compare(InstrId id, const Shape& inferred, bool strict, std::string_view check,
                           VerifyFinding* f) {
  // A shape the parser inferred (not written) cannot disagree with the text.
  if (!m_.instr(id).has(Instruction::kShapeWritten)) return true;
  const Shape& actual = m_.shape(id);
  const bool same = strict ? Compatible(actual, inferred)
                           : CompatibleIgnoringFpPrecision(actual, inferred);
  if (same) return true;
  Fail(check, StrCat("Expected instruction to have shape equal to ", HumanString(inferred),
                     ", actual shape is ", HumanString(actual)),
       f);
  const Opcode op = m_.opcode(id);
  f->warning = op == Opcode::kConvolution || op == Opcode::kTuple || op == Opcode::kCopy;
  return false;
}

bool ShapeChecker::Check(InstrId id, VerifyFinding* f) {
  if (unbounded_.UnknownOrUnbounded(m_, id)) return true;
  const Shape& result = m_.shape(id);
  const Opcode op = m_.opcode(id);
  if (original_values_ && m_.instr(id).attr_count != 0 && op != Opcode::kCall &&
      m_.FindAttribute(id, AttrName::kOrigin) != nullptr) {
    if (std::optional<OriginalValueMismatch> mismatch =
            CompareOriginalValue(AttributeText(m_, id, AttrName::kOrigin), result)) {
      return Fail("VerifyOriginalValue",
                  StrCat("Mismatched tuple structure in shape and original value: shape ",
                         HumanString(result), ", original value ",
                         AttributeText(m_, id, AttrName::kOrigin),
                         ". Shape indices in shape only: {",
                         ShapeIndicesToString(mismatch->shape_only),
                         "}, in original value only: {",
                         ShapeIndicesToString(mismatch->value_only), "}"),
                  f, AttrName::kOrigin);
    }
  }
  const Dispatch dispatch = dispatch_[static_cast<size_t>(op)];
  if (dispatch == Dispatch::kNone) return true;
  const std::span<const InstrId> operand_ids = m_.operands(id);
  if (operand_ids.size() > operand_storage_.size()) operand_storage_.resize(operand_ids.size());
  for (size_t i = 0; i < operand_ids.size(); ++i) {
    if (unbounded_.UnknownOrUnbounded(m_, operand_ids[i])) return true;
    operand_storage_[i] = &m_.shape(operand_ids[i]);
  }
  operands_ = {operand_storage_.data(), operand_ids.size()};
  arena_.Reset();
  return dispatch == Dispatch::kElementwise ? CheckElementwise(id, f) : CheckShapeOps(id, f);
}

inline bool ShapeChecker::CheckElementwise(InstrId id, VerifyFinding* f) {
  const Opcode op = m_.opcode(id);
  // reduce-precision also depends on its bit counts; everything else only on
  // the shapes (compare's type= is checked separately, every time).
  const bool memo = op != Opcode::kReducePrecision && operands_.size() <= 3;
  std::array<uint32_t, 5> key{static_cast<uint32_t>(op), m_.shape(id).id, kNoShape, kNoShape,
                              kNoShape};
  if (memo) {
    for (size_t i = 0; i < operands_.size(); ++i) key[i + 2] = operands_[i]->id;
    if (elementwise_ok_.Contains(key)) return op != Opcode::kCompare || CheckCompareType(id, f);
  }
  if (!CheckElementwiseShapes(id, f)) return false;
  if (memo) elementwise_ok_.Insert(key);
  return op != Opcode::kCompare || CheckCompareType(id, f);
}

bool ShapeChecker::CheckElementwiseShapes(InstrId id, VerifyFinding* f) {
  const Opcode op = m_.opcode(id);
  const Shape& result = m_.shape(id);
  if (IsElementwiseUnary(op)) {
    if (operands_.size() != 1) return true;  // verify-operand-count reports it
    const std::string_view check = UnaryHandler(op);
    bool ok;
    if (op == Opcode::kConvert) {
      ok = InferConvertShape(operand(0), result.element_type, &inferred_, &error_);
    } else if (op == Opcode::kBitcastConvert) {
      ok = InferBitcastConvertShape(operand(0), result.element_type, &inferred_, &error_);
    } else if (op == Opcode::kReducePrecision) {
      ok = InferReducePrecisionShape(operand(0),
                                     IntAttr(m_, id, AttrName::kExponentBits).value_or(1),
                                     IntAttr(m_, id, AttrName::kMantissaBits).value_or(0),
                                     &inferred_, &error_);
    } else {
      ok = InferUnaryOpShape(op, operand(0), &inferred_, &error_);
    }
    if (!ok) return InferenceFailed(check, f);
    if (!Compare(id, inferred_, false, check, f)) return false;
  } else if (IsElementwiseBinary(op)) {
    if (operands_.size() != 2) return true;
    const bool stochastic = op == Opcode::kStochasticConvert;
    const char* check = stochastic ? "ShapeVerifier::HandleStochasticConvert"
                                   : "ShapeVerifier::HandleElementwiseBinary";
    const bool ok =
        stochastic ? InferStochasticConvertShape(operand(0), operand(1), result.element_type,
                                                 &inferred_, &error_)
                   : InferBinaryOpShape(op, operand(0), operand(1), &inferred_, &error_);
    if (!ok) return InferenceFailed(check, f);
    if (!Compare(id, inferred_, false, check, f)) return false;
  } else {
    if (operands_.size() != 3) return true;
    const bool select = op == Opcode::kSelect;
    const char* check = select ? "ShapeVerifier::HandleSelect" : "ShapeVerifier::HandleClamp";
    const bool ok = select ? InferSelectShape(operand(0), operand(1), operand(2), &inferred_,
                                              &error_)
                           : InferClampShape(operand(0), operand(1), operand(2), &inferred_,
                                             &error_);
    if (!ok) return InferenceFailed(check, f);
    return Compare(id, inferred_, false, check, f);
  }
  // InstructionVerifier::HandleElementwiseUnary/Binary.
  if (IsUnaryVisitedAsElementwise(op) || IsElementwiseBinary(op)) {
    if (!CheckElementwiseOperands(op, operands_, result, &error_)) {
      return InferenceFailed("InstructionVerifier::CheckElementwiseInstruction", f);
    }
  }
  return true;
}

bool ShapeChecker::CheckCompareType(InstrId id, VerifyFinding* f) {
  if (m_.opcode(id) == Opcode::kCompare && operands_.size() == 2) {
    std::optional<std::string_view> type = IdentAttr(m_, id, AttrName::kType);
    if (!type) return true;  // the parser fills in the default
    const PrimitiveType t = operand(1).element_type;
    std::string_view expected;
    if (IsFloatingPoint(t)) {
      if (*type == "FLOAT" || *type == "TOTALORDER") return true;
      expected = "FLOAT or TOTALORDER";
    } else if (IsComplex(t)) {
      expected = "FLOAT";
    } else if (IsSignedInteger(t)) {
      expected = "SIGNED";
    } else {
      expected = "UNSIGNED";
    }
    if (*type != expected) {
      return Fail("InstructionVerifier::CheckElementwiseInstruction",
                  StrCat("Expected comparison type ", expected, " for operands of type ",
                         PrimitiveTypeName(t), ", actual: ", *type),
                  f, AttrName::kType);
    }
  }
  return true;
}

namespace {

// Ops whose checks depend only on the operand and result shapes, the
// instruction's number (iota dimension, tuple index), whether its shape was
// written, and the attributes returned in *attributes (by the parser's
// value keys, so each must be one HasValueKey names).
template <size_t N>
constexpr bool AllKeyed(const AttrName (&names)[N]) {
  for (AttrName name : names) {
    if (!HasValueKey(name)) return false;
  }
  return true;
}

bool IsMemoizable(Opcode op, std::span<const AttrName>* attributes) {
  static constexpr AttrName kDimensions[] = {AttrName::kDimensions};
  static constexpr AttrName kSlice[] = {AttrName::kSlice};
  static constexpr AttrName kDynamicSliceSizes[] = {AttrName::kDynamicSliceSizes};
  static constexpr AttrName kPadding[] = {AttrName::kPadding};
  // Dot reads its dimension numbers and the shapes (the operand count,
  // which excludes sparse dots, is in the key); reduce its dimensions, the
  // shapes and its reducer's signature (added to the key by the caller).
  static constexpr AttrName kDotDimensions[] = {
      AttrName::kLhsContractingDims, AttrName::kRhsContractingDims, AttrName::kLhsBatchDims,
      AttrName::kRhsBatchDims};
  static_assert(AllKeyed(kDimensions) && AllKeyed(kSlice) && AllKeyed(kDynamicSliceSizes) &&
                AllKeyed(kPadding) && AllKeyed(kDotDimensions));
  switch (op) {
    case Opcode::kBroadcast: case Opcode::kTranspose: case Opcode::kReverse:
    case Opcode::kConcatenate: case Opcode::kGetDimensionSize: case Opcode::kSetDimensionSize:
      *attributes = kDimensions;
      return true;
    case Opcode::kSlice: *attributes = kSlice; return true;
    case Opcode::kDynamicSlice: *attributes = kDynamicSliceSizes; return true;
    case Opcode::kPad: *attributes = kPadding; return true;
    case Opcode::kDot: *attributes = kDotDimensions; return true;
    case Opcode::kReduce: *attributes = kDimensions; return true;
    case Opcode::kReshape: case Opcode::kDynamicReshape: case Opcode::kDynamicUpdateSlice:
    case Opcode::kIota: case Opcode::kGetTupleElement: case Opcode::kTuple:
      *attributes = {};
      return true;
    default:
      return false;
  }
}

uint64_t Mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x9E3779B97F4A7C15ull + (h >> 29); }

}  // namespace

inline bool ShapeChecker::CheckShapeOps(InstrId id, VerifyFinding* f) {
  const Opcode op = m_.opcode(id);
  std::span<const AttrName> attributes;
  if (!IsMemoizable(op, &attributes)) return CheckShapeOpsUncached(id, f);
  // Dumps repeat the same (op, shapes, attributes) many times: check each
  // combination once. Operand shape ids and the parser's keys of the
  // attribute texts are hashed (the text itself may be released).
  const Instruction& in = m_.instr(id);
  uint64_t operands = operands_.size();
  for (const Shape* s : operands_) operands = Mix(operands, s->id);
  uint64_t text = 0;
  for (AttrName name : attributes) {
    const Attribute* attribute = m_.FindAttribute(id, name);
    if (attribute != nullptr && attribute->value_key == 0) return CheckShapeOpsUncached(id, f);
    const uint64_t key = attribute != nullptr ? attribute->value_key : 0;
    text = attributes.size() == 1 ? key : Mix(text, key);
  }
  if (op == Opcode::kReduce) {
    // The reducer's parameter and result shapes, by their interned ids.
    ProgramShapeView program;
    std::span<const CompId> called = m_.called(id);
    if (called.empty() || !Signature(called[0], &program) ||
        program.result->id == kNoShape) {
      return CheckShapeOpsUncached(id, f);
    }
    uint64_t signature = Mix(program.parameters.size(), program.result->id);
    for (const Shape* s : program.parameters) {
      if (s->id == kNoShape) return CheckShapeOpsUncached(id, f);
      signature = Mix(signature, s->id);
    }
    text = Mix(text, signature);
  }
  const std::array<uint64_t, 4> key{
      (static_cast<uint64_t>(op) << 32) | m_.shape(id).id, operands, text,
      (static_cast<uint64_t>(m_.number(id)) << 1) | (in.has(Instruction::kShapeWritten) ? 1 : 0)};
  if (shape_ops_ok_.Contains(key)) return true;
  if (!CheckShapeOpsUncached(id, f)) return false;
  shape_ops_ok_.Insert(key);
  return true;
}

bool ShapeChecker::CheckShapeOpsUncached(InstrId id, VerifyFinding* f) {
  const Opcode op = m_.opcode(id);
  const Shape& result = m_.shape(id);
  const Instruction& in = m_.instr(id);
  switch (op) {
    case Opcode::kBroadcast: {
      const std::vector<int64_t>& dims = Ints(id, AttrName::kDimensions, &ints_);
      if (!CheckBroadcastShape(operand(0), dims, result, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleBroadcast", f, AttrName::kDimensions);
      }
      return true;
    }
    case Opcode::kReshape:
      if (!in.has(Instruction::kShapeWritten)) return true;
      if (!CheckReshapeShape(operand(0), result, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleReshape", f);
      }
      return true;
    case Opcode::kDynamicReshape: {
      if (!CheckReshapeShape(operand(0), result, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleDynamicReshape", f);
      }
      if (static_cast<int64_t>(operands_.size()) != result.rank() + 1) {
        return Fail("ShapeVerifier::HandleDynamicReshape",
                    StrCat("dynamic-reshape to rank ", result.rank(), " needs ", result.rank() + 1,
                           " operands, has ", operands_.size()),
                    f);
      }
      for (size_t i = 1; i < operands_.size(); ++i) {
        if (operand(i).element_type != PrimitiveType::kS32) {
          return Fail("ShapeVerifier::HandleDynamicReshape",
                      StrCat("dynamic-reshape size operand ", i, " must be s32, got ",
                             HumanString(operand(i))),
                      f);
        }
      }
      return true;
    }
    case Opcode::kTranspose: {
      const std::vector<int64_t>& dims = Ints(id, AttrName::kDimensions, &ints_);
      if (!InferTransposeShape(operand(0), dims, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleTranspose", f, AttrName::kDimensions);
      }
      if (!Compare(id, inferred_, false, "ShapeVerifier::HandleTranspose", f)) return false;
      // InstructionVerifier::HandleTranspose compares dimensions exactly.
      if (in.has(Instruction::kShapeWritten) && result.dimensions != inferred_.dimensions) {
        return Fail("InstructionVerifier::HandleTranspose",
                    StrCat("transpose result dimensions ", HumanString(result),
                           " are not the permuted operand dimensions ", HumanString(inferred_)),
                    f);
      }
      return true;
    }
    case Opcode::kReverse: {
      const std::vector<int64_t>& dims = Ints(id, AttrName::kDimensions, &ints_);
      if (!InferReverseShape(operand(0), dims, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleReverse", f, AttrName::kDimensions);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleReverse", f);
    }
    case Opcode::kSlice: {
      std::optional<SliceRanges> ranges = SliceAttr(m_, id);
      if (!ranges) return true;
      if (!InferSliceShape(operand(0), ranges->starts, ranges->limits, ranges->strides,
                           &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleSlice", f, AttrName::kSlice);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleSlice", f);
    }
    case Opcode::kDynamicSlice: {
      const std::vector<int64_t>& sizes = Ints(id, AttrName::kDynamicSliceSizes, &ints_);
      std::span<const Shape* const> indices(operands_.data() + 1, operands_.size() - 1);
      if (!InferDynamicSliceShape(operand(0), indices, sizes, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleDynamicSlice", f);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleDynamicSlice", f);
    }
    case Opcode::kDynamicUpdateSlice: {
      if (operands_.size() < 2) return true;
      std::span<const Shape* const> indices(operands_.data() + 2, operands_.size() - 2);
      if (!InferDynamicUpdateSliceShape(operand(0), operand(1), indices, &inferred_, &error_)) {
        InferenceFailed("ShapeVerifier::HandleDynamicUpdateSlice", f);
        f->warning = error_.find("start indices") != std::string::npos;
        return false;
      }
      // In place: the result keeps the operand's exact element type.
      return Compare(id, inferred_, true, "ShapeVerifier::HandleDynamicUpdateSlice", f);
    }
    case Opcode::kConcatenate: {
      const std::vector<int64_t>& dims = Ints(id, AttrName::kDimensions, &ints_);
      if (dims.size() != 1) return true;  // the parser reports it
      if (!InferConcatenateShape(operands_, dims[0], &inferred_, &error_)) {
        InferenceFailed("ShapeVerifier::HandleConcatenate", f);
        f->warning = true;
        return false;
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandleConcatenate", f);
    }
    case Opcode::kPad: {
      std::optional<PaddingConfig> padding = PaddingAttr(m_, id);
      if (!padding) return true;
      if (!InferPadShape(operand(0), operand(1), *padding, &inferred_, &error_)) {
        return InferenceFailed("ShapeVerifier::HandlePad", f, AttrName::kPadding);
      }
      return Compare(id, inferred_, false, "ShapeVerifier::HandlePad", f);
    }
    case Opcode::kIota:
      if (!CheckIotaShape(result, m_.number(id), &error_)) {
        return InferenceFailed("ShapeVerifier::HandleIota", f, AttrName::kIotaDimension);
      }
      return true;
    case Opcode::kGetTupleElement: {
      const Shape* element = nullptr;
      if (!InferGetTupleElementShape(operand(0), m_.number(id), &element, &error_)) {
        return InferenceFailed("ShapeVerifier::HandleGetTupleElement", f, AttrName::kIndex);
      }
      return Compare(id, *element, true, "ShapeVerifier::HandleGetTupleElement", f);
    }
    case Opcode::kTuple:
      InferTupleShape(operands_, &inferred_);
      return Compare(id, inferred_, true, "ShapeVerifier::HandleTuple", f);
    case Opcode::kGetDimensionSize: case Opcode::kSetDimensionSize: {
      const bool get = op == Opcode::kGetDimensionSize;
      const char* check = get ? "ShapeVerifier::HandleGetDimensionSize"
                              : "ShapeVerifier::HandleSetDimensionSize";
      const std::vector<int64_t>& dims = Ints(id, AttrName::kDimensions, &ints_);
      if (dims.size() != 1) return true;
      const bool ok = get ? InferGetDimensionSizeShape(operand(0), dims[0], &inferred_, &error_)
                          : InferSetDimensionSizeShape(operand(0), operand(1), dims[0],
                                                       &inferred_, &error_);
      if (!ok) return InferenceFailed(check, f, AttrName::kDimensions);
      return Compare(id, inferred_, false, check, f);
    }
    default:
      return CheckComputeOps(id, f);
  }
}

}  // namespace hlolint
