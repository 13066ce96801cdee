// unused-suppression: a `// hlolint: ignore[...]` comment that silences
// nothing, names an unknown rule, or is malformed. Reported by the engine
// (lib/engine/lint.cc) after the other rules ran, so Check() is empty.
#include "rules/rule_factories.h"

namespace hlolint {
namespace {

class UnusedSuppressionRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"unused-suppression", RuleCategory::kMeta, Severity::kWarning,
                                "Suppression comment that silences nothing"};
    return kInfo;
  }
  void Check(RuleContext&) const override {}
};

}  // namespace

std::unique_ptr<Rule> MakeUnusedSuppressionRule() {
  return std::make_unique<UnusedSuppressionRule>();
}

}  // namespace hlolint
