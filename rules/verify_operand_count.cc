// verify-operand-count: opcodes with a fixed arity have exactly that many
// operands (ShapeVerifier::Preprocess with HloOpcodeArity, CheckOperandCount).
#include "analysis/analyses.h"
#include "analysis/opcode_index.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

bool CountMayDiffer(Opcode op) {
  const int arity = OpcodeArity(op);
  return arity >= 0 && ParsedOperandCount(op) != arity && op != Opcode::kParameter &&
         op != Opcode::kConstant;
}

class VerifyOperandCountRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-operand-count", RuleCategory::kVerify, Severity::kError,
                                "instruction with the wrong number of operands for its opcode"};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    // Only the opcodes whose count can differ in a parsed module: most fixed
    // counts are the grammar's (ParsedOperandCount), which the parser
    // enforces, and parameters and constants take no operand list: the
    // index spares reading every instruction's record.
    for (InstrId id : ctx.analyses().Get<OpcodeIndex>().Collect(&CountMayDiffer)) {
      const Opcode op = m.opcode(id);
      const int expected = OpcodeArity(op);
      const size_t count = m.operands(id).size();
      if (op == Opcode::kScaledDot && count == 6) continue;  // scaled-dot with offsets
      if (op == Opcode::kDot && count > 2) continue;         // sparse dot (older XLA)
      if (static_cast<int>(count) == expected) continue;
      ctx.Report(id, StrCat("[ShapeVerifier::Preprocess] Expected ", expected, " operands for ",
                            OpcodeName(op), " instruction, found ", count));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyOperandCountRule() {
  return std::make_unique<VerifyOperandCountRule>();
}

}  // namespace hlolint
