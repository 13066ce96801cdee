// verify-layout: the layout checks XLA's layout-sensitive verifier makes
// that hold for every backend, restricted to what real dumps never violate:
// dynamic-slice and concatenate keep their operands' layouts and a
// dynamic-slice does not move data from device to host memory
// (InstructionVerifier::Postprocess, HostOffloadInstructionCanChangeMemorySpace);
// host-memory copies do not transpose or convert (ShapeVerifier::CheckShape,
// kCopy); copy-start keeps the operand's minor-to-major order
// (ShapeVerifier::HandleCopyStart). Only layouts written in the text are
// compared. A bitcast that changes the byte size (ShapeVerifier::HandleBitcast,
// layout-sensitive mode only) is reported when both sizes are plain element
// count times element bytes (no tiles, padding or sub-byte types make the
// size a backend fact): an error where XLA verifies layout-sensitively
// (checks/layout_sensitive.h), else a warning, since XLA's default verifier
// does not check bitcasts and scheduler tests carry such bitcasts. In
// layout-sensitive mode, every op that layout assignment may not change
// layouts of keeps its operands' layouts, unwritten ones being the default
// (InstructionVerifier::Postprocess). With "verify_no_host_memory_space" in
// "verify-options", no result may be laid out in host memory
// (VerifyNoHostMemorySpace).
#include <optional>
#include <vector>

#include "analysis/bitcast.h"
#include "analysis/opcode_index.h"
#include "analysis/shape_inference.h"
#include "rules/checks/layout_sensitive.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

constexpr int64_t kHostMemorySpace = 5;

bool WrittenArrayLayout(const Shape& s) { return s.IsArray() && s.has_layout; }

// LayoutAssignment::InstructionCanChangeLayout is false: the ops whose
// operands of the result's rank must have its layout once layouts are
// assigned (InstructionVerifier::Postprocess, layout-sensitive mode).
// Dynamic-slice and concatenate are checked in every mode.
bool KeepsLayoutOnceAssigned(Opcode op) {
  switch (op) {
    case Opcode::kAbs: case Opcode::kAcos: case Opcode::kAcosh: case Opcode::kAsin:
    case Opcode::kAsinh: case Opcode::kAdd: case Opcode::kAddDependency: case Opcode::kAnd:
    case Opcode::kAtan2: case Opcode::kAtanh: case Opcode::kBitcastConvert: case Opcode::kCeil:
    case Opcode::kClamp: case Opcode::kClz: case Opcode::kCompare: case Opcode::kComplex:
    case Opcode::kConvert: case Opcode::kCos: case Opcode::kCosh: case Opcode::kAllGather:
    case Opcode::kAllGatherStart: case Opcode::kAllGatherDone: case Opcode::kAllToAll:
    case Opcode::kCollectiveBroadcast: case Opcode::kCollectivePermute: case Opcode::kDivide:
    case Opcode::kDynamicUpdateSlice: case Opcode::kErf: case Opcode::kExp: case Opcode::kExpm1:
    case Opcode::kFft: case Opcode::kFloor: case Opcode::kImag: case Opcode::kIsFinite:
    case Opcode::kLog: case Opcode::kLog1p: case Opcode::kLogistic: case Opcode::kMap:
    case Opcode::kMaximum: case Opcode::kMinimum: case Opcode::kMultiply: case Opcode::kMulhi:
    case Opcode::kNegate: case Opcode::kNot: case Opcode::kOptimizationBarrier: case Opcode::kOr:
    case Opcode::kXor: case Opcode::kPad: case Opcode::kPower: case Opcode::kReal:
    case Opcode::kReducePrecision: case Opcode::kReduceWindow: case Opcode::kRemainder:
    case Opcode::kReverse: case Opcode::kRoundNearestAfz: case Opcode::kRoundNearestEven:
    case Opcode::kRsqrt: case Opcode::kScatter: case Opcode::kSelect:
    case Opcode::kSelectAndScatter: case Opcode::kShiftLeft: case Opcode::kShiftRightArithmetic:
    case Opcode::kShiftRightLogical: case Opcode::kSign: case Opcode::kSin: case Opcode::kSinh:
    case Opcode::kSlice: case Opcode::kSort: case Opcode::kTopK: case Opcode::kSqrt:
    case Opcode::kCbrt: case Opcode::kSubtract: case Opcode::kStochasticConvert: case Opcode::kTan:
    case Opcode::kTanh: case Opcode::kPopulationCount: case Opcode::kTriangularSolve:
    case Opcode::kCholesky: case Opcode::kWhile: case Opcode::kSetDimensionSize:
    case Opcode::kAllReduce: case Opcode::kReduceScatter: case Opcode::kAllReduceStart:
    case Opcode::kAllReduceDone: case Opcode::kRaggedAllToAll: case Opcode::kScan:
      return true;
    default:
      return false;
  }
}


class VerifyLayoutRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-layout", RuleCategory::kVerify, Severity::kError,
                                "layout or memory-space change that XLA's layout-sensitive "
                                "verifier rejects",
                                RuleCost::kModerate};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    const std::vector<InstrId> checked = ctx.analyses().Get<OpcodeIndex>().Collect(
        {Opcode::kDynamicSlice, Opcode::kConcatenate, Opcode::kCopy, Opcode::kCopyStart,
         Opcode::kBitcast});
    for (InstrId id : checked) {
      const Opcode op = m.opcode(id);
      if (!m.has_known_shape(id)) continue;
      switch (op) {
        case Opcode::kDynamicSlice: case Opcode::kConcatenate: CheckPreserved(ctx, id); break;
        case Opcode::kCopy: CheckHostCopy(ctx, id); break;
        case Opcode::kBitcast: CheckBitcastSize(ctx, id); break;
        default: CheckCopyStart(ctx, id); break;
      }
    }
    if (VerifiedLayoutSensitive(ctx)) {
      for (InstrId id : ctx.analyses().Get<OpcodeIndex>().Collect(KeepsLayoutOnceAssigned)) {
        if (m.has_known_shape(id)) CheckKeepsLayout(ctx, id);
      }
    }
    if (ctx.verifier_options().verify_no_host_memory_space) CheckNoHostMemorySpace(ctx);
  }

 private:
  // InstructionVerifier::Postprocess with verify_no_host_memory_space
  // (VerifyNoHostMemorySpace): no array result laid out in host memory.
  static void CheckNoHostMemorySpace(RuleContext& ctx) {
    const Module& m = ctx.module();
    const size_t n = m.instruction_count();
    for (InstrId id = 0; id < n; ++id) {
      if (!m.has_known_shape(id)) continue;
      const Shape& s = m.shape(id);
      if (!WrittenArrayLayout(s) || s.layout.memory_space != kHostMemorySpace) continue;
      ctx.Report(id, StrCat("[InstructionVerifier::Postprocess] Instruction shouldn't have the "
                            "layout of host memory space: ", ShapeToString(s)))
          .Fix("keep host offloading out of this pipeline, or set "
               "\"verify_no_host_memory_space\": false in \"verify-options\"");
    }
  }

  // ShapeUtil::ByteSizeOf of a static dense array whose layout (if written)
  // adds nothing backend-specific; nullopt otherwise.
  static std::optional<int64_t> PlainByteSize(const Shape& s) {
    if (!s.IsArray() || s.IsDynamic()) return std::nullopt;
    const int bits = PrimitiveTypeBits(s.element_type);
    if (bits < 8 || bits % 8 != 0) return std::nullopt;
    if (s.has_layout) {
      const Layout& l = s.layout;
      if (!l.tiles.empty() || l.element_size_bits != 0 || l.tail_padding_alignment != 1 ||
          l.memory_space != 0 || l.physical_shape != nullptr || !l.split_configs.empty() ||
          l.dynamic_shape_metadata_prefix_bytes != 0 || !l.dim_level_types.empty()) {
        return std::nullopt;
      }
    }
    const std::optional<int64_t> elements = ElementCount(s);
    if (!elements || *elements > (int64_t{1} << 56)) return std::nullopt;
    return *elements * (bits / 8);
  }

  static void CheckBitcastSize(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    if (m.operands(id).size() != 1) return;
    const InstrId operand = m.operand(id, 0);
    if (!m.has_known_shape(operand)) return;
    const std::optional<int64_t> out = PlainByteSize(m.shape(id));
    const std::optional<int64_t> in = PlainByteSize(m.shape(operand));
    if (!out || !in || *out == *in) return;
    ctx.Report(id, StrCat("[ShapeVerifier::HandleBitcast] Bitcast cannot have different shape "
                          "sizes of output (", *out, ") and operand (", *in, ") (",
                          ShapeToString(m.shape(id)), ") (", ShapeToString(m.shape(operand)),
                          ")"))
        .Note(operand, "operand")
        .WithSeverity(VerifiedLayoutSensitive(ctx) ? Severity::kError : Severity::kWarning);
  }

  static void CheckPreserved(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    const Shape& result = m.shape(id);
    if (!WrittenArrayLayout(result)) return;
    for (InstrId operand : m.operands(id)) {
      if (!m.has_known_shape(operand)) continue;
      const Shape& s = m.shape(operand);
      if (!WrittenArrayLayout(s) || s.rank() != result.rank()) continue;
      if (m.opcode(id) == Opcode::kDynamicSlice && s.layout.memory_space == 0 &&
          result.layout.memory_space == kHostMemorySpace) {
        ctx.Report(id, "[HostOffloadInstructionCanChangeMemorySpace] DynamicSlice instruction "
                       "shouldn't change layout memory space from device to host")
            .Note(operand, "operand in device memory");
        return;
      }
      if (s.layout.minor_to_major != result.layout.minor_to_major) {
        ctx.Report(id, StrCat("[InstructionVerifier::Postprocess] Instruction shouldn't change "
                              "layouts: ", OpcodeName(m.opcode(id)), " from ", ShapeToString(s),
                              " to ", ShapeToString(result)))
            .Note(operand, "operand with a different layout");
        return;
      }
    }
  }

  // InstructionVerifier::Postprocess in layout-sensitive mode: tiles and
  // memory spaces aside, and the element size where an op may change it.
  static void CheckKeepsLayout(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    const Shape& result = m.shape(id);
    if (!result.IsArray()) return;
    const Opcode op = m.opcode(id);
    const std::vector<int64_t> result_order = MinorToMajor(result);
    const int64_t result_bits = result.has_layout ? result.layout.element_size_bits : 0;
    for (InstrId operand : m.operands(id)) {
      if (!m.has_known_shape(operand)) continue;
      const Shape& s = m.shape(operand);
      if (!s.IsArray() || s.rank() != result.rank()) continue;
      const bool may_change_element_size =
          op == Opcode::kConvert || op == Opcode::kCompare || op == Opcode::kIsFinite ||
          op == Opcode::kScatter ||
          (op == Opcode::kSelect && s.element_type == PrimitiveType::kPred);
      const int64_t bits = s.has_layout ? s.layout.element_size_bits : 0;
      if (MinorToMajor(s) == result_order &&
          (may_change_element_size || bits == result_bits)) {
        continue;
      }
      ctx.Report(id, StrCat("[InstructionVerifier::Postprocess] Instruction shouldn't change "
                            "layouts: ", OpcodeName(op), " from ",
                            ShapeToStringWithDefaultLayout(s), " to ",
                            ShapeToStringWithDefaultLayout(result)))
          .Note(operand, "operand with a different layout");
      return;
    }
  }

  static void CheckHostCopy(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    const InstrId operand = m.operand(id, 0);
    if (!m.has_known_shape(operand)) return;
    const Shape& result = m.shape(id);
    const Shape& source = m.shape(operand);
    if (!WrittenArrayLayout(result) || !WrittenArrayLayout(source)) return;
    const int64_t to = result.layout.memory_space;
    const int64_t from = source.layout.memory_space;
    if (to == from || (to != kHostMemorySpace && from != kHostMemorySpace)) return;
    bool ok;
    if (to == kHostMemorySpace) {
      ok = result.element_type == source.element_type;
    } else {
      ShapeEqualOptions options;
      options.ignore_memory_space = true;
      ok = ShapesEqual(result, source, options);
    }
    if (!ok) {
      ctx.Report(id, StrCat("[ShapeVerifier::CheckShape] A copy ",
                            to == kHostMemorySpace ? "to host memory may not change the element "
                                                     "type"
                                                   : "between host and device memory may not "
                                                     "transpose or change the element type",
                            ": ", ShapeToString(source), " -> ", ShapeToString(result)))
          .Note(operand, "operand");
    }
  }

  static void CheckCopyStart(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    const InstrId operand = m.operand(id, 0);
    if (!m.has_known_shape(operand)) return;
    const Shape& shape = m.shape(id);
    const Shape& source = m.shape(operand);
    if (!WrittenArrayLayout(source) || !shape.IsTuple() || shape.tuple_shapes.size() < 2) return;
    for (int i = 0; i < 2; ++i) {
      const Shape& element = *shape.tuple_shapes[i];
      if (WrittenArrayLayout(element) &&
          element.layout.minor_to_major != source.layout.minor_to_major) {
        ctx.Report(id, StrCat("[ShapeVerifier::HandleCopyStart] Expected element {", i,
                              "} to have the operand's layout: ", ShapeToString(element),
                              " vs ", ShapeToString(source)))
            .Note(operand, "operand");
        return;
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyLayoutRule() { return std::make_unique<VerifyLayoutRule>(); }

}  // namespace hlolint
