#include <string_view>
#include <utility>

#include "rules/registry.h"

namespace hlolint {

extern const std::pair<std::string_view, std::string_view> kRuleDocs[];
extern const int kRuleDocCount;

std::string_view RuleDocumentation(std::string_view id) {
  for (int i = 0; i < kRuleDocCount; ++i) {
    if (kRuleDocs[i].first == id) return kRuleDocs[i].second;
  }
  return {};
}

}  // namespace hlolint
