#include "rules/checks/optional_shape_checks.h"

#include <algorithm>
#include <vector>

#include "analysis/analyses.h"
#include "analysis/opcode_index.h"
#include "analysis/shape_inference.h"
#include "parse/attributes.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// The opcodes CheckMixedPrecisionOperands lets mix floating-point types
// (they pass data through or group it), and those whose ShapeVerifier
// handler never calls CheckShape, where the check lives (rng has a check of
// its own, HandleRng).
bool MixedPrecisionExempt(Opcode op) {
  using O = Opcode;
  switch (op) {
    case O::kCall: case O::kConditional: case O::kConstant: case O::kConvolution:
    case O::kDot: case O::kAllReduce: case O::kAllReduceStart: case O::kAllReduceDone:
    case O::kAllGather: case O::kAllGatherStart: case O::kAllGatherDone:
    case O::kAsyncDone: case O::kAsyncUpdate: case O::kAsyncStart: case O::kCopyDone:
    case O::kCopyStart: case O::kCustomCall: case O::kDomain: case O::kFusion:
    case O::kGetTupleElement: case O::kOptimizationBarrier: case O::kInfeed:
    case O::kOutfeed: case O::kParameter: case O::kRecv: case O::kRecvDone:
    case O::kReducePrecision: case O::kReduceWindow: case O::kSend: case O::kSendDone:
    case O::kSort: case O::kTuple: case O::kWhile:
    // Allowed by XLA of 2026-08 too (its own tests verify them mixed:
    // HloVerifierTest.CollectivePermute*MixedPrecisionOperandsAllowed,
    // ScaledDotWithBothScalesSucceeds).
    case O::kCollectivePermute: case O::kCollectivePermuteStart:
    case O::kCollectivePermuteDone: case O::kScaledDot: case O::kRaggedDot:
    // No CheckShape in their handlers.
    case O::kBitcast: case O::kBroadcast: case O::kReshape: case O::kDynamicReshape:
    case O::kIota: case O::kRng: case O::kRngBitGenerator: case O::kRngGetAndUpdateState:
      return true;
    default:
      return false;
  }
}

// The first floating-point leaf type of `shape` other than `*seen` (which
// the first one found sets), or kInvalid.
PrimitiveType OtherFloatType(const Shape& shape, PrimitiveType* seen) {
  if (shape.IsTuple()) {
    for (const Shape* element : shape.tuple_shapes) {
      const PrimitiveType other = OtherFloatType(*element, seen);
      if (other != PrimitiveType::kInvalid) return other;
    }
    return PrimitiveType::kInvalid;
  }
  if (!IsFloatingPoint(shape.element_type)) return PrimitiveType::kInvalid;
  if (*seen == PrimitiveType::kInvalid) {
    *seen = shape.element_type;
    return PrimitiveType::kInvalid;
  }
  return shape.element_type == *seen ? PrimitiveType::kInvalid : shape.element_type;
}

// CheckMixedPrecisionOperands: the first operand whose floating-point type
// differs from an earlier operand's.
void CheckMixedPrecision(RuleContext& ctx, InstrId id) {
  const Module& m = ctx.module();
  PrimitiveType seen = PrimitiveType::kInvalid;
  InstrId first = kNoId;
  for (InstrId operand : m.operands(id)) {
    if (!m.has_known_shape(operand)) return;
    const PrimitiveType before = seen;
    const PrimitiveType other = OtherFloatType(m.shape(operand), &seen);
    if (before == PrimitiveType::kInvalid && seen != PrimitiveType::kInvalid) first = operand;
    if (other == PrimitiveType::kInvalid) continue;
    ctx.Report(id, StrCat("[CheckMixedPrecisionOperands] Seen floating point types of different "
                          "precisions in ", OpcodeName(m.opcode(id)), " (",
                          PrimitiveTypeName(seen), " and ", PrimitiveTypeName(other),
                          "), but mixed precision is disallowed"))
        .Note(first, StrCat(PrimitiveTypeName(seen), " operand"))
        .Note(operand, StrCat(PrimitiveTypeName(other), " operand"))
        .Fix("convert the operands to one floating-point type, or set "
             "\"allow_mixed_precision\": true in \"verify-options\"");
    return;
  }
}

