// verify-alias-config: aliasing declarations are valid for the shapes they
// name: output_to_operand_aliasing on custom-call, fusion and async-start
// (ShapeVerifier::HandleCustomCall/HandleFusion/HandleAsyncStart) and the
// module's input_output_alias and buffer_donor
// (HloInputOutputAliasConfig::Verify, HloBufferDonorConfig::Verify).
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "analysis/attribute_index.h"
#include "analysis/call_attributes.h"
#include "analysis/computation_signature.h"
#include "analysis/shape_inference.h"
#include "analysis/text_order_walk.h"
#include "parse/attributes.h"
#include "rules/checks/layout_sensitive.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// How aliased shapes are compared. Layout-insensitive: equal ignoring
// layout and dynamic dimensions. Layout-sensitive (checks/layout_sensitive.h):
// equal with layouts, but for the memory space of a scalar custom-call
// operand, and tiles and memory spaces of a nested or dead fusion. Either
// way, optionally, whether a leaf is a b(...) buffer.
struct AliasComparison {
  bool layout_sensitive = false;
  bool ignore_buffer = false;
  bool ignore_memory_space = false;
  bool ignore_tiles = false;
};

bool AliasCompatible(const Shape& a, const Shape& b, const AliasComparison& how) {
  if (how.ignore_buffer) {
    const Shape& x = a.IsBuffer() ? *a.tuple_shapes[0] : a;
    const Shape& y = b.IsBuffer() ? *b.tuple_shapes[0] : b;
    if (&x != &a || &y != &b) return AliasCompatible(x, y, how);
  }
  if (!how.layout_sensitive) return Compatible(a, b);
  ShapeEqualOptions options;
  options.ignore_memory_space = how.ignore_memory_space;
  options.ignore_tiles = how.ignore_tiles;
  return ShapesEqual(a, b, options);
}

// XLA prints layouts in this message; without them a layout-sensitive
// mismatch would read "f32[2] vs f32[2]".
std::string AliasShapeString(const Shape& s, const AliasComparison& how) {
  return how.layout_sensitive ? ShapeToStringWithDefaultLayout(s) : HumanString(s);
}

bool IsDenseArray(const Shape& s) { return s.IsArray(); }

class VerifyAliasConfigRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-alias-config", RuleCategory::kVerify, Severity::kError,
                                "aliasing declaration (output_to_operand_aliasing, "
                                "input_output_alias, buffer_donor) that XLA's verifier rejects",
                                RuleCost::kModerate};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    TextOrderWalk walk(m);
    // The instructions with the attribute, in id order, from the index:
    // looking for it in every fusion's and custom call's attributes would
    // read them all.
    for (InstrId id :
         ctx.analyses().Get<AttributeIndex>().With(AttrName::kOutputToOperandAliasing)) {
      walk.Visit(id);
      const Instruction& in = m.instr(id);
      if (in.opcode == Opcode::kAsyncStart && !in.has(Instruction::kAsyncSugar)) {
        CheckAsyncStart(ctx, id);
      } else if (in.opcode == Opcode::kCustomCall || in.opcode == Opcode::kFusion) {
        CheckOperandAliasing(ctx, id);
      }
    }
    CheckModuleAliases(ctx);
  }

 private:
  static DiagnosticBuilder Report(RuleContext& ctx, InstrId id, std::string_view check,
                                  std::string message) {
    return ctx.ReportAtAttribute(id, AttrName::kOutputToOperandAliasing,
                                 StrCat("[", check, "] ", message));
  }

  // HandleCustomCall / HandleFusion.
  static void CheckOperandAliasing(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    const bool custom_call = m.opcode(id) == Opcode::kCustomCall;
    const std::string_view check =
        custom_call ? "ShapeVerifier::HandleCustomCall" : "ShapeVerifier::HandleFusion";
    if (!m.has_known_shape(id)) return;
    bool pin_unpin = false;
    if (custom_call) {
      if (FrontendAttribute(m, id, "xla_skip_custom_call_alias_shape_check")) return;
      const std::string& target = ctx.analyses().Get<CallAttributes>().Target(id);
      pin_unpin = target == "Pin" || target == "Unpin";
    }
    std::span<const InstrId> operands = m.operands(id);
    const bool layout_sensitive = VerifiedLayoutSensitive(ctx);
    for (const OutputOperandAlias& alias : ctx.analyses().Get<CallAttributes>().Aliasing(id)) {
      if (alias.operand < 0 || alias.operand >= static_cast<int64_t>(operands.size())) {
        Report(ctx, id, check, StrCat("Invalid aliasing operand index ", alias.operand,
                                      " (the instruction has ", operands.size(), " operands)."));
        return;
      }
      const InstrId operand = operands[static_cast<size_t>(alias.operand)];
      if (!m.has_known_shape(operand)) continue;
      const Shape* operand_sub = Subshape(m.shape(operand), alias.operand_index);
      if (operand_sub == nullptr) {
        Report(ctx, id, check, StrCat("Invalid aliasing operand shape index ",
                                      ShapeIndexToString(alias.operand_index), " into ",
                                      HumanString(m.shape(operand)), "."));
        return;
      }
      const Shape* output_sub = Subshape(m.shape(id), alias.output_index);
      if (output_sub == nullptr) {
        Report(ctx, id, check, StrCat("Invalid aliasing output shape index ",
                                      ShapeIndexToString(alias.output_index), " into ",
                                      HumanString(m.shape(id)), "."));
        return;
      }
      AliasComparison how{layout_sensitive, pin_unpin, false, false};
      // A scalar operand may live in another memory space (custom calls only).
      how.ignore_memory_space =
          custom_call && operand_sub->IsArray() && ElementCount(*operand_sub) == 1;
      if (!AliasCompatible(*output_sub, *operand_sub, how) && !custom_call &&
          layout_sensitive && NestedOrDeadFusion(m, id)) {
        how.ignore_memory_space = how.ignore_tiles = true;
      }
      if (!AliasCompatible(*output_sub, *operand_sub, how)) {
        Report(ctx, id, check,
               StrCat("Different aliasing shapes: ", AliasShapeString(*operand_sub, how), " vs ",
                      AliasShapeString(*output_sub, how)));
        return;
      }
    }
  }

  // HandleAsyncStart before 2026-06-30: indices refer to the start's own
  // shape and operands (an empty output index is the whole start shape).
  static void CheckAsyncStartOwnShapes(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    constexpr std::string_view kCheck = "ShapeVerifier::HandleAsyncStart";
    if (!m.has_known_shape(id)) return;
    std::span<const InstrId> operands = m.operands(id);
    const AliasComparison how{VerifiedLayoutSensitive(ctx), true, false, false};
    for (const OutputOperandAlias& alias : ctx.analyses().Get<CallAttributes>().Aliasing(id)) {
      if (alias.operand < 0 || alias.operand >= static_cast<int64_t>(operands.size())) {
        Report(ctx, id, kCheck, "Invalid aliasing operand index.")
            .AssumesXla(XlaChange::kAsyncStartAliasWrappedComputation);
        return;
      }
      const InstrId operand = operands[static_cast<size_t>(alias.operand)];
      if (!m.has_known_shape(operand)) continue;
      const Shape* operand_sub = Subshape(m.shape(operand), alias.operand_index);
      if (operand_sub == nullptr) {
        Report(ctx, id, kCheck, "Invalid aliasing operand shape index.")
            .AssumesXla(XlaChange::kAsyncStartAliasWrappedComputation);
        return;
      }
      const Shape* output_sub = Subshape(m.shape(id), alias.output_index);
      if (output_sub == nullptr) {
        Report(ctx, id, kCheck, "Invalid aliasing output shape index.")
            .AssumesXla(XlaChange::kAsyncStartAliasWrappedComputation);
        return;
      }
      if (!AliasCompatible(*output_sub, *operand_sub, how)) {
        Report(ctx, id, kCheck,
               StrCat("Different aliasing shapes: ", AliasShapeString(*operand_sub, how), " vs ",
                      AliasShapeString(*output_sub, how)))
            .AssumesXla(XlaChange::kAsyncStartAliasWrappedComputation);
        return;
      }
    }
  }

  // HandleFusion relaxes the layout-sensitive comparison for a nested
  // fusion and for one in a computation nothing calls (the scheduler may
  // leave such computations behind). Looked up only after a mismatch.
  static bool NestedOrDeadFusion(const Module& m, InstrId fusion) {
    const CompId parent = m.parent(fusion);
    if (m.computation(parent).is_fusion_computation) return true;
    if (parent == m.entry()) return false;
    for (CompId c = 0; c < m.computation_count(); ++c) {
      for (InstrId id : m.instructions(c)) {
        for (CompId callee : m.called(id)) {
          if (callee == parent) return false;
        }
      }
    }
    return true;
  }

  // HandleAsyncStart: indices refer to the fully bound async shape
  // (tuple(parameters), result, context...) and to the wrapped parameters.
  static void CheckAsyncStart(RuleContext& ctx, InstrId id) {
    if (!ctx.xla().Has(XlaChange::kAsyncStartAliasWrappedComputation)) {
      CheckAsyncStartOwnShapes(ctx, id);
      return;
    }
    const Module& m = ctx.module();
    constexpr std::string_view kCheck = "ShapeVerifier::HandleAsyncStart";
    std::span<const CompId> called = m.called(id);
    ProgramShapeView program;
    std::vector<const Shape*> signature_params;
    if (called.empty() || !m.has_known_shape(id) ||
        !ReadSignature(m, called[0], &signature_params, &program)) {
      return;
    }
    const Shape& start = m.shape(id);
    if (!start.IsTuple() || start.tuple_shapes.size() < 2) return;
    Shape params;
    InferTupleShape(program.parameters, &params);
    Shape bound;
    bound.element_type = PrimitiveType::kTuple;
    bound.tuple_shapes.push_back(&params);
    bound.tuple_shapes.push_back(program.result);
    for (size_t i = 2; i < start.tuple_shapes.size(); ++i) {
      bound.tuple_shapes.push_back(start.tuple_shapes[i]);
    }
    const AliasComparison how{VerifiedLayoutSensitive(ctx), true, false, false};
    for (const OutputOperandAlias& alias : ctx.analyses().Get<CallAttributes>().Aliasing(id)) {
      if (alias.operand < 0) {
        Report(ctx, id, kCheck, "Negative operand number in aliasing config.")
            .AssumesXla(XlaChange::kAsyncStartAliasWrappedComputation);
        return;
      }
      if (alias.operand >= static_cast<int64_t>(program.parameters.size())) {
        Report(ctx, id, kCheck, StrCat("Operand number ", alias.operand,
                                       " in aliasing config is out of bounds."))
            .AssumesXla(XlaChange::kAsyncStartAliasWrappedComputation);
        return;
      }
      if (alias.output_index.empty()) {
        Report(ctx, id, kCheck, "Output index should not be empty.")
            .AssumesXla(XlaChange::kAsyncStartAliasWrappedComputation);
        return;
      }
      const Shape* output_sub = Subshape(bound, alias.output_index);
      if (output_sub == nullptr) {
        Report(ctx, id, kCheck, StrCat("Invalid aliasing output shape index ",
                                       ShapeIndexToString(alias.output_index), "."))
            .AssumesXla(XlaChange::kAsyncStartAliasWrappedComputation);
        return;
      }
      const Shape* operand_sub =
          Subshape(*program.parameters[static_cast<size_t>(alias.operand)], alias.operand_index);
      if (operand_sub == nullptr) {
        Report(ctx, id, kCheck, StrCat("Invalid aliasing operand shape index ",
                                       ShapeIndexToString(alias.operand_index), "."))
            .AssumesXla(XlaChange::kAsyncStartAliasWrappedComputation);
        return;
      }
      // An empty-tuple output aliased to an operand takes the operand's
      // value (late binding of an output buffer).
      const bool binds_empty = output_sub->IsTuple() && output_sub->tuple_shapes.empty();
      if (!binds_empty && !AliasCompatible(*output_sub, *operand_sub, how)) {
        Report(ctx, id, kCheck,
               StrCat("Different aliasing shapes: ", AliasShapeString(*operand_sub, how), " vs ",
                      AliasShapeString(*output_sub, how)))
            .AssumesXla(XlaChange::kAsyncStartAliasWrappedComputation);
        return;
      }
    }
  }

  // HloInputOutputAliasConfig::Verify and HloBufferDonorConfig::Verify
  // against the entry computation layout (or the entry's own shapes).
  static void CheckModuleAliases(RuleContext& ctx) {
    const Module& m = ctx.module();
    const ModuleHeader& header = m.header();
    if (m.entry() == kNoId) return;
    if (header.input_output_alias.empty() && header.buffer_donors.empty()) return;
    const Computation& entry = m.computation(m.entry());
    std::vector<const Shape*> params;
    const Shape* result = nullptr;
    if (header.has_entry_layout) {
      for (ShapeId s : header.entry_param_layouts) params.push_back(&m.shapes().Get(s));
      if (header.entry_result_layout != kNoShape) {
        result = &m.shapes().Get(header.entry_result_layout);
      }
    } else {
      for (InstrId p : entry.parameters()) {
        params.push_back(m.has_known_shape(p) ? &m.shape(p) : nullptr);
      }
      if (entry.root != kNoId && m.has_known_shape(entry.root)) result = &m.shape(entry.root);
    }
    auto report = [&](uint32_t offset, std::string message) {
      ctx.ReportAt({offset, offset + 1}, std::move(message));
    };
    absl::flat_hash_set<std::pair<int64_t, std::string>> aliased;
    for (const InputOutputAlias& alias : header.input_output_alias) {
      constexpr std::string_view kCheck = "[HloInputOutputAliasConfig::Verify] ";
      if (alias.parameter < 0 || alias.parameter >= static_cast<int64_t>(params.size())) {
        report(alias.offset, StrCat(kCheck, "Parameter number ", alias.parameter,
                                    " is out of range: the entry computation has ",
                                    params.size(), " parameters"));
        continue;
      }
      const Shape* param = params[static_cast<size_t>(alias.parameter)];
      if (param != nullptr) {
        const Shape* sub = Subshape(*param, alias.parameter_index);
        if (sub == nullptr) {
          report(alias.offset, StrCat(kCheck, "Parameter index ",
                                      ShapeIndexToString(alias.parameter_index),
                                      " is not valid for parameter ", alias.parameter, " (",
                                      HumanString(*param), ")"));
          continue;
        }
        if (!IsDenseArray(*sub)) {
          report(alias.offset, StrCat(kCheck, "The aliased parameter subshape must be a dense "
                                      "array, got ", HumanString(*sub)));
          continue;
        }
      }
      if (result != nullptr) {
        const Shape* sub = Subshape(*result, alias.output_index);
        if (sub == nullptr) {
          report(alias.offset, StrCat(kCheck, "Output index ",
                                      ShapeIndexToString(alias.output_index),
                                      " is not valid for the result ", HumanString(*result)));
          continue;
        }
        if (!IsDenseArray(*sub)) {
          report(alias.offset, StrCat(kCheck, "The aliased output subshape must be a dense "
                                      "array, got ", HumanString(*sub)));
          continue;
        }
      }
      auto key = std::make_pair(alias.parameter, ShapeIndexToString(alias.parameter_index));
      if (!aliased.insert(key).second) {
        report(alias.offset, StrCat(kCheck, "Parameter ", alias.parameter, " at index ",
                                    key.second, " is aliased with more than one output"));
      }
    }
    for (const BufferDonor& donor : header.buffer_donors) {
      constexpr std::string_view kCheck = "[HloBufferDonorConfig::Verify] ";
      if (donor.parameter < 0 || donor.parameter >= static_cast<int64_t>(params.size())) {
        report(donor.offset, StrCat(kCheck, "Parameter number ", donor.parameter,
                                    " is out of range: the entry computation has ",
                                    params.size(), " parameters"));
        continue;
      }
      const Shape* param = params[static_cast<size_t>(donor.parameter)];
      if (param != nullptr) {
        const Shape* sub = Subshape(*param, donor.parameter_index);
        if (sub == nullptr || !IsDenseArray(*sub)) {
          report(donor.offset, StrCat(kCheck, "Parameter index ",
                                      ShapeIndexToString(donor.parameter_index),
                                      " of parameter ", donor.parameter,
                                      " is not a dense array in ", HumanString(*param)));
          continue;
        }
      }
      if (aliased.contains(
              std::make_pair(donor.parameter, ShapeIndexToString(donor.parameter_index)))) {
        report(donor.offset, StrCat(kCheck, "Input ", donor.parameter, " at index ",
                                    ShapeIndexToString(donor.parameter_index),
                                    " is registered as a buffer donor. However, it is also in "
                                    "the input output alias config."));
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyAliasConfigRule() {
  return std::make_unique<VerifyAliasConfigRule>();
}

}  // namespace hlolint
