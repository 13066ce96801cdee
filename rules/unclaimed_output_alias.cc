// unclaimed-output-alias: custom calls whose output_to_operand_aliasing is
// wrong or incomplete.
//
//  (a) error: a claim XLA's verifier rejects (ShapeVerifier::HandleCustomCall:
//      operand number or shape indices out of range, aliased shapes not
//      equal) or that claims one leaf twice;
//  (b) warning: some outputs are claimed, another output is not although an
//      unclaimed operand leaf has exactly its shape;
//  (c) warning: another call to the same target claims that output;
//  (d) error: the target is configured as writing through its inputs
//      (option writes_through_inputs) and an output with a same-shaped
//      operand is unclaimed.
// The case it guards against: a Triton kernel writes its result through an
// input pointer with no declared alias; XLA never gives an undeclared output
// the operand's buffer, so the input is clobbered while still live.
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "analysis/bitcast.h"
#include "analysis/custom_call_aliasing.h"
#include "analysis/layout_phase.h"
#include "engine/dump_context.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

std::string Entry(const AliasClaim& claim) {
  return StrCat(ShapeIndexToString(claim.output_index), ": (", claim.operand, ", ",
                ShapeIndexToString(claim.operand_index), ")");
}

std::string OperandLeafName(int64_t operand, const ShapeIndex& index) {
  return index.empty() ? StrCat("operand ", operand)
                       : StrCat("operand ", operand, " at ", ShapeIndexToString(index));
}

// A key equal for shapes ShapesEqual considers equal: layout included (an
// unwritten layout is the default one) when `with_layout`, else ignored.
std::string ShapeKey(const Shape& shape, bool with_layout) {
  std::string key = ShapeToString(shape, with_layout);
  if (with_layout && shape.IsArray() && !shape.has_layout && shape.rank() > 0) {
    key += MinorToMajorString(MinorToMajor(shape));
  }
  return key;
}

// The verifier's comparison of aliased shapes: buffer-ness is ignored for
// Pin/Unpin; layout-insensitive it ignores layouts and dynamic dimensions,
// layout-sensitive it compares layouts too, except the memory space of a
// single-element operand.
bool AliasShapesEqual(const Shape& output, const Shape& operand, bool ignore_buffer,
                      bool layout_sensitive) {
  const Shape* a = &output;
  const Shape* b = &operand;
  if (ignore_buffer) {
    if (a->IsBuffer() && !a->tuple_shapes.empty()) a = a->tuple_shapes[0];
    if (b->IsBuffer() && !b->tuple_shapes.empty()) b = b->tuple_shapes[0];
  }
  ShapeEqualOptions options;
  if (!layout_sensitive) {
    options.ignore_layout = true;
    options.ignore_dynamic_dimension = true;
  } else if (b->IsArray() && ElementCount(*b) == 1) {
    options.ignore_memory_space = true;
  }
  return ShapesEqual(*a, *b, options);
}

// Every array leaf has a layout written in the text.
bool LayoutsWritten(const Shape& shape) {
  bool written = true;
  ForEachLeaf(shape, [&](const ShapeIndex&, const Shape& leaf) {
    if (leaf.IsArray() && leaf.rank() > 0 && !leaf.has_layout) written = false;
  });
  return written;
}

// Leaves under `index` of `shape` (the index itself when it is a leaf).
void LeavesUnder(const Shape& shape, const ShapeIndex& index,
                 const std::function<void(const ShapeIndex&, const Shape&)>& fn) {
  const Shape* sub = Subshape(shape, index);
  if (sub == nullptr) return;
  ForEachLeaf(*sub, [&](const ShapeIndex& rest, const Shape& leaf) {
    ShapeIndex full = index;
    full.insert(full.end(), rest.begin(), rest.end());
    fn(full, leaf);
  });
}

// A claim of a b(...) buffer output is bookkeeping XLA demands for every
// buffer operand; it says nothing about how the kernel treats arrays.
bool ClaimsAnArray(const Shape& result, const ShapeIndex& output_index) {
  bool array = false;
  LeavesUnder(result, output_index, [&](const ShapeIndex&, const Shape& leaf) {
    if (leaf.IsArray()) array = true;
  });
  return array;
}

std::string OperandLeafKey(int64_t operand, const ShapeIndex& index) {
  return StrCat(operand, ":", ShapeIndexToString(index));
}

// LayoutPhase's verdict, computed on first use.
class LayoutsAssigned {
 public:
  LayoutsAssigned(RuleContext& ctx, bool dump_says) : ctx_(ctx), dump_says_(dump_says) {}
  bool operator()() {
    if (!known_) {
      value_ = ctx_.analyses().Get<LayoutPhase>().LayoutsAssigned(dump_says_);
      known_ = true;
    }
    return value_;
  }

