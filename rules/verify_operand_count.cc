// verify-operand-count: opcodes with a fixed arity have exactly that many
// operands (ShapeVerifier::Preprocess with HloOpcodeArity, CheckOperandCount).
#include <array>

#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

class VerifyOperandCountRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-operand-count", "verify", Severity::kError,
                                "instruction with the wrong number of operands for its opcode"};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    // Asked of every instruction: from a table, with the count read once.
    std::array<int, kOpcodeCount + 1> arity;
    for (int o = 0; o <= kOpcodeCount; ++o) arity[o] = OpcodeArity(static_cast<Opcode>(o));
    const size_t n = m.instruction_count();
    for (InstrId id = 0; id < n; ++id) {
      const Opcode op = m.opcode(id);
      const int expected = arity[static_cast<size_t>(op)];
      if (expected < 0) continue;  // variadic: skip before reading the record
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
