// verify-call-signature: callers agree with the computations they call
// (ShapeVerifier::HandleCall/HandleWhile/HandleConditional/HandleFusion,
// CheckFusionInstruction), composite calls carry their attributes, and
// called computations run on the caller's execution thread
// (InstructionVerifier::Preprocess, CheckCallableInstructionThreadName).
#include "analysis/opcode_index.h"
#include "analysis/shape_inference.h"
#include "parse/attributes.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

bool IsAsync(Opcode op) {
  return op == Opcode::kAsyncStart || op == Opcode::kAsyncUpdate || op == Opcode::kAsyncDone;
}

class VerifyCallSignatureRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-call-signature", RuleCategory::kVerify, Severity::kError,
                                "call, while, conditional or fusion that does not match the "
                                "computation it calls",
                                RuleCost::kModerate};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    if (m.entry() != kNoId && m.computation(m.entry()).is_fusion_computation) {
      ctx.ReportAt({m.computation(m.entry()).name_offset,
                    m.computation(m.entry()).name_offset + m.computation(m.entry()).name_size},
                   "[HloVerifier::Run] Module entry computation cannot be a fusion computation");
    }
    const OpcodeIndex& index = ctx.analyses().Get<OpcodeIndex>();
    // With one execution thread (the usual case) no thread check can fail:
    // only the four caller opcodes need a visit.
    std::vector<InstrId> visited;
    const bool one_thread = OneThread(m);
    if (one_thread) {
      index.Collect({Opcode::kCall, Opcode::kWhile, Opcode::kConditional, Opcode::kFusion},
                    &visited);
    } else {
      visited.resize(m.instruction_count());
      for (InstrId id = 0; id < visited.size(); ++id) visited[id] = id;
    }
    for (InstrId id : visited) {
      if (!one_thread && !CheckThreads(ctx, id)) continue;
      switch (m.opcode(id)) {
        case Opcode::kCall: CheckCall(ctx, id); break;
        case Opcode::kWhile: CheckWhile(ctx, id); break;
        case Opcode::kConditional: CheckConditional(ctx, id); break;
        case Opcode::kFusion: CheckFusion(ctx, id); break;
        default: break;
      }
    }
  }

 private:
  static std::string_view Thread(const Module& m, CompId c) {
    return m.execution_thread(c);
  }

  static bool OneThread(const Module& m) {
    for (CompId c = 1; c < m.computation_count(); ++c) {
      if (Thread(m, c) != Thread(m, 0)) return false;
    }
    return true;
  }

  // Thread names: to_apply (Preprocess), called computations of non-async
  // callers, and async ops against their wrapped computation.
  static bool CheckThreads(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    std::span<const CompId> called = m.called(id);
    if (called.empty()) return true;
    const std::string_view parent = Thread(m, m.parent(id));
    const Opcode op = m.opcode(id);
    // Async ops are exempt: XLA moves the wrapped computation (and what it
    // calls) to the op's async_execution_thread when it builds the op.
    if (IsAsync(op)) return true;
    for (CompId c : called) {
      if (Thread(m, c) == parent) continue;
      const bool to_apply = m.FindAttribute(id, AttrName::kToApply) != nullptr;
      ctx.Report(id, to_apply
                         ? StrCat("[InstructionVerifier::Preprocess] ", m.name(id),
                                  " to_apply computation execution thread does not match (",
                                  Thread(m, c), " vs ", parent, ")")
                         : StrCat("[CheckCallableInstructionThreadName] Callable instruction ",
                                  m.name(id), " expects parent computation thread name same as "
                                  "called computation's thread name (", parent, " vs ",
                                  Thread(m, c), ")"));
      return false;
    }
    return true;
  }

  static bool ParameterCount(RuleContext& ctx, InstrId id, CompId callee, size_t expected) {
    const Module& m = ctx.module();
    const size_t actual = m.computation(callee).parameters().size();
    if (actual == expected) return true;
    ctx.Report(id, StrCat("[ShapeVerifier::CheckParameterCount] Expected computation ",
                          m.computation_name(callee), " called from ", m.name(id), " to have ",
                          expected, " parameters, has ", actual));
    return false;
  }

  // CheckOperandAndParameter: operand `operand` ≅ parameter `param` of callee.
  static bool OperandMatches(RuleContext& ctx, InstrId id, size_t operand, CompId callee,
                             size_t param) {
    const Module& m = ctx.module();
    const InstrId arg = m.operand(id, operand);
    const InstrId p = m.computation(callee).parameters()[param];
    if (!m.has_known_shape(arg) || !m.has_known_shape(p)) return true;
    if (Compatible(m.shape(arg), m.shape(p))) return true;
    ctx.Report(id, StrCat("[ShapeVerifier::CheckOperandAndParameter] Operand ", operand, " (",
                          m.name(arg), ": ", HumanString(m.shape(arg)),
                          ") does not match parameter ", param, " of ",
                          m.computation_name(callee), " (", HumanString(m.shape(p)), ")"))
        .Note(p, "parameter");
    return false;
  }

  // CheckShape with the strict comparison of call/while/conditional/fusion.
  static bool ResultMatches(RuleContext& ctx, InstrId id, CompId callee, std::string_view check) {
    const Module& m = ctx.module();
    const InstrId root = m.computation(callee).root;
    if (root == kNoId || !m.has_known_shape(root) || !m.has_known_shape(id)) return true;
    if (!m.instr(id).has(Instruction::kShapeWritten)) return true;
    if (Compatible(m.shape(id), m.shape(root))) return true;
    ctx.Report(id, StrCat("[", check, "] Expected instruction to have shape equal to ",
                          HumanString(m.shape(root)), " (root of ", m.computation_name(callee),
                          "), actual shape is ", HumanString(m.shape(id))))
        .Note(root, "root of the called computation");
    return false;
  }

  static void CheckCall(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    std::span<const CompId> called = m.called(id);
    if (called.empty()) return;
    const CompId callee = called[0];
    if (!ParameterCount(ctx, id, callee, m.operands(id).size())) return;
    for (size_t i = 0; i < m.operands(id).size(); ++i) {
      if (!OperandMatches(ctx, id, i, callee, i)) return;
    }
    if (!CheckComposite(ctx, id)) return;
    ResultMatches(ctx, id, callee, "ShapeVerifier::HandleCall");
  }

  static bool CheckComposite(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    if (!BoolAttr(m, id, AttrName::kIsComposite).value_or(false)) return true;
    auto fail = [&](std::string message) {
      ctx.ReportAtAttribute(id, AttrName::kIsComposite,
                            StrCat("[ShapeVerifier::HandleCall] ", message));
      return false;
    };
    if (m.FindAttribute(id, AttrName::kFrontendAttributes) == nullptr) {
      return fail("A composite call op must have frontend attributes");
    }
    std::optional<std::string> name = FrontendAttribute(m, id, "composite.name");
    if (!name || name->empty()) {
      return fail("A composite call op must have frontend attributes with key composite.name "
                  "whose value is non-empty");
    }
    std::optional<std::string> attributes = FrontendAttribute(m, id, "composite.attributes");
    if (attributes && attributes->empty()) {
      return fail("A composite call op must have frontend attributes with key "
                  "composite.attributes whose value is default: {} or non-empty");
    }
    if (std::optional<std::string> version = FrontendAttribute(m, id, "composite.version")) {
      int64_t value = 0;
      if (!ParseIntText(*version, &value) || value < 0) {
        return fail(StrCat("A composite call op must have frontend attributes with a "
                           "composite.version whose value is a non-negative integer but got: ",
                           *version));
      }
    }
    return true;
  }

  static void CheckWhile(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    std::span<const CompId> called = m.called(id);
    if (called.size() != 2) return;
    const CompId condition = called[0], body = called[1];
    if (!ParameterCount(ctx, id, body, 1) || !ParameterCount(ctx, id, condition, 1)) return;
    if (m.operands(id).size() != 1) return;  // verify-operand-count
    if (!OperandMatches(ctx, id, 0, body, 0) || !OperandMatches(ctx, id, 0, condition, 0)) return;
    const InstrId cond_root = m.computation(condition).root;
    if (cond_root != kNoId && m.has_known_shape(cond_root)) {
      const Shape& s = m.shape(cond_root);
      if (!(s.IsScalar() && s.element_type == PrimitiveType::kPred)) {
        ctx.Report(id, StrCat("[ShapeVerifier::HandleWhile] Conditional computation shape does "
                              "not lead to a scalar predicate shape: ", HumanString(s)))
            .Note(cond_root, "root of the condition");
        return;
      }
    }
    ResultMatches(ctx, id, body, "ShapeVerifier::HandleWhile");
  }

  static void CheckConditional(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    std::span<const CompId> branches = m.called(id);
    if (m.operands(id).size() != branches.size() + 1) return;  // the parser reports it
    for (size_t j = 0; j < branches.size(); ++j) {
      if (!ParameterCount(ctx, id, branches[j], 1)) return;
      if (!OperandMatches(ctx, id, j + 1, branches[j], 0)) return;
      if (!ResultMatches(ctx, id, branches[j], "ShapeVerifier::HandleConditional")) return;
    }
  }

  static void CheckFusion(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    std::span<const CompId> called = m.called(id);
    if (called.size() != 1) {
      ctx.Report(id, StrCat("[ShapeVerifier::HandleFusion] Fusion has a non-unary number of "
                            "called computations (", called.size(), ")"));
      return;
    }
    const CompId fused = called[0];
    const Computation& comp = m.computation(fused);
    const InstrId root = comp.root;
    if (root != kNoId && m.has_known_shape(root) && m.has_known_shape(id) &&
        m.instr(id).has(Instruction::kShapeWritten) && !Compatible(m.shape(id), m.shape(root))) {
      ctx.Report(id, StrCat("[ShapeVerifier::HandleFusion] Fused computation shape (",
                            HumanString(m.shape(root)), ") is not equal to the fusion shape (",
                            HumanString(m.shape(id)), ")"))
          .Note(root, "root of the fused computation");
      return;
    }
    const size_t operands = m.operands(id).size();
    if (comp.parameters().size() > operands) {
      ctx.Report(id, StrCat("[ShapeVerifier::HandleFusion] Fused parameter count (",
                            comp.parameters().size(), ") is greater than the number of operands (",
                            operands, ") passed to the fusion instruction"));
      return;
    }
    // CheckFusionInstruction: the fused root has no users.
    // (The count is in the root's record; its list is another cache miss.)
    if (root != kNoId && m.UserCount(root) != 0) {
      ctx.Report(id, StrCat("[CheckFusionInstruction] Root of ", m.name(id),
                            " may not have users"))
          .Note(m.users(root)[0], "user of the fused root");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyCallSignatureRule() {
  return std::make_unique<VerifyCallSignatureRule>();
}

}  // namespace hlolint