// ShapeVerifier::HandleRng, HasCompatibleElementTypes without mixed
// precision: the result has the operands' element type exactly.
void CheckRngElementTypes(RuleContext& ctx, InstrId id) {
  const Module& m = ctx.module();
  if (m.operands(id).size() != 2 || !m.has_known_shape(id)) return;
  const InstrId low = m.operand(id, 0);
  const InstrId high = m.operand(id, 1);
  if (!m.has_known_shape(low) || !m.has_known_shape(high)) return;
  const PrimitiveType a = m.shape(low).element_type;
  const PrimitiveType b = m.shape(high).element_type;
  const PrimitiveType result = m.shape(id).element_type;
  if (a != b || a == result || !IsFloatingPoint(a) || !IsFloatingPoint(result)) {
    return;  // other element-type mismatches are errors whatever the options (verify-shape)
  }
  ctx.Report(id, StrCat("[ShapeVerifier::HandleRng] Expected compatible element types for the "
                        "result and the two operands of Rng instruction: the operands are ",
                        PrimitiveTypeName(a), ", the result ", PrimitiveTypeName(result),
                        ", and mixed precision is disallowed"))
      .Note(low, "operand 0");
}

void CheckBroadcastOrder(RuleContext& ctx, InstrId id, std::vector<int64_t>* dims) {
  if (!IntListAttrInto(ctx.module(), id, AttrName::kDimensions, dims)) return;
  if (std::is_sorted(dims->begin(), dims->end())) return;
  ctx.ReportAtAttribute(id, AttrName::kDimensions,
                        StrCat("[InstructionVerifier::HandleBroadcast] Broadcast dimensions "
                               "should be ordered, got: {", StrJoin(*dims, ","), "}"))
      .Fix("sort dimensions= and transpose the result instead, or set "
           "\"verify_broadcast_dimensions_order\": false in \"verify-options\"");
}

}  // namespace

void CheckOptionalShapeRules(RuleContext& ctx) {
  const VerifierOptions& options = ctx.verifier_options();
  const Module& m = ctx.module();
  const OpcodeIndex& index = ctx.analyses().Get<OpcodeIndex>();
  if (!options.allow_unbounded_dynamism || !options.allow_mixed_precision) {
    const size_t n = m.instruction_count();
    for (InstrId id = 0; id < n; ++id) {
      // ShapeVerifier::Preprocess comes before the handlers.
      if (!options.allow_unbounded_dynamism && m.has_known_shape(id) &&
          HasUnboundedDimension(m.shape(id))) {
        ctx.Report(id, StrCat("[ShapeVerifier::Preprocess] Unbounded dynamism is disabled for "
                              "instruction: ", m.name(id), " has shape ",
                              HumanString(m.shape(id))))
            .Fix("bound the dimension (<=N) or make it static, or set "
                 "\"allow_unbounded_dynamism\": true in \"verify-options\"");
        continue;
      }
      if (options.allow_mixed_precision) continue;
      const Opcode op = m.opcode(id);
      if (op == Opcode::kRng) {
        CheckRngElementTypes(ctx, id);
      } else if (!MixedPrecisionExempt(op) && m.operands(id).size() > 1) {
        CheckMixedPrecision(ctx, id);
      }
    }
  }
  if (options.verify_broadcast_dimensions_order) {
    std::vector<int64_t> dims;
    for (InstrId id : index.Of(Opcode::kBroadcast)) CheckBroadcastOrder(ctx, id, &dims);
  }
  if (options.layout_sensitive) {
    // ScanExpander rewrites non-associative scans before layout assignment;
    // XLA's layout-sensitive verifier rejects one that is left.
    for (InstrId id : index.Of(Opcode::kScan)) {
      if (BoolAttr(m, id, AttrName::kIsAssociative).value_or(true)) continue;
      ctx.ReportAtAttribute(id, AttrName::kIsAssociative,
                            "[ShapeVerifier::HandleScan] Non-associative scan reached "
                            "layout-sensitive HloVerifier; ScanExpander rewrites it before "
                            "layout assignment");
    }
  }
}

}  // namespace hlolint
