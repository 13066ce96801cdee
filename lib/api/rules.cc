#include "hlolint/rules.h"

#include "api/convert.h"
#include "rules/registry.h"

namespace hlolint::api {
namespace {

RuleInfo Describe(const Rule& rule) {
  const hlolint::RuleInfo& info = rule.info();
  RuleInfo out;
  out.id = std::string(info.id);
  out.category = std::string(CategoryName(info.category));
  out.default_severity = api_internal::ToApi(info.default_severity);
  out.summary = std::string(info.summary);
  out.documentation = std::string(RuleDocumentation(info.id));
  return out;
}

}  // namespace

std::vector<RuleInfo> Rules() {
  std::vector<RuleInfo> rules;
  for (const Rule* rule : AllRules()) rules.push_back(Describe(*rule));
  return rules;
}

std::optional<RuleInfo> FindRule(std::string_view id) {
  const Rule* rule = hlolint::FindRule(id);
  if (rule == nullptr) return std::nullopt;
  return Describe(*rule);
}

}  // namespace hlolint::api
