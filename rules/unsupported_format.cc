// unsupported-format: the input is not HLO text at all (for example an
// HloModuleProto in protobuf text format). Reported by the engine.
#include "rules/rule_factories.h"

namespace hlolint {
namespace {

class UnsupportedFormatRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"unsupported-format", RuleCategory::kParse, Severity::kWarning,
                                "Input that is not HLO text, so it cannot be linted"};
    return kInfo;
  }
  void Check(RuleContext&) const override {}
};

}  // namespace

std::unique_ptr<Rule> MakeUnsupportedFormatRule() {
  return std::make_unique<UnsupportedFormatRule>();
}

}  // namespace hlolint
