// reshape-not-bitcast: a reshape outside fusions whose operand and result
// layouts make it move data. LayoutNormalization::HandleReshape
// RET_CHECKs ShapeUtil::ReshapeIsBitcast on every such reshape, relying on
// ReshapeDecomposer having run before it; a pass that re-layouts the operand
// in between (GemmRewriter pinning a cuBLAS output layout) breaks
// that precondition and compilation fails.
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "analysis/analyses.h"
#include "analysis/bitcast.h"
#include "analysis/layout_phase.h"
#include "analysis/opcode_index.h"
#include "dump/pass_names.h"
#include "engine/dump_context.h"
#include "parse/attributes.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

std::string IndexString(const std::vector<int64_t>& index) {
  return StrCat("(", StrJoin(index, ","), ")");
}

std::string WithLayoutString(const Shape& shape) { return ShapeToString(shape, true); }

// GEMM and convolution library calls whose output layout the GPU compiler
// fixes when it creates them (GemmRewriter for cuBLAS/hipBLASLt, which use
// the same target names on ROCm; the cuDNN rewriters for convolutions and
// fused attention).
bool IsPinnedLayoutLibraryCall(std::string_view target) {
  auto starts = [&](std::string_view prefix) { return target.substr(0, prefix.size()) == prefix; };
  return target == "__cublas$gemm" || starts("__cublas$lt$matmul") || starts("__cudnn$conv") ||
         starts("__cudnn$fmha") || starts("__cudnn$fhma") || target == "__cudnn$matmul";
}

// The custom call whose (tuple element) result `id` is, looking through
// get-tuple-element; kNoId if there is none.
InstrId LibraryCallProducing(const Module& m, InstrId id, std::string* target) {
  while (m.opcode(id) == Opcode::kGetTupleElement && !m.operands(id).empty()) {
    id = m.operand(id, 0);
  }
  if (m.opcode(id) != Opcode::kCustomCall) return kNoId;
  *target = CustomCallTarget(m, id);
  return IsPinnedLayoutLibraryCall(*target) ? id : kNoId;
}

std::string Evidence(const ReshapeBitcastCheck& check) {
  // The check ran as ReshapeIsBitcast(result, operand), as
  // LayoutNormalization calls it: the unit index is the result's unless the
  // second direction failed.
  const std::string_view unit_side = check.unit_of_output ? "operand" : "result";
  const std::string_view other_side = check.unit_of_output ? "result" : "operand";
  return StrCat(unit_side, " index ", IndexString(check.unit_index), " (logical element ",
                check.logical_offset, ") is at physical offset ", check.unit_physical, " but ",
                other_side, " index ", IndexString(check.other_index),
                ", the same element, is at offset ", check.other_physical);
}

std::string Rewrite(const ReshapeDecomposition& d, const Shape& result) {
  const std::string result_layout = MinorToMajorString(MinorToMajor(result));
  switch (d.kind) {
    case ReshapeDecomposition::Kind::kCopyOperand:
      return StrCat("copy the operand to ", WithLayoutString(*d.operand_copy),
                    ", then reshape it (a bitcast) to ", WithLayoutString(result));
    case ReshapeDecomposition::Kind::kCopyResult:
      return StrCat("reshape to ", WithLayoutString(*d.bitcast_result),
                    " (a bitcast), then copy to ", result_layout);
    case ReshapeDecomposition::Kind::kCopyBoth:
      return StrCat("copy the operand to ", WithLayoutString(*d.operand_copy), ", reshape to ",
                    WithLayoutString(*d.bitcast_result), " (a bitcast), then copy to ",
                    result_layout);
    case ReshapeDecomposition::Kind::kAlreadyBitcast:
      break;
  }
  return "leave it alone";
}

// The fix is ReshapeDecomposer's rewrite, done by hand or by the pass.
std::string FixHint(const ReshapeDecomposition& d, const Shape& result) {
  return StrCat("rewrite it as: ", Rewrite(d, result),
                " (what ReshapeDecomposer does), or run ReshapeDecomposer before "
                "LayoutNormalization");
}

class ReshapeNotBitcastRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{
        "reshape-not-bitcast", RuleCategory::kLayout, Severity::kError,
        "Reshape outside fusions whose layouts make it move data; LayoutNormalization "
        "RET_CHECKs on it unless ReshapeDecomposer runs first",
        RuleCost::kModerate};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    // CPU runs ReshapeDecomposer and no LayoutNormalization: such a reshape
    // is copies there, never a failure.
    if (ctx.xla().backend() == Backend::kCpu) return;
    const Module& m = ctx.module();
    std::vector<std::pair<InstrId, ReshapeBitcastCheck>> found;
    // (result shape, operand shape) pairs already known to be bitcasts:
    // dumps repeat the same reshapes many times.
    absl::flat_hash_set<uint64_t> bitcasts;
    // Reshapes in id order (each finding has its own span, so the order of
    // reporting does not show).
    for (InstrId id : ctx.analyses().Get<OpcodeIndex>().Of(Opcode::kReshape)) {
      // ReshapeDecomposer and LayoutNormalization visit non-fusion
      // computations only.
      if (m.computation(m.parent(id)).is_fusion_computation) continue;
      uint64_t key = 0;
      if (m.operands(id).size() == 1) {
        key = uint64_t{m.instr(id).shape} << 32 | m.instr(m.operand(id, 0)).shape;
        if (bitcasts.contains(key)) continue;
      }
      ReshapeBitcastCheck check = CheckLayouts(m, id);
      if (check.is_bitcast() && m.operands(id).size() == 1) bitcasts.insert(key);
      if (check.verdict == ReshapeBitcastCheck::Verdict::kUnitIndexMoves) {
        found.emplace_back(id, std::move(check));
      }
    }
    if (found.empty() || !LayoutsAreAssigned(ctx)) return;
    for (const auto& [reshape, check] : found) Report(ctx, reshape, check);
  }

 private:
  // ReshapeIsBitcast(result, operand), as LayoutNormalization asks it, for a
  // reshape whose operand and result have written layouts; kUnsupported
  // otherwise. Differing element types or counts make an invalid reshape,
  // the verifier's business: those verdicts are not reported here.
  static ReshapeBitcastCheck CheckLayouts(const Module& m, InstrId reshape) {
    ReshapeBitcastCheck unsupported;
    unsupported.verdict = ReshapeBitcastCheck::Verdict::kUnsupported;
    if (m.operands(reshape).size() != 1) return unsupported;
    const InstrId operand = m.operand(reshape, 0);
    if (!m.has_known_shape(reshape) || !m.has_known_shape(operand)) return unsupported;
    // Dumps from before layout assignment may print no layouts at all.
    if (!m.shape(reshape).has_layout || !m.shape(operand).has_layout) return unsupported;
    return CheckReshapeIsBitcast(m.shape(reshape), m.shape(operand));
  }

  // Before layout assignment the printed layouts are the front end's and a
  // "non-bitcast" reshape means nothing (see analysis/layout_phase.h).
  static bool LayoutsAreAssigned(RuleContext& ctx) {
    const DumpContext* dump = ctx.dump();
    if (dump != nullptr &&
        (dump->before_layout_assignment ||
         LayoutPhase::PassNamesImplyUnassignedLayouts(dump->pipeline, dump->LastPass(),
                                                      dump->before_pass))) {
      return false;
    }
    const bool dump_says =
        dump != nullptr &&
        (LayoutPhase::PassNamesImplyAssignedLayouts(dump->pipeline, dump->LastPass(),
                                                     dump->before_pass) ||
         dump->RightBeforeLayoutNormalization() || dump->after_layout_assignment ||
         dump->reshape_decomposer != DecomposerState::kUnknown);
    return ctx.analyses().Get<LayoutPhase>().LayoutsAssigned(dump_says);
  }

  // What the dump's place in the pipeline makes of the finding: a certain
  // failure right before LayoutNormalization, an expected intermediate state
  // while ReshapeDecomposer has yet to run, or (unknown) the default.
  // From 2026-04-24 GPU runs ReshapeDecomposer right before each
  // LayoutNormalization: the reshape only costs copies (kDecomposedOnTheWay).
  // A dump taken right before LayoutNormalization fails either way: after
  // the decomposer, or from an XLA that ran another pass there (the dump is
  // the evidence).
  enum class Stage {
    kUnknown,
    kBeforeLayoutNormalization,
    kDecomposerPending,
    kDecomposedOnTheWay
  };

  static Stage StageOf(const DumpContext* dump, const XlaProfile& xla) {
    const bool decomposed_on_the_way =
        xla.Has(XlaChange::kReshapeDecomposerBeforeLayoutNormalization);
    if (dump == nullptr) {
      return decomposed_on_the_way ? Stage::kDecomposedOnTheWay : Stage::kUnknown;
    }
    if (dump->RightBeforeLayoutNormalization()) return Stage::kBeforeLayoutNormalization;
    if (decomposed_on_the_way) return Stage::kDecomposedOnTheWay;
    if (dump->reshape_decomposer == DecomposerState::kNotSinceLayoutAssignment) {
      return Stage::kDecomposerPending;
    }
    return Stage::kUnknown;
  }

  // Why the reshape matters where the dump was taken.
  static std::string Consequence(Stage stage, const DumpContext* dump) {
    switch (stage) {
      case Stage::kBeforeLayoutNormalization: {
        const bool said_by_name = IsLayoutNormalizationPass(dump->before_pass);
        const std::string taken =
            dump->LastPass().empty() ? std::string() : StrCat(" ", dump->Describe(), ",");
        return StrCat(
            "this dump was taken", taken, " right before pass 'layout_normalization'",
            said_by_name ? "" : " (the next dump of the module is after it)",
            ", which RET_CHECK-fails on a reshape that is not a bitcast "
            "(ShapeUtil::ReshapeIsBitcast): compilation will fail unless ReshapeDecomposer runs "
            "first");
      }
      case Stage::kDecomposerPending:
        return StrCat(
            "no ReshapeDecomposer has run since layout assignment (this dump was taken ",
            dump->Describe(),
            "); it is a problem only if the reshape reaches LayoutNormalization without "
            "ReshapeDecomposer running after the last pass that changes its layouts");
      case Stage::kDecomposedOnTheWay:
        return "XLA runs ReshapeDecomposer right before each LayoutNormalization, which "
               "rewrites the reshape: the data is moved by copies, but compilation does not fail";
      case Stage::kUnknown:
        break;
    }
    return "LayoutNormalization RET_CHECK-fails on a reshape that is not a bitcast "
           "(ShapeUtil::ReshapeIsBitcast) unless ReshapeDecomposer runs first";
  }

  static void Report(RuleContext& ctx, InstrId reshape, const ReshapeBitcastCheck& check) {
    const Module& m = ctx.module();
    const InstrId operand_id = m.operand(reshape, 0);
    const Shape& result = m.shape(reshape);
    const Shape& operand = m.shape(operand_id);
    const ReshapeDecomposition rewrite = DecomposeReshape(operand, result);
    const DumpContext* dump = ctx.dump();
    const Stage stage = StageOf(dump, ctx.xla());
    DiagnosticBuilder diagnostic = ctx.Report(
        reshape, StrCat("reshape ", WithLayoutString(operand), " -> ", WithLayoutString(result),
                        " is not a bitcast"));
    diagnostic.Label("moves data: its layouts do not keep the element order");
    if (stage == Stage::kDecomposerPending || stage == Stage::kDecomposedOnTheWay) {
      diagnostic.WithSeverity(Severity::kWarning);
    }
    diagnostic.Note(operand_id,
                    StrCat("operand produced here with layout ",
                           MinorToMajorString(MinorToMajor(operand))));
    std::string target;
    const InstrId library_call = LibraryCallProducing(m, operand_id, &target);
    if (library_call != kNoId) {
      diagnostic.Note(
          library_call,
          StrCat("the operand comes from ", target,
                 ", whose output layout the GPU compiler pins when it creates the call "
                 "(GemmRewriter for GEMMs): a reshape layout chosen by layout assignment before "
                 "that rewrite is no longer a bitcast of it"));
    }
    diagnostic.Note(Evidence(check));
    diagnostic.Note(Consequence(stage, dump));
    // (In a dump sequence, where the finding first appears says as much.)
    if (dump != nullptr && stage == Stage::kUnknown && !dump->LastPass().empty() &&
        !dump->in_sequence) {
      diagnostic.Note(StrCat("this dump was taken ", dump->Describe(),
                             dump->before_pass.empty() || IsPipelineBoundary(dump->before_pass)
                                 ? std::string()
                                 : StrCat(", before pass '", dump->before_pass, "'")));
    }
    // Whether the compile fails depends on the XLA (and its backend).
    if (stage != Stage::kBeforeLayoutNormalization) {
      diagnostic.AssumesXla(XlaChange::kReshapeDecomposerBeforeLayoutNormalization);
    }
    diagnostic.Fix(FixHint(rewrite, result));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeReshapeNotBitcastRule() {
  return std::make_unique<ReshapeNotBitcastRule>();
}

}  // namespace hlolint