 private:
  RuleContext& ctx_;
  bool dump_says_;
  bool known_ = false;
  bool value_ = false;
};

struct OperandLeaf {
  int64_t operand;
  ShapeIndex index;
  const Shape* shape;
};

class UnclaimedOutputAliasRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static constexpr RuleOption kOptions[] = {
        {"writes_through_inputs", RuleOptionType::kStringList,
         "Custom-call targets known to write their outputs through their input pointers"}};
    static const RuleInfo kInfo{
        "unclaimed-output-alias", RuleCategory::kAliasing, Severity::kWarning,
        "Custom call whose output_to_operand_aliasing is invalid, or leaves out an output that "
        "a same-shaped operand could hold",
        RuleCost::kModerate, kOptions};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const CustomCallAliasing& aliasing = ctx.analyses().Get<CustomCallAliasing>();
    if (aliasing.sites().empty()) return;
    absl::flat_hash_set<std::string_view> writes_through;  // views of the options
    if (const auto it = ctx.options().find("writes_through_inputs");
        it != ctx.options().end() && it->is_array()) {
      for (const auto& target : *it) {
        if (target.is_string()) writes_through.insert(target.get_ref<const std::string&>());
      }
    }
    // Layout facts count only once layout assignment has run.
    const DumpContext* dump = ctx.dump();
    const bool dump_says = dump != nullptr && LayoutPhase::PassNamesImplyAssignedLayouts(
                                                  dump->pipeline, dump->after_pass,
                                                  dump->before_pass);
    // Asked only when a layout comparison could change a finding: most
    // modules never need LayoutPhase's pass over the module.
    LayoutsAssigned layouts_assigned{ctx, dump_says};
    for (size_t i = 0; i < aliasing.sites().size(); ++i) {
      CheckSite(ctx, aliasing, i, writes_through, layouts_assigned);
    }
  }

 private:
  static void CheckSite(RuleContext& ctx, const CustomCallAliasing& aliasing, size_t site_index,
                        const absl::flat_hash_set<std::string_view>& writes_through,
                        LayoutsAssigned& layouts_assigned) {
    const AliasingCallSite& site = aliasing.sites()[site_index];
    const int64_t operand_count = static_cast<int64_t>(aliasing.operand_count(site));
    const bool ignore_buffer = site.target == "Pin" || site.target == "Unpin";

    // Leaves claimed so far: output index -> the claim, operand leaf -> output.
    absl::flat_hash_map<std::string, const AliasClaim*> claimed_outputs;
    absl::flat_hash_map<std::string, const AliasClaim*> claimed_operands;
    int array_claims = 0;
    for (const AliasClaim& claim : aliasing.claims(site)) {
      const Shape* output = Subshape(*site.result, claim.output_index);
      const bool operand_ok = claim.operand >= 0 && claim.operand < operand_count;
      const Shape* operand =
          operand_ok ? Subshape(aliasing.operand_shape(site, claim.operand), claim.operand_index)
                     : nullptr;
      if (claim.on_async_start) {
        // Checked by the verifier on the async-start; here it only counts.
        if (output == nullptr || operand == nullptr) continue;
      } else if (!ValidateClaim(ctx, aliasing, site, claim, output, operand, operand_ok,
                                operand_count, ignore_buffer, layouts_assigned)) {
        continue;
      }
      if (ClaimsAnArray(*site.result, claim.output_index)) ++array_claims;
      bool duplicate = false;
      LeavesUnder(*site.result, claim.output_index,
                  [&](const ShapeIndex& leaf, const Shape&) {
                    auto [it, inserted] = claimed_outputs.emplace(ShapeIndexToString(leaf), &claim);
                    if (!inserted && !duplicate && !claim.on_async_start) {
                      duplicate = true;
                      ctx.ReportAtAttribute(site.call, AttrName::kOutputToOperandAliasing,
                                            StrCat("output ", ShapeIndexToString(leaf),
                                                   " of custom call '", site.target,
                                                   "' is claimed twice: by entry ",
                                                   Entry(*it->second), " and by entry ",
                                                   Entry(claim)))
                          .WithSeverity(Severity::kError);
                    }
                  });
      duplicate = false;
      LeavesUnder(aliasing.operand_shape(site, claim.operand), claim.operand_index,
                  [&](const ShapeIndex& leaf, const Shape&) {
                    auto [it, inserted] =
                        claimed_operands.emplace(OperandLeafKey(claim.operand, leaf), &claim);
                    if (!inserted && !duplicate && !claim.on_async_start) {
                      duplicate = true;
                      ctx.ReportAtAttribute(
                             site.call, AttrName::kOutputToOperandAliasing,
                             StrCat(OperandLeafName(claim.operand, leaf), " of custom call '",
                                    site.target, "' is claimed by two outputs: entries ",
                                    Entry(*it->second), " and ", Entry(claim)))
                          .WithSeverity(Severity::kError)
                          .Note("one buffer cannot hold two different outputs")
                          .Note(aliasing.operand_producer(site, claim.operand),
                                "operand produced here");
                    }
                  });
    }

    // Which calls can have an unclaimed output at all (decided before the
    // per-leaf work below, which most calls never need).
    const bool configured = !writes_through.empty() && writes_through.contains(site.target);
    if (!configured && site.xla_internal_target) return;
    if (!configured && array_claims == 0 && !aliasing.HasKernelClaims(site.kernel_key)) return;

    const bool layouts_are_assigned = layouts_assigned();
    // Unclaimed operand leaves by shape, for same-shaped candidates.
    absl::flat_hash_map<std::string, std::vector<OperandLeaf>> free_operands;
    for (int64_t op = 0; op < operand_count; ++op) {
      ForEachLeaf(aliasing.operand_shape(site, op),
                  [&](const ShapeIndex& index, const Shape& leaf) {
                    if (!leaf.IsArray() || claimed_operands.contains(OperandLeafKey(op, index))) {
                      return;
                    }
                    free_operands[ShapeKey(leaf, layouts_are_assigned)].push_back(
                        {op, index, &leaf});
                  });
    }
    if (free_operands.empty()) return;

    ForEachLeaf(*site.result, [&](const ShapeIndex& index, const Shape& leaf) {
      if (!leaf.IsArray() || ElementCount(leaf).value_or(0) == 0) return;
      if (claimed_outputs.contains(ShapeIndexToString(index))) return;
      auto candidates = free_operands.find(ShapeKey(leaf, layouts_are_assigned));
      if (candidates == free_operands.end()) return;
      // (c): another call of the same kernel claims this output, of this shape.
      const TargetClaim* other = aliasing.FindKernelClaim(site.kernel_key, index);
      if (other != nullptr) {
        const Shape* theirs = Subshape(*aliasing.sites()[other->site].result, index);
        if (other->site == site_index || theirs == nullptr || !Compatible(*theirs, leaf)) {
          other = nullptr;
        }
      }
      if (!configured && other == nullptr && array_claims == 0) return;
      // Prefer the operand the other call uses, else the first one.
      const OperandLeaf* candidate = &candidates->second.front();
      if (other != nullptr) {
        for (const OperandLeaf& c : candidates->second) {
          if (c.operand == other->claim.operand && c.index == other->claim.operand_index) {
            candidate = &c;
            break;
          }
        }
      }
      std::string reason;
      if (configured) {
        reason = StrCat("'", site.target,
                        "' is configured as writing through its inputs (writes_through_inputs)");
      } else if (other != nullptr) {
        reason = StrCat("another call to the same kernel aliases output ",
                        ShapeIndexToString(index), " (entry ", Entry(other->claim), ")");
      } else {
        std::vector<std::string> entries;
        for (const AliasClaim& claim : aliasing.claims(site)) entries.push_back(Entry(claim));
        reason = StrCat("other outputs of this call are aliased (", StrJoin(entries, ", "), ")");
      }
      ReportUnclaimed(ctx, aliasing, site, index, leaf, *candidate, reason, other,
                      configured ? Severity::kError : Severity::kWarning);
    });
  }

  // (a): XLA's verifier checks, in its order (it stops at the first bad
  // entry; every bad entry is reported here). False when the claim is
  // unusable, so it does not count as a claim.
  static bool ValidateClaim(RuleContext& ctx, const CustomCallAliasing& aliasing,
                            const AliasingCallSite& site,
                            const AliasClaim& claim, const Shape* output, const Shape* operand,
                            bool operand_ok, int64_t operand_count, bool ignore_buffer,
                            LayoutsAssigned& layouts_assigned) {
    const std::string head = StrCat("aliasing entry ", Entry(claim),
                                    " of custom call '", site.target, "' ");
    std::string problem;
    std::string why;
    InstrId note_at = kNoId;
    if (!operand_ok) {
      problem = StrCat("names operand ", claim.operand, ", but the call has ", operand_count,
                       operand_count == 1 ? " operand" : " operands");
    } else if (operand == nullptr) {
      problem = StrCat("names shape index ", ShapeIndexToString(claim.operand_index),
                       ", which is not in operand ", claim.operand, "'s shape ",
                       ShapeToString(aliasing.operand_shape(site, claim.operand)));
      note_at = aliasing.operand_producer(site, claim.operand);
    } else if (output == nullptr) {
      problem = StrCat("names output ", ShapeIndexToString(claim.output_index),
                       ", which is not in the result shape ", ShapeToString(*site.result));
    } else if (!site.skip_shape_check) {
      // Layouts are compared only once layout assignment has run (which
      // also makes operands satisfy operand_layout_constraints), and only
      // where the text writes them.
      if (!AliasShapesEqual(*output, *operand, ignore_buffer, /*layout_sensitive=*/false)) {
        problem = StrCat("aliases output ", ShapeToString(*output), " with operand ",
                         ShapeToString(*operand));
        why = "XLA's verifier requires equal shapes (unless frontend attribute "
              "xla_skip_custom_call_alias_shape_check is set)";
        note_at = aliasing.operand_producer(site, claim.operand);
      } else if (LayoutsWritten(*output) && LayoutsWritten(*operand) &&
                 !AliasShapesEqual(*output, *operand, ignore_buffer,
                                   /*layout_sensitive=*/true) &&
                 layouts_assigned()) {
        problem = StrCat("aliases output ", ShapeToString(*output), " with operand ",
                         ShapeToString(*operand), " of another layout");
        why = "XLA's layout-sensitive verifier rejects differing layouts after layout "
              "assignment (unless frontend attribute xla_skip_custom_call_alias_shape_check is "
              "set)";
        note_at = aliasing.operand_producer(site, claim.operand);
      }
    }
    if (problem.empty()) return true;
    DiagnosticBuilder d =
        ctx.ReportAtAttribute(site.call, AttrName::kOutputToOperandAliasing, head + problem);
    d.WithSeverity(Severity::kError);
    if (note_at != kNoId) d.Note(note_at, "operand produced here");
    if (!why.empty()) d.Note(why);
    return false;
  }

  static void ReportUnclaimed(RuleContext& ctx, const CustomCallAliasing& aliasing,
                              const AliasingCallSite& site, const ShapeIndex& index,
                              const Shape& leaf, const OperandLeaf& candidate,
                              const std::string& reason, const TargetClaim* other,
                              Severity severity) {
    const std::string output_name = StrCat("output ", ShapeIndexToString(index));
    const std::string operand_name = OperandLeafName(candidate.operand, candidate.index);
    const std::string hlo_fix =
        StrCat("output_to_operand_aliasing={", ShapeIndexToString(index), ": (",
               candidate.operand, ", ", ShapeIndexToString(candidate.index), ")}");
    // jax.ffi.ffi_call / pallas_call / triton_call map input index -> output
    // index; a single-result call's output is index 0.
    std::string jax_fix;
    const bool tuple_result = site.result->IsTuple();
    if (candidate.index.empty() && ((tuple_result && index.size() == 1) ||
                                    (!tuple_result && index.empty()))) {
      jax_fix = StrCat("input_output_aliases={", candidate.operand, ": ",
                       tuple_result ? index[0] : 0, "}");
    }
    DiagnosticBuilder d = ctx.ReportAtAttribute(
        site.call, AttrName::kOutputToOperandAliasing,
        StrCat("custom call '", site.target, "' declares no alias for ", output_name, " (",
               ShapeToString(leaf), ")"));
    d.Label(StrCat("no entry for ", output_name));
    d.Note(StrCat(operand_name, " is not aliased and has the same shape; ", reason));
    d.Note("a kernel that writes this output through an input's buffer without a declared alias "
           "clobbers a buffer XLA may still read (XLA never gives an undeclared output an "
           "operand's buffer) and leaves the declared output unwritten");
    d.WithSeverity(severity);
    d.Note(aliasing.operand_producer(site, candidate.operand),
           StrCat(operand_name, " (", ShapeToString(*candidate.shape), ") produced here"));
    if (other != nullptr) {
      const AliasingCallSite& other_site = aliasing.sites()[other->site];
      d.NoteAtAttribute(other->claim.declared_at, AttrName::kOutputToOperandAliasing,
                        StrCat("this call to '", other_site.target, "' aliases ",
                               output_name, " (entry ", Entry(other->claim), ")"));
    }
    d.Fix(StrCat("declare the alias: ",
                 jax_fix.empty() ? hlo_fix
                                 : StrCat(jax_fix,
                                          " on jax.ffi.ffi_call, pallas_call or jax-triton's "
                                          "triton_call (",
                                          hlo_fix, " in HLO)"),
                 "; if the kernel cannot run in place, pass a dedicated output buffer as an "
                 "extra operand and alias that"));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeUnclaimedOutputAliasRule() {
  return std::make_unique<UnclaimedOutputAliasRule>();
}

}  // namespace hlolint
