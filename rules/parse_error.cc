// parse-error: the text is not HLO that XLA's parser accepts. Reported by the
// engine from the parser's first error in each module.
#include "rules/rule_factories.h"

namespace hlolint {
namespace {

class ParseErrorRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"parse-error", RuleCategory::kParse, Severity::kError,
                                "HLO text that XLA's parser would reject"};
    return kInfo;
  }
  void Check(RuleContext&) const override {}
};

}  // namespace

std::unique_ptr<Rule> MakeParseErrorRule() { return std::make_unique<ParseErrorRule>(); }

}  // namespace hlolint
