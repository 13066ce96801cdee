// verify-operand-count: opcodes with a fixed arity have exactly that many
// operands (ShapeVerifier::Preprocess with HloOpcodeArity, CheckOperandCount).
#include <algorithm>
#include <vector>

#include "analysis/opcode_index.h"
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
    const OpcodeIndex& index = ctx.analyses().Get<OpcodeIndex>();
    // Opcode by opcode (variadic ones skipped whole); the offenders are
    // reported in id order.
    std::vector<InstrId> wrong;
    for (int o = 0; o < kOpcodeCount; ++o) {
      const Opcode op = static_cast<Opcode>(o);
      const int expected = OpcodeArity(op);
      if (expected < 0) continue;
      for (InstrId id : index.Of(op)) {
        const size_t count = m.instr(id).operand_count;
        if (static_cast<int>(count) == expected) continue;
        if (op == Opcode::kScaledDot && count == 6) continue;  // scaled-dot with offsets
        if (op == Opcode::kDot && count > 2) continue;         // sparse dot (older XLA)
        wrong.push_back(id);
      }
    }
    std::sort(wrong.begin(), wrong.end());
    for (InstrId id : wrong) {
      const Opcode op = m.opcode(id);
      ctx.Report(id, StrCat("[ShapeVerifier::Preprocess] Expected ", OpcodeArity(op),
                            " operands for ", OpcodeName(op), " instruction, found ",
                            m.operands(id).size()));
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyOperandCountRule() {
  return std::make_unique<VerifyOperandCountRule>();
}

}  // namespace hlolint
