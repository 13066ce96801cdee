// dead-in-place-past-root: an in-place instruction (one with must-alias
// input/output pairs, AliasInfo::GetInPlaceInputOutputPairs) whose result
// nobody uses. In-place-ness is not a side effect, so HloDCE deletes such an
// op and its mutation is lost; if one survives in a scheduled module after
// ROOT and writes into a buffer the ROOT returns (or an entry parameter the
// module aliases to an output), it corrupts the computation's result.
#include <algorithm>
#include <cctype>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/analyses.h"
#include "analysis/in_place.h"
#include "analysis/reachability.h"
#include "analysis/side_effects.h"
#include "parse/attributes.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// Pairs on b(...) buffer values (Pin, Unpin and the writers of the explicit
// buffer model) are ownership bookkeeping: the buffer stays observable
// through its other references, so an unused result loses nothing.
bool IsBufferPair(const Module& m, InstrId id, const InPlacePair& pair) {
  const Shape* out = Subshape(m.shape(id), pair.output_index);
  const Shape* in =
      Subshape(m.shape(m.operand(id, static_cast<size_t>(pair.operand))), pair.operand_index);
  return (out != nullptr && out->IsBuffer()) || (in != nullptr && in->IsBuffer());
}

struct Evidence {
  std::optional<InPlacePair> pair;  // a copy: the table unpacks pairs as they are read
  ValueRef source;                          // the written buffer's definition
  std::optional<ShapeIndex> root_output;    // it reaches ROOT here
  const InputOutputAlias* entry_alias = nullptr;
  bool live_at_root() const { return root_output.has_value() || entry_alias != nullptr; }
};

// What HloDCE's CanRemoveInstruction makes of an unused instruction
// beyond its side effect, by the frontend attributes XLA reads there.
struct DceVerdict {
  // A side-effecting tpu_custom_call whose xla_allow_dce_side_effecting_op
  // is exactly "true" (XLA from 2025-11-07): removable after all.
  bool allowed_side_effect = false;
  // The attribute that keeps it (XLA from 2026-07-30), empty if none.
  std::string kept_by;
};

// "true" or "yes" in any case, or "1" (XLA's IsTrueVal).
bool IsTrueValue(std::string_view value) {
  auto equals_ignoring_case = [&](std::string_view word) {
    return value.size() == word.size() &&
           std::equal(value.begin(), value.end(), word.begin(),
                      [](char a, char b) { return std::tolower(a) == b; });
  };
  return value == "1" || equals_ignoring_case("true") || equals_ignoring_case("yes");
}

DceVerdict DceVerdictOf(RuleContext& ctx, InstrId id, bool side_effect) {
  const Module& m = ctx.module();
  DceVerdict verdict;
  if (side_effect && ctx.xla().Has(XlaChange::kDceRemovesAllowedTpuCustomCall) &&
      m.opcode(id) == Opcode::kCustomCall && CustomCallTarget(m, id) == "tpu_custom_call") {
    const auto allow = FrontendAttribute(m, id, "xla_allow_dce_side_effecting_op");
    verdict.allowed_side_effect = allow && *allow == "true";
  }
  if (ctx.xla().Has(XlaChange::kDceKeepsDisableWhileLoopDceOps)) {
    for (std::string_view key : {"xla_disable_while_loop_dce", "xla.disable_while_loop_dce",
                                 "xla_preserve_tuple_indices", "xla.preserve_tuple_indices"}) {
      const auto value = FrontendAttribute(m, id, key);
      if (value && IsTrueValue(*value)) {
        verdict.kept_by = StrCat(key, "=\"", *value, "\"");
        verdict.allowed_side_effect = false;
        break;
      }
    }
  }
  return verdict;
}

class DeadInPlacePastRootRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{
        "dead-in-place-past-root", RuleCategory::kScheduling, Severity::kWarning,
        "In-place op whose result is unused: its mutation is lost, or clobbers a live buffer "
        "when scheduled after ROOT",
        RuleCost::kModerate};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    // Most modules have no unused in-place instruction: the module lists
    // its unused instructions (reading each candidate's record for its
    // user count would stream half the records), and pairs are computed
    // only for those.
    const std::span<const InstrId> unused = m.unused_instructions();
    if (std::none_of(unused.begin(), unused.end(),
                     [&](InstrId id) { return MayBeInPlace(m.opcode(id)); })) {
      return;
    }
    const InPlacePairs& pairs = ctx.analyses().Get<InPlacePairs>();
    if (!pairs.AnyInPlace(unused)) return;
    const RootReachability& reach = ctx.analyses().Get<RootReachability>();
    const SideEffects& effects = ctx.analyses().Get<SideEffects>();

    // Instructions that are some instruction's control predecessor.
    std::vector<uint8_t> has_control_successor(m.instruction_count(), 0);
    for (InstrId id = 0; id < m.instruction_count(); ++id) {
      for (InstrId pred : m.control_predecessors(id)) has_control_successor[pred] = 1;
    }

    for (CompId c = 0; c < m.computation_count(); ++c) {
      const Computation& comp = m.computation(c);
      if (comp.is_fusion_computation || comp.root == kNoId) continue;
      bool after_root = false;
      for (InstrId id : m.instructions(c)) {
        if (id == comp.root) {
          after_root = true;
          continue;
        }
        if (m.UserCount(id) != 0 || !pairs.IsInPlace(id)) continue;
        CheckDeadInPlace(ctx, pairs, reach, effects, id, comp.root,
                         after_root && m.is_scheduled(),
                         has_control_successor[id] || !m.control_predecessors(id).empty());
      }
    }
  }

 private:
  static void CheckDeadInPlace(RuleContext& ctx, const InPlacePairs& pairs,
                               const RootReachability& reach, const SideEffects& effects,
                               InstrId id, InstrId root, bool scheduled_after_root,
                               bool has_control_dependencies) {
    const Module& m = ctx.module();
    Evidence chosen;
    for (const InPlacePair& pair : pairs.Get(id)) {
      if (pair.operand < 0 || pair.operand >= static_cast<int64_t>(m.operands(id).size())) {
        continue;
      }
      if (IsBufferPair(m, id, pair)) continue;
      Evidence e;
      e.pair = pair;
      e.source = reach.TraceBuffer({m.operand(id, static_cast<size_t>(pair.operand)),
                                    pair.operand_index});
      e.root_output = reach.RootOutputFor(e.source);
      e.entry_alias = reach.EntryAliasFor(e.source);
      if (!chosen.pair || (e.live_at_root() && !chosen.live_at_root())) chosen = e;
      if (chosen.live_at_root()) break;
    }
    if (!chosen.pair) return;

    const InstrId operand = m.operand(id, static_cast<size_t>(chosen.pair->operand));
    const std::string what = StrCat(OpcodeName(m.opcode(id)), " '", m.name(id), "'");
    const std::string written =
        StrCat("operand ", chosen.pair->operand, " ('", m.name(operand), "'",
               ShapeIndexSuffix(chosen.pair->operand_index), ")");

    if (scheduled_after_root && chosen.live_at_root()) {
      std::string producer_note;
      if (chosen.root_output) {
        producer_note = StrCat("the written buffer is defined here and reaches ROOT as output ",
                               ShapeIndexToString(*chosen.root_output));
      } else {
        const InputOutputAlias& a = *chosen.entry_alias;
        producer_note = StrCat("the written buffer is entry parameter ", a.parameter,
                               ShapeIndexSuffix(a.parameter_index), ", aliased to output ", ShapeIndexToString(a.output_index),
                               " by input_output_alias");
      }
      ctx.Report(id, StrCat(what, " is scheduled after ROOT and writes in place into the buffer",
                            " of ", written))
          .WithSeverity(Severity::kError)
          .Label("runs after the result is final")
          .Note(root, StrCat("ROOT '", m.name(root),
                             "' is here; instructions after it run once the result is final"))
          .Note(chosen.source.instr, producer_note)
          .Note("the write lands after the computation's result is final and corrupts it (its "
                "result is unused, so it was likely added after the last DCE)")
          .Fix("schedule the update before ROOT and use its result, or remove it");
      return;
    }

    const std::string message = StrCat(what, " updates ", written,
                                       " in place, but its result has no users and it is not "
                                       "ROOT");
    std::string consequence;
    const bool side_effect = effects.HasSideEffect(id);
    const DceVerdict dce = DceVerdictOf(ctx, id, side_effect);
    if (dce.allowed_side_effect) {
      consequence = "it has a side effect, but its frontend attribute "
                    "xla_allow_dce_side_effecting_op=\"true\" lets HloDCE delete it, and the "
                    "mutation is lost";
    } else if (side_effect) {
      consequence = "it has a side effect, so HloDCE keeps it, but its in-place result is unused";
    } else if (has_control_dependencies) {
      consequence = "the mutation is lost (HloDCE keeps it only for its control dependencies)";
    } else if (!dce.kept_by.empty()) {
      consequence = StrCat("the mutation is lost (HloDCE keeps it for its frontend attribute ",
                           dce.kept_by, ")");
    } else {
      consequence = "the mutation is lost and HloDCE will delete it";
    }
    auto report = ctx.Report(id, message);
    report.Label(scheduled_after_root ? "unused, and scheduled after ROOT" : "unused");
    report.Note(consequence);
    report.Fix("use the updated result (pass it on towards ROOT) or remove the update");
    if (side_effect && !dce.allowed_side_effect) report.WithSeverity(Severity::kNote);
    if (dce.allowed_side_effect) report.AssumesXla(XlaChange::kDceRemovesAllowedTpuCustomCall);
    if (!dce.kept_by.empty()) report.AssumesXla(XlaChange::kDceKeepsDisableWhileLoopDceOps);
    if (scheduled_after_root) {
      report.Note(root, StrCat("ROOT '", m.name(root), "' is here"));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeDeadInPlacePastRootRule() {
  return std::make_unique<DeadInPlacePastRootRule>();
}

}  // namespace hlolint
