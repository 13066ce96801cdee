// verify-collectives: collective ops agree with the module's replica and
// partition counts and with XLA's collective shape rules (CheckReplicaGroups,
// GetCollectiveOpGroupMode, CheckCommonAllGatherInvariants,
// HandleReduceScatter, HandleAllToAll, HandleRaggedAllToAll,
// CheckInplaceCollectivePermute, CheckDuplicatedSourceOrTarget).
#include "analysis/opcode_index.h"
#include "rules/checks/collective_checker.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

class VerifyCollectivesRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-collectives", RuleCategory::kVerify, Severity::kError,
                                "collective op whose replica groups, pairs or shapes XLA's "
                                "verifier rejects",
                                RuleCost::kModerate};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    CollectiveChecker checker(m);
    VerifyFinding finding;
    const std::vector<InstrId> collectives =
        ctx.analyses().Get<OpcodeIndex>().Collect(&CollectiveChecker::IsChecked);
    for (InstrId id : collectives) {
      if (checker.Check(id, &finding)) continue;
      std::string message = StrCat("[", finding.check, "] ", finding.message);
      if (finding.attribute != AttrName::kUnknown) {
        ctx.ReportAtAttribute(id, finding.attribute, std::move(message));
      } else {
        ctx.Report(id, std::move(message));
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyCollectivesRule() {
  return std::make_unique<VerifyCollectivesRule>();
}

}  // namespace hlolint
