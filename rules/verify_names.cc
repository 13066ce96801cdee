// verify-names: instruction names are unique across the module
// (InstructionVerifier::Preprocess). XLA's parser renames an instruction
// whose name another computation already uses (to `name.1`, ...), so the
// text still verifies; the finding is a warning that XLA's own messages and
// dumps will call the instruction by another name.
#include "analysis/duplicate_names.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

class VerifyNamesRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-names", RuleCategory::kVerify, Severity::kWarning,
                                "instruction name used by more than one computation (XLA "
                                "renames it when parsing)",
                                RuleCost::kHeavy};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    // A name repeated within one computation is a parse error; across
    // computations XLA renames the later instruction.
    CompId last_reported = kNoId;  // one finding per computation is enough
    for (const auto [id, first] : FindDuplicateNames(m)) {
      const CompId c = m.parent(id);
      if (m.parent(first) == c || c == last_reported) continue;
      last_reported = c;
      ctx.Report(id, StrCat("[InstructionVerifier::Preprocess] HLO has name that is not "
                            "unique within module: ", m.name(id), " is also defined in ",
                            m.computation_name(m.parent(first)),
                            "; XLA renames this one when it parses the module"))
          .Note(first, "first defined here");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyNamesRule() { return std::make_unique<VerifyNamesRule>(); }

}  // namespace hlolint
