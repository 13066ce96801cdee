// verify-buffers: b(...) buffer values follow XLA's rules (VerifyBuffers,
// VerifyCustomCall, VerifyPin, VerifyUnpin, VerifyCreateBuffer,
// CheckBufferHasUniqueWriter): no buffers in entry parameters, Pin/Unpin/
// CreateBuffer signatures, every buffer a custom call reads or produces is
// aliased exactly once, and every buffer value has at most one writer.
#include "analysis/call_attributes.h"
#include "analysis/shape_inference.h"
#include "parse/attributes.h"
#include "rules/checks/layout_sensitive.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

constexpr std::string_view kCheck = "[VerifyBuffers] ";

bool HasBuffer(const Shape& s) {
  if (s.IsBuffer()) return true;
  for (const Shape* e : s.tuple_shapes) {
    if (s.IsTuple() && HasBuffer(*e)) return true;
  }
  return false;
}

// Indices of the buffer leaves of a shape.
void BufferIndices(const Shape& s, ShapeIndex& prefix, std::vector<ShapeIndex>* out) {
  if (s.IsBuffer()) {
    out->push_back(prefix);
    return;
  }
  if (!s.IsTuple()) return;
  for (size_t i = 0; i < s.tuple_shapes.size(); ++i) {
    prefix.push_back(static_cast<int64_t>(i));
    BufferIndices(*s.tuple_shapes[i], prefix, out);
    prefix.pop_back();
  }
}

class VerifyBuffersRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-buffers", RuleCategory::kVerify, Severity::kError,
                                "b(...) buffer value used in a way XLA's verifier rejects"};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    // Fast exit: most modules have no buffer shapes at all.
    bool any = false;
    for (ShapeId s = 0; s < m.shapes().size() && !any; ++s) {
      any = m.shapes().Get(s).IsBuffer();
    }
    if (!any) return;
    if (m.entry() != kNoId) {
      for (InstrId p : m.computation(m.entry()).parameters()) {
        if (p != kNoId && m.has_known_shape(p) && HasBuffer(m.shape(p))) {
          ctx.Report(p, StrCat(kCheck, "Seen buffers while buffers aren't allowed in this "
                                       "context: entry computation parameters cannot be "
                                       "buffers"));
        }
      }
    }
    for (InstrId id = 0; id < m.instruction_count(); ++id) {
      const Instruction& in = m.instr(id);
      const bool custom_call =
          in.opcode == Opcode::kCustomCall ||
          (in.opcode == Opcode::kAsyncStart && in.has(Instruction::kAsyncSugar) &&
           m.async_wrapped_opcode(id) == Opcode::kCustomCall);
      if (custom_call && !CheckCustomCall(ctx, id)) continue;
      if (!m.has_known_shape(id) || !HasBuffer(m.shape(id))) continue;
      if (in.opcode == Opcode::kCustomCall || in.opcode == Opcode::kParameter) {
        CheckUniqueWriters(ctx, id);
      }
    }
  }

 private:
  // The result a custom call (or custom-call-start) defines.
  static const Shape* Result(const Module& m, InstrId id) {
    const Shape& shape = m.shape(id);
    if (m.opcode(id) != Opcode::kAsyncStart) return &shape;
    if (!shape.IsTuple() || shape.tuple_shapes.size() < 2) return nullptr;
    return shape.tuple_shapes[1];
  }

  static bool CheckCustomCall(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    if (!m.has_known_shape(id)) return true;
    const Shape* result = Result(m, id);
    if (result == nullptr) return true;
    std::span<const InstrId> operands = m.operands(id);
    for (InstrId op : operands) {
      if (!m.has_known_shape(op)) return true;
    }
    const CallAttributes& call_attributes = ctx.analyses().Get<CallAttributes>();
    const std::string& target = call_attributes.Target(id);
    const std::vector<OutputOperandAlias>& aliases = call_attributes.Aliasing(id);
    auto fail = [&](std::string message) {
      ctx.Report(id, StrCat(kCheck, message));
      return false;
    };
    if (target == "Pin" || target == "Unpin") {
      const bool pin = target == "Pin";
      if (operands.size() != 1) return fail(StrCat(target, " must have exactly one operand"));
      const Shape& operand = m.shape(operands[0]);
      const Shape& from = pin ? operand : *result;
      const Shape& to = pin ? *result : operand;
      if (!from.IsArray() || !to.IsBuffer()) {
        return fail(pin ? "Pin must turn an array operand into a buffer result"
                        : "Unpin must turn a buffer operand into an array result");
      }
      if (!Compatible(from, *to.tuple_shapes[0])) {
        return fail(StrCat(target, " must keep the shape: ", HumanString(operand), " vs ",
                           HumanString(*result)));
      }
      // VerifyPin/VerifyUnpin compare layouts too in layout-sensitive mode.
      if (VerifiedLayoutSensitive(ctx) && !SameShapeWithLayout(from, *to.tuple_shapes[0])) {
        return fail(StrCat(target, " must keep the layout: ",
                           ShapeToStringWithDefaultLayout(operand), " vs ",
                           ShapeToStringWithDefaultLayout(*result)));
      }
      if (aliases.size() != 1) {
        return fail(StrCat(target, " must have exactly one output_to_operand_aliasing pair, "
                                   "has ", aliases.size()));
      }
      return true;
    }
    if (target == "CreateBuffer") {
      if (!operands.empty()) return fail("CreateBuffer must not have operands");
      if (!result->IsBuffer()) return fail("CreateBuffer must produce a buffer");
      return true;
    }
    // Every buffer leaf of an operand is aliased exactly once, and every
    // buffer leaf of the result likewise.
    std::vector<ShapeIndex> leaves;
    ShapeIndex prefix;
    for (size_t i = 0; i < operands.size(); ++i) {
      leaves.clear();
      BufferIndices(m.shape(operands[i]), prefix, &leaves);
      for (const ShapeIndex& leaf : leaves) {
        int uses = 0;
        for (const OutputOperandAlias& a : aliases) {
          uses += a.operand == static_cast<int64_t>(i) && a.operand_index == leaf;
        }
        if (uses == 0) {
          return fail(StrCat("buffer is used in operands but not in results: operand ", i,
                             " at ", ShapeIndexToString(leaf)));
        }
        if (uses > 1) {
          return fail(StrCat("buffer is used in results multiple times: operand ", i, " at ",
                             ShapeIndexToString(leaf)));
        }
      }
    }
    leaves.clear();
    BufferIndices(*result, prefix, &leaves);
    for (const ShapeIndex& leaf : leaves) {
      int uses = 0;
      for (const OutputOperandAlias& a : aliases) uses += a.output_index == leaf;
      if (uses == 0) {
        return fail(StrCat("buffer is used in results but not in operands: output ",
                           ShapeIndexToString(leaf)));
      }
      if (uses > 1) {
        return fail(StrCat("buffer is used in operands multiple times: output ",
                           ShapeIndexToString(leaf)));
      }
    }
    return true;
  }

  // Counts the writers of the buffer at `index` of `value`, following
  // get-tuple-element and tuple; callers that take the buffer count once.
  static int CountWriters(const Module& m, InstrId value, const ShapeIndex& index, int depth) {
    if (depth > 64) return 0;
    int writers = 0;
    for (InstrId user : m.users(value)) {
      switch (m.opcode(user)) {
        case Opcode::kGetTupleElement: {
          if (index.empty() || index[0] != m.number(user)) break;
          ShapeIndex rest(index.begin() + 1, index.end());
          writers += CountWriters(m, user, rest, depth + 1);
          break;
        }
        case Opcode::kTuple: {
          if (m.IsRoot(user) && m.parent(user) != m.entry()) {
            ++writers;  // leaves the computation (e.g. a while body's next state)
            break;
          }
          std::span<const InstrId> ops = m.operands(user);
          for (size_t i = 0; i < ops.size(); ++i) {
            if (ops[i] != value) continue;
            ShapeIndex nested;
            nested.push_back(static_cast<int64_t>(i));
            nested.insert(nested.end(), index.begin(), index.end());
            writers += CountWriters(m, user, nested, depth + 1);
          }
          break;
        }
        case Opcode::kCustomCall: case Opcode::kWhile: case Opcode::kCall:
        case Opcode::kConditional: case Opcode::kAsyncStart:
          ++writers;
          break;
        default:
          break;
      }
    }
    return writers;
  }

  static void CheckUniqueWriters(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    std::vector<ShapeIndex> leaves;
    ShapeIndex prefix;
    BufferIndices(m.shape(id), prefix, &leaves);
    for (const ShapeIndex& leaf : leaves) {
      const int writers = CountWriters(m, id, leaf, 0);
      if (writers > 1) {
        ctx.Report(id, StrCat(kCheck, "an HLO buffer value has more than one writers: the buffer "
                                      "at ", ShapeIndexToString(leaf), " has ", writers,
                                      " writers"));
        return;
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyBuffersRule() { return std::make_unique<VerifyBuffersRule>(); }

}  // namespace hlolint
