// verify-shape: every instruction's result shape is the one XLA infers from
// its operands and attributes (ShapeVerifier::Handle* and CheckShape), and
// the per-opcode operand checks of ShapeVerifier/InstructionVerifier hold;
// with "verify-options", also the checks XLA makes only under some
// HloVerifierOpts (checks/optional_shape_checks.h).
#include <array>

#include "analysis/attribute_index.h"
#include "analysis/computation_signature.h"
#include "analysis/text_order_walk.h"
#include "rules/checks/optional_shape_checks.h"
#include "rules/checks/shape_checker.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

class VerifyShapeRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-shape", RuleCategory::kVerify, Severity::kError,
                                "result shape differs from the shape XLA infers, or operands "
                                "XLA's shape inference rejects",
                                RuleCost::kHeavy};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    ShapeChecker checker(m, ctx.analyses().Get<CallAttributes>());
    const bool origins = !ctx.analyses().Get<AttributeIndex>().With(AttrName::kOrigin).empty();
    checker.set_module_has_original_values(origins);
    std::array<bool, kOpcodeCount + 1> has_shape_check;
    for (int o = 0; o <= kOpcodeCount; ++o) {
      has_shape_check[o] = ShapeChecker::HasShapeCheck(static_cast<Opcode>(o));
    }
    VerifyFinding finding;
    // Attribute values are read in id (= text) order.
    TextOrderWalk walk(m);
    const size_t n = m.instruction_count();
    for (InstrId id = 0; id < n; ++id) {
      // Without origin= attributes, parameters, constants, fusions, ... have
      // nothing to check: skipped by their (dense) opcode, without a call.
      if (!origins && !has_shape_check[static_cast<size_t>(m.opcode(id))]) continue;
      walk.Visit(id);
      if (checker.Check(id, &finding)) continue;
      std::string message = StrCat("[", finding.check, "] ", finding.message);
      auto diagnostic = finding.attribute != AttrName::kUnknown
                            ? ctx.ReportAtAttribute(id, finding.attribute, std::move(message))
                            : ctx.Report(id, std::move(message));
      if (finding.warning) diagnostic.WithSeverity(Severity::kWarning);
    }
    CheckOptionalShapeRules(ctx);
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyShapeRule() { return std::make_unique<VerifyShapeRule>(); }

}  // namespace hlolint
