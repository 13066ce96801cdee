// verify-async-pairs: asynchronous start/update/done chains are well formed
// (VerifyAsynchronousInstructionPairs) and their shapes agree with the
// wrapped computation (ShapeVerifier::HandleAsyncStart/Update/Done with
// XLA's late-binding rules, HandleCopyStart/HandleCopyDone), and the
// computations they wrap hold one instruction (VerifyAsyncComputation).
#include <initializer_list>
#include <vector>

#include "analysis/computation_signature.h"
#include "analysis/opcode_index.h"
#include "analysis/shape_inference.h"
#include "parse/attributes.h"
#include "rules/checks/layout_sensitive.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

constexpr std::string_view kPairs = "[VerifyAsynchronousInstructionPairs] ";

bool OneOf(Opcode op, std::initializer_list<Opcode> set) {
  for (Opcode o : set) {
    if (o == op) return true;
  }
  return false;
}

std::string OpcodeList(std::initializer_list<Opcode> set, std::string_view separator) {
  std::string out;
  for (Opcode o : set) {
    if (!out.empty()) out += separator;
    out += OpcodeName(o);
  }
  return out;
}

// The name XLA prints for an opcode, with the wrapped op of async sugar.
std::string DisplayOpcode(const Module& m, InstrId id) {
  const Instruction& in = m.instr(id);
  if (in.has(Instruction::kAsyncSugar)) {
    const char* suffix = in.opcode == Opcode::kAsyncStart    ? "-start"
                         : in.opcode == Opcode::kAsyncUpdate ? "-update"
                                                             : "-done";
    return StrCat(OpcodeName(m.async_wrapped_opcode(id)), suffix);
  }
  return std::string(OpcodeName(in.opcode));
}

class VerifyAsyncPairsRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-async-pairs", RuleCategory::kVerify, Severity::kError,
                                "asynchronous start/update/done chain that XLA's verifier "
                                "rejects (pairing, shapes, wrapped computation)"};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    const OpcodeIndex& index = ctx.analyses().Get<OpcodeIndex>();
    std::vector<uint8_t> async_computation(m.computation_count(), 0);
    for (InstrId id : index.Of(Opcode::kAsyncStart)) {
      if (!m.called(id).empty()) async_computation[m.called(id)[0]] = 1;
    }
    // The opcodes CheckPairs and CheckShapes look at, in id order.
    using O = Opcode;
    const std::vector<InstrId> checked = index.Collect(
        {O::kAsyncStart, O::kAsyncUpdate, O::kAsyncDone, O::kAllReduceStart, O::kAllReduceDone,
         O::kAllGatherStart, O::kAllGatherDone, O::kCopyStart, O::kCopyDone,
         O::kCollectivePermuteStart, O::kCollectivePermuteDone, O::kSend, O::kRecv,
         O::kSendDone, O::kRecvDone});
    for (InstrId id : checked) {
      if (!CheckPairs(ctx, id, async_computation)) continue;
      CheckShapes(ctx, id);
    }
    std::vector<uint8_t> seen(m.computation_count(), 0);
    for (InstrId id : index.Of(Opcode::kAsyncStart)) {
      if (m.instr(id).has(Instruction::kAsyncSugar) || m.called(id).empty()) continue;
      const CompId wrapped = m.called(id)[0];
      if (seen[wrapped]) continue;
      seen[wrapped] = 1;
      CheckAsyncComputation(ctx, id, wrapped);
    }
  }

 private:
  // VerifyAsyncComputation (HloComputation::CanExpandIntoSingleInstruction):
  // a `calls=` computation of an async-start holds one instruction besides
  // its parameters. Not checked: computations that hold nothing but
  // send/recv ops, bitcasts, parameters and tuples
  // (HloComputation::OnlyContainsSendRecv: NCCL groups on GPU), and
  // collectives groups (`_collectives_group` on the start). Get-tuple-
  // elements of parameters and a root tuple do not count: XLA's own tests
  // verify such computations (docs/rules/verify-async-pairs.md).
  static void CheckAsyncComputation(RuleContext& ctx, InstrId start, CompId wrapped) {
    const Module& m = ctx.module();
    if (FrontendAttribute(m, start, "_collectives_group")) return;
    std::vector<InstrId> wrapped_ops;
    bool only_send_recv = true;
    for (InstrId id : m.instructions(wrapped)) {
      const Opcode op = m.opcode(id);
      if (!OneOf(op, {Opcode::kSend, Opcode::kRecv, Opcode::kBitcast, Opcode::kParameter,
                      Opcode::kTuple})) {
        only_send_recv = false;
      }
      const bool unpacks_parameter = op == Opcode::kGetTupleElement && !m.operands(id).empty() &&
                                     m.opcode(m.operand(id, 0)) == Opcode::kParameter;
      const bool packs_root = op == Opcode::kTuple && m.IsRoot(id);
      if (op != Opcode::kParameter && !unpacks_parameter && !packs_root) wrapped_ops.push_back(id);
    }
    if (wrapped_ops.size() < 2 || only_send_recv) return;
    auto report = ctx.Report(wrapped_ops[0],
                             StrCat("[VerifyAsyncComputation] Asynchronous computation ",
                                    m.computation_name(wrapped),
                                    " expected to contain only the root and parameter "
                                    "instructions"));
    report.Note(wrapped_ops[1], "a second instruction in it");
    report.Note(start, "the async computation of this async-start");
    report.Fix("wrap one instruction per async computation; move the rest out of it");
  }

  // VerifySingleUser: exactly one user, of an expected opcode. XLA counts
  // users only, so a ROOT start with no done is rejected too (parser tests
  // print such unfinished chains; they never verify them).
  static bool SingleUser(RuleContext& ctx, InstrId id, std::initializer_list<Opcode> expected) {
    const Module& m = ctx.module();
    std::span<const InstrId> users = m.users(id);
    if (users.size() != 1) {
      auto b = ctx.Report(id, StrCat(kPairs, "The ", DisplayOpcode(m, id),
                                     " instruction requires one consumer, found ", users.size()));
      for (InstrId user : users) b.Note(user, "consumer");
      return false;
    }
    if (!OneOf(m.opcode(users[0]), expected)) {
      ctx.Report(id, StrCat(kPairs, "The consumer of a ", DisplayOpcode(m, id),
                            " instruction needs to be one of (", OpcodeList(expected, ", "),
                            "), found ", OpcodeName(m.opcode(users[0]))))
          .Note(users[0], "consumer");
      return false;
    }
    return true;
  }

  // VerifySingleOperand: the chain operand has one of the expected opcodes.
  static bool ChainOperand(RuleContext& ctx, InstrId id, std::initializer_list<Opcode> expected) {
    const Module& m = ctx.module();
    if (m.operands(id).empty()) return true;
    const InstrId operand = m.operand(id, 0);
    if (OneOf(m.opcode(operand), expected)) return true;
    ctx.Report(id, StrCat(kPairs, "The operand of a ", DisplayOpcode(m, id),
                          " instruction needs to be ", OpcodeList(expected, " or "), ", found ",
                          OpcodeName(m.opcode(operand))))
        .Note(operand, "operand");
    return false;
  }

  static bool CheckPairs(RuleContext& ctx, InstrId id, const std::vector<uint8_t>& async_comps) {
    const Module& m = ctx.module();
    using O = Opcode;
    switch (m.opcode(id)) {
      case O::kAsyncStart:
        return SingleUser(ctx, id, {O::kAsyncUpdate, O::kAsyncDone});
      case O::kAsyncUpdate:
        return ChainOperand(ctx, id, {O::kAsyncStart, O::kAsyncUpdate}) &&
               SingleUser(ctx, id, {O::kAsyncUpdate, O::kAsyncDone});
      case O::kAsyncDone:
        return ChainOperand(ctx, id, {O::kAsyncStart, O::kAsyncUpdate});
      case O::kAllReduceStart:
        return SingleUser(ctx, id, {O::kAllReduceDone});
      case O::kAllReduceDone:
        return ChainOperand(ctx, id, {O::kAllReduceStart});
      case O::kAllGatherStart:
        return SingleUser(ctx, id, {O::kAllGatherDone});
      case O::kAllGatherDone:
        return ChainOperand(ctx, id, {O::kAllGatherStart});
      case O::kCopyStart:
        return SingleUser(ctx, id, {O::kCopyDone});
      case O::kCopyDone:
        return ChainOperand(ctx, id, {O::kCopyStart});
      case O::kCollectivePermuteStart:
        return SingleUser(ctx, id, {O::kCollectivePermuteDone});
      case O::kCollectivePermuteDone:
        return ChainOperand(ctx, id, {O::kCollectivePermuteStart});
      case O::kSend: case O::kRecv: {
        // Without users only as the root of an async computation.
        if (m.IsRoot(id) && async_comps[m.parent(id)]) return true;
        const bool send = m.opcode(id) == O::kSend;
        return SingleUser(ctx, id, {send ? O::kSendDone : O::kRecvDone, O::kTuple});
      }
      case O::kSendDone:
        return ChainOperand(ctx, id, {O::kSend, O::kGetTupleElement});
      case O::kRecvDone:
        return ChainOperand(ctx, id, {O::kRecv, O::kGetTupleElement});
      default:
        return true;
    }
  }

  static void CheckShapes(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    switch (m.opcode(id)) {
      case Opcode::kAsyncStart: case Opcode::kAsyncUpdate: case Opcode::kAsyncDone:
        CheckAsyncShapes(ctx, id);
        return;
      case Opcode::kCopyStart: CheckCopyStart(ctx, id); return;
      case Opcode::kCopyDone: CheckCopyDone(ctx, id); return;
      default: return;
    }
  }

  // The start of the chain `id` belongs to (follows operand 0).
  static InstrId ChainStart(const Module& m, InstrId id) {
    for (int steps = 0; steps < 1 << 20 && m.opcode(id) != Opcode::kAsyncStart; ++steps) {
      if (m.operands(id).empty()) return kNoId;
      const InstrId prev = m.operand(id, 0);
      if (m.opcode(prev) != Opcode::kAsyncStart && m.opcode(prev) != Opcode::kAsyncUpdate) {
        return kNoId;
      }
      id = prev;
    }
    return m.opcode(id) == Opcode::kAsyncStart ? id : kNoId;
  }

  // ShapeVerifier::ShapesSame: layouts count in layout-sensitive mode.
  static bool SameAsyncShape(const Shape& a, const Shape& b, bool layout_sensitive) {
    return layout_sensitive ? SameShapeWithLayout(a, b) : Compatible(a, b);
  }

  static bool PrefixCompatible(std::span<const Shape* const> prefix,
                               std::span<const Shape* const> full, bool layout_sensitive) {
    if (prefix.size() > full.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i) {
      if (!SameAsyncShape(*prefix[i], *full[i], layout_sensitive)) return false;
    }
    return true;
  }

  // Shapes as the message prints them: with layouts when they count.
  static std::string AsyncShapeString(const Shape& s, bool layout_sensitive) {
    return layout_sensitive ? ShapeToStringWithDefaultLayout(s) : HumanString(s);
  }

  static void CheckAsyncShapes(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    const Opcode op = m.opcode(id);
    const InstrId start = ChainStart(m, id);
    if (start == kNoId || !m.has_known_shape(id) || !m.has_known_shape(start)) return;
    for (InstrId operand : m.operands(id)) {
      if (!m.has_known_shape(operand)) return;
    }
    const Shape& start_shape = m.shape(start);
    if (!start_shape.IsTuple() || start_shape.tuple_shapes.size() < 2 ||
        !start_shape.tuple_shapes[0]->IsTuple()) {
      return;  // the parser reports malformed async shapes
    }
    // The wrapped computation's signature: the `calls=` computation. `X-start`
    // sugar wraps an implicit computation whose signature the text does not
    // spell out when operands are bound late.
    std::vector<const Shape*> signature_params;  // params views them
    std::span<const Shape* const> params;
    const Shape* root = nullptr;
    std::span<const CompId> called = m.called(start);
    const Instruction& start_instr = m.instr(start);
    const bool sugar = start_instr.has(Instruction::kAsyncSugar);
    const bool known_signature = !called.empty() && !sugar;
    if (known_signature) {
      ProgramShapeView program;
      if (!ReadSignature(m, called[0], &signature_params, &program)) return;
      params = program.parameters;
      root = program.result;
    } else {
      CheckImplicitChain(ctx, id);
      return;
    }
    const std::string handler = op == Opcode::kAsyncStart    ? "ShapeVerifier::HandleAsyncStart"
                                : op == Opcode::kAsyncUpdate ? "ShapeVerifier::HandleAsyncUpdate"
                                                             : "ShapeVerifier::HandleAsyncDone";
    auto report = [&](std::string message) {
      ctx.Report(id, StrCat("[", handler, "] The ", DisplayOpcode(m, id), " ", message));
    };
    const bool ls = VerifiedLayoutSensitive(ctx);
    auto text = [ls](const Shape& s) { return AsyncShapeString(s, ls); };
    if (op == Opcode::kAsyncDone) {
      const InstrId prev = m.operand(id, 0);
      const Shape& prev_shape = m.shape(prev);
      if (!prev_shape.IsTuple() || prev_shape.tuple_shapes.empty() ||
          !prev_shape.tuple_shapes[0]->IsTuple()) {
        return;
      }
      if (prev_shape.tuple_shapes[0]->tuple_shapes.size() != params.size()) {
        report(StrCat("expects the operands of the previous async instruction to be fully bound: ",
                      prev_shape.tuple_shapes[0]->tuple_shapes.size(), " of ", params.size(),
                      " parameters are bound"));
        return;
      }
      // An empty result bound to an operand by the start's aliasing takes
      // that operand's shape.
      const bool bound_output = root->IsTuple() && root->tuple_shapes.empty() &&
                                m.FindAttribute(start, AttrName::kOutputToOperandAliasing);
      if (!bound_output && !SameAsyncShape(m.shape(id), *root, ls)) {
        report(StrCat("expects its shape to match the async computation result shape (",
                      text(m.shape(id)), " vs ", text(*root), ")"));
      }
      return;
    }
    const Shape& shape = m.shape(id);
    if (!shape.IsTuple() || shape.tuple_shapes.size() < 2 || !shape.tuple_shapes[0]->IsTuple()) {
      report(StrCat("expects the async shape to be in the form of ((op0_shape, ...), "
                    "output_shape, ...), found ", HumanString(shape)));
      return;
    }
    std::span<const Shape* const> bound = shape.tuple_shapes[0]->tuple_shapes;
    // An update re-states the operands bound before it; only the ones it
    // binds itself are checked against the parameters (and the start's).
    size_t first_new = 0;
    if (op == Opcode::kAsyncUpdate) {
      const Shape& prev = m.shape(m.operand(id, 0));
      if (prev.IsTuple() && !prev.tuple_shapes.empty() && prev.tuple_shapes[0]->IsTuple()) {
        first_new = std::min(bound.size(), prev.tuple_shapes[0]->tuple_shapes.size());
      }
    }
    if (bound.size() > params.size() ||
        !PrefixCompatible(bound.subspan(first_new),
                          params.subspan(std::min(first_new, params.size())), ls)) {
      report(StrCat("expects the async shape at index {0} to be a tuple with shapes that match "
                    "the prefix of the async computation parameter shape (",
                    text(*shape.tuple_shapes[0]), " vs ", ParamsString(params, ls), ")"));
      return;
    }
    const Shape& output = *shape.tuple_shapes[1];
    bool output_ok;
    if (root->IsTuple()) {
      output_ok =
          output.IsTuple() && PrefixCompatible(output.tuple_shapes, root->tuple_shapes, ls);
    } else {
      output_ok = (output.IsTuple() && output.tuple_shapes.empty()) ||
                  SameAsyncShape(output, *root, ls);
    }
    if (!output_ok) {
      report(StrCat("expects the async shape at index {1} to match the prefix of the async "
                    "computation result shape (", text(output), " vs ", text(*root), ")"));
      return;
    }
    std::span<const InstrId> operands = m.operands(id);
    if (op == Opcode::kAsyncStart) {
      if (operands.size() != bound.size()) {
        report(StrCat("expects ", bound.size(), " operands, found ", operands.size()));
        return;
      }
      for (size_t i = 0; i < operands.size(); ++i) {
        if (!SameAsyncShape(m.shape(operands[i]), *bound[i], ls)) {
          report(StrCat("expects the shape of operand ", i, " to match the async shape at index "
                        "{0, ", i, "} (", text(m.shape(operands[i])), " vs ", text(*bound[i]),
                        ")"));
          return;
        }
      }
      return;
    }
    // async-update(prev, x1..xk) binds k more parameters.
    const Shape& prev_shape = m.shape(operands[0]);
    if (!prev_shape.IsTuple() || prev_shape.tuple_shapes.empty() ||
        !prev_shape.tuple_shapes[0]->IsTuple()) {
      return;
    }
    const size_t before = prev_shape.tuple_shapes[0]->tuple_shapes.size();
    const size_t added = operands.size() - 1;
    if (bound.size() < before || bound.size() - before != added) {
      report(StrCat("has ", added, " new operands, but the shape indicates ",
                    static_cast<int64_t>(bound.size()) - static_cast<int64_t>(before),
                    " new bound parameters"));
      return;
    }
    for (size_t j = 0; j < added; ++j) {
      const Shape& x = m.shape(operands[j + 1]);
      if (!SameAsyncShape(x, *bound[before + j], ls)) {
        report(StrCat("expects the shape of operand ", j + 1, " to match the async shape at "
                      "index {0, ", before + j, "} (", text(x), " vs ", text(*bound[before + j]),
                      ")"));
        return;
      }
    }
  }

  // Chains whose wrapped computation is implicit: bound-operand counts must
  // grow by the operands an update adds, and an eager start-done pair must
  // agree on the result. Returns false after reporting.
  static bool CheckImplicitChain(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    const Opcode op = m.opcode(id);
    if (op == Opcode::kAsyncStart || m.operands(id).empty()) return true;
    const InstrId prev = m.operand(id, 0);
    const Shape& prev_shape = m.shape(prev);
    if (!prev_shape.IsTuple() || prev_shape.tuple_shapes.size() < 2 ||
        !prev_shape.tuple_shapes[0]->IsTuple()) {
      return true;
    }
    const std::string handler =
        op == Opcode::kAsyncUpdate ? "ShapeVerifier::HandleAsyncUpdate" : "ShapeVerifier::HandleAsyncDone";
    if (op == Opcode::kAsyncDone) {
      const Shape& output = *prev_shape.tuple_shapes[1];
      const bool eager = m.opcode(prev) == Opcode::kAsyncStart &&
                         !prev_shape.tuple_shapes[0]->tuple_shapes.empty() &&
                         !(output.IsTuple() && output.tuple_shapes.empty());
      if (eager && !Compatible(m.shape(id), output)) {
        ctx.Report(id, StrCat("[", handler, "] The ", DisplayOpcode(m, id),
                              " expects its shape to match the async shape at index {1} (",
                              HumanString(m.shape(id)), " vs ", HumanString(output), ")"));
        return false;
      }
      return true;
    }
    const Shape& shape = m.shape(id);
    if (!shape.IsTuple() || shape.tuple_shapes.empty() || !shape.tuple_shapes[0]->IsTuple()) {
      return true;
    }
    const size_t before = prev_shape.tuple_shapes[0]->tuple_shapes.size();
    const size_t now = shape.tuple_shapes[0]->tuple_shapes.size();
    const size_t added = m.operands(id).size() - 1;
    if (now < before || now - before != added) {
      ctx.Report(id, StrCat("[", handler, "] The ", DisplayOpcode(m, id), " has ", added,
                            " new operands, but the shape indicates ",
                            static_cast<int64_t>(now) - static_cast<int64_t>(before),
                            " new bound parameters"));
      return false;
    }
    return true;
  }

  static std::string ParamsString(std::span<const Shape* const> params, bool layout_sensitive) {
    std::string out = "(";
    for (size_t i = 0; i < params.size(); ++i) {
      if (i) out += ", ";
      out += AsyncShapeString(*params[i], layout_sensitive);
    }
    return out + ")";
  }

  static void CheckCopyStart(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    if (!m.has_known_shape(id) || !m.has_known_shape(m.operand(id, 0))) return;
    const Shape& shape = m.shape(id);
    const Shape& operand = m.shape(m.operand(id, 0));
    const bool ok = shape.IsTuple() && shape.tuple_shapes.size() == 3 &&
                    Compatible(*shape.tuple_shapes[0], operand) &&
                    Compatible(*shape.tuple_shapes[1], operand) &&
                    shape.tuple_shapes[2]->IsScalar() &&
                    shape.tuple_shapes[2]->element_type == PrimitiveType::kU32;
    if (!ok) {
      ctx.Report(id, StrCat("[ShapeVerifier::HandleCopyStart] Expected instruction to have shape "
                            "equal to (", HumanString(operand), ", ", HumanString(operand),
                            ", u32[]), actual shape is ", HumanString(shape)));
    }
  }

  static void CheckCopyDone(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    const InstrId start = m.operand(id, 0);
    if (!m.has_known_shape(id) || !m.has_known_shape(start)) return;
    const Shape& operand = m.shape(start);
    if (!operand.IsTuple() || operand.tuple_shapes.size() < 2) {
      ctx.Report(id, StrCat("[ShapeVerifier::HandleCopyDone] copy-done expects a tuple operand "
                            "(destination, source, context), got ", HumanString(operand)));
      return;
    }
    if (!Compatible(*operand.tuple_shapes[0], *operand.tuple_shapes[1])) {
      ctx.Report(id, StrCat("[ShapeVerifier::HandleCopyDone] Source and destination buffers in "
                            "CopyDone arguments need to be the same shape found ",
                            HumanString(*operand.tuple_shapes[0]), " and ",
                            HumanString(*operand.tuple_shapes[1])));
      return;
    }
    if (m.instr(id).has(Instruction::kShapeWritten) &&
        !Compatible(m.shape(id), *operand.tuple_shapes[0])) {
      ctx.Report(id, StrCat("[ShapeVerifier::HandleCopyDone] Expected instruction to have shape "
                            "equal to ", HumanString(*operand.tuple_shapes[0]),
                            ", actual shape is ", HumanString(m.shape(id))));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyAsyncPairsRule() {
  return std::make_unique<VerifyAsyncPairsRule>();
}

}  // namespace hlolint
