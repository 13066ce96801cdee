// missed-in-place-pair: a fusion that really updates one of its parameters
// in place (through a dynamic-update-slice, scatter, aliasing custom call or
// nested in-place fusion), but with a reshape, transpose or copy between the
// parameter and the in-place op, or between the op and the fused ROOT.
// XLA's AliasInfo::GetFusionInstructionInPlaceInputOutputPairs looks only
// through tuple, get-tuple-element and bitcast, so it records no must-alias
// pair: buffer assignment and copy insertion then treat the fusion as out of
// place while its operand may be written by someone else as well.
#include <string>
#include <vector>

#include "analysis/analyses.h"
#include "analysis/in_place.h"
#include "analysis/reachability.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// Why the fusion's operand is hazardous beyond the missed pair.
struct Conflict {
  InstrId other = kNoId;
  std::string message;  // why it matters, a note of the diagnostic
  std::string note;     // at `other`
};

class MissedInPlacePairRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{
        "missed-in-place-pair", RuleCategory::kAliasing, Severity::kWarning,
        "Fusion that updates a parameter in place behind a reshape, transpose or copy, so XLA "
        "records no in-place pair",
        RuleCost::kModerate};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    const ExtendedFusionPairs& extended = ctx.analyses().Get<ExtendedFusionPairs>();
    if (extended.fusions_with_missed_pairs().empty()) return;
    const InPlacePairs& pairs = ctx.analyses().Get<InPlacePairs>();
    const RootReachability& reach = ctx.analyses().Get<RootReachability>();

    // Text position of every instruction in its computation.
    std::vector<uint32_t> position(m.instruction_count(), 0);
    for (CompId c = 0; c < m.computation_count(); ++c) {
      uint32_t p = 0;
      for (InstrId id : m.instructions(c)) position[id] = p++;
    }

    for (InstrId fusion : extended.fusions_with_missed_pairs()) {
      for (const ExtendedFusionPair& found : extended.Get(fusion)) {
        if (!found.missed_by_xla || found.blockers.empty()) continue;
        const int64_t p = found.pair.operand;
        if (p < 0 || p >= static_cast<int64_t>(m.operands(fusion).size())) continue;
        const InstrId operand = m.operand(fusion, static_cast<size_t>(p));
        const Conflict conflict = FindConflict(m, pairs, extended, reach, position, fusion,
                                               operand, found.pair.operand_index);
        Report(ctx, fusion, found, operand, conflict);
      }
    }
  }

 private:
  // Another writer of the fusion's operand, else the operand's buffer
  // reaching ROOT, else a reader after the fusion.
  static Conflict FindConflict(const Module& m, const InPlacePairs& pairs,
                               const ExtendedFusionPairs& extended,
                               const RootReachability& reach,
                               const std::vector<uint32_t>& position, InstrId fusion,
                               InstrId operand, const ShapeIndex& operand_index) {
    Conflict later_reader;
    for (InstrId user : m.users(operand)) {
      if (user == fusion) continue;
      auto operands = m.operands(user);
      auto writes = [&](int64_t n, const ShapeIndex& index) {
        return n >= 0 && n < static_cast<int64_t>(operands.size()) &&
               operands[static_cast<size_t>(n)] == operand &&
               IndicesOverlap(index, operand_index);
      };
      bool writer = false;
      for (const InPlacePair& pair : pairs.Get(user)) {
        writer |= writes(pair.operand, pair.operand_index);
      }
      if (m.opcode(user) == Opcode::kFusion) {
        for (const ExtendedFusionPair& other : extended.Get(user)) {
          writer |= writes(other.pair.operand, other.pair.operand_index);
        }
      }
      if (writer) {
        return {user,
                StrCat("'", m.name(operand), "' is also written in place by ",
                       OpcodeName(m.opcode(user)), " '", m.name(user),
                       "', so two writers may share its buffer"),
                StrCat("also writes into '", m.name(operand), "' in place")};
      }
      if (later_reader.other == kNoId && m.parent(user) == m.parent(fusion) &&
          position[user] > position[fusion]) {
        later_reader = {user,
                        StrCat("'", m.name(operand), "' is still read by '", m.name(user),
                               "' after the fusion"),
                        StrCat("reads '", m.name(operand), "' after the fusion")};
      }
    }
    const ValueRef source = reach.TraceBuffer({operand, operand_index});
    if (auto out = reach.RootOutputFor(source)) {
      return {source.instr,
              StrCat("the buffer of '", m.name(operand), "' reaches ROOT as output ",
                     ShapeIndexToString(*out), ", so it is live after the fusion"),
              StrCat("buffer defined here reaches ROOT as output ", ShapeIndexToString(*out))};
    }
    return later_reader;
  }

  // What XLA's pair discovery looks through in this profile, for messages.
  static std::string_view WhatXlaFollows(const XlaProfile& xla) {
    if (!xla.Has(XlaChange::kOutputSideFollowsNoOps)) {
      return "tuple and get-tuple-element, and one bitcast towards the parameter";
    }
    return xla.Has(XlaChange::kGpuReshapeIsNoOpForAliasing)
               ? "tuple, get-tuple-element, bitcast and reshape"
               : "tuple, get-tuple-element and bitcast";
  }

  static void Report(RuleContext& ctx, InstrId fusion, const ExtendedFusionPair& found,
                     InstrId operand, const Conflict& conflict) {
    const Module& m = ctx.module();
    const InstrId first_blocker = found.blockers.front();
    const InstrId op = found.in_place_op;
    auto report = ctx.Report(
        fusion, StrCat("fusion '", m.name(fusion), "' updates operand ", found.pair.operand, " ('",
                       m.name(operand), "'", ShapeIndexSuffix(found.pair.operand_index),
                       ") in place through ", OpcodeName(m.opcode(op)), " '", m.name(op),
                       "', but XLA records no in-place pair for it"));
    report.Label("treated as out of place");
    if (conflict.other != kNoId) report.WithSeverity(Severity::kError);
    bool reshape_blocks = false, bitcast_blocks = false;
    for (InstrId blocker : found.blockers) {
      reshape_blocks |= m.opcode(blocker) == Opcode::kReshape;
      bitcast_blocks |= m.opcode(blocker) == Opcode::kBitcast;
      report.Note(blocker, StrCat(OpcodeName(m.opcode(blocker)),
                                  " here hides the in-place update from XLA's pair discovery"));
    }
    if (conflict.other != kNoId) report.Note(conflict.other, conflict.note);
    report.Note(StrCat("XLA's in-place pair discovery stops at ",
                       OpcodeName(m.opcode(first_blocker)), " '", m.name(first_blocker),
                       "' (it looks only through ", WhatXlaFollows(ctx.xla()),
                       "), so no must-alias pair operand ", found.pair.operand,
                       ShapeIndexSuffix(found.pair.operand_index), " -> output ",
                       ShapeIndexToString(found.pair.output_index),
                       " is recorded and buffer assignment and copy insertion treat the fusion "
                       "as out of place"));
    if (!conflict.message.empty()) report.Note(conflict.message);
    // The verdict of a reshape or bitcast depends on which XLA compiled it.
    if (reshape_blocks) report.AssumesXla(XlaChange::kGpuReshapeIsNoOpForAliasing);
    if (bitcast_blocks) report.AssumesXla(XlaChange::kOutputSideFollowsNoOps);
    report.Fix(FixFor(m, fusion, found, operand, first_blocker));
  }

  // XLA's verifier rejects an output_to_operand_aliasing whose output and
  // operand shapes differ, so that fix is offered only when they are equal.
  static std::string FixFor(const Module& m, InstrId fusion, const ExtendedFusionPair& found,
                            InstrId operand, InstrId first_blocker) {
    std::string fix = StrCat("use a bitcast instead where the layouts allow it, or move the ",
                             OpcodeName(m.opcode(first_blocker)), " out of the fusion");
    const Shape* output = Subshape(m.shape(fusion), found.pair.output_index);
    const Shape* input = Subshape(m.shape(operand), found.pair.operand_index);
    if (output != nullptr && input != nullptr && ShapesEqual(*output, *input)) {
      fix += StrCat(", or declare output_to_operand_aliasing={",
                    ShapeIndexToString(found.pair.output_index), ": (", found.pair.operand, ", ",
                    ShapeIndexToString(found.pair.operand_index), ")}");
    }
    return fix;
  }
};

}  // namespace

std::unique_ptr<Rule> MakeMissedInPlacePairRule() {
  return std::make_unique<MissedInPlacePairRule>();
}

}  // namespace hlolint
