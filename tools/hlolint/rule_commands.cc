#include "rule_commands.h"

#include <algorithm>
#include <iostream>

#include "engine/selection.h"
#include "nlohmann/json.hpp"
#include "output.h"
#include "rules/registry.h"
#include "util/strings.h"

namespace hlolint {

std::vector<RuleDescription> DescribeRules() {
  std::vector<RuleDescription> rules;
  for (const Rule* rule : AllRules()) {
    const RuleInfo& info = rule->info();
    rules.push_back({std::string(info.id), std::string(CategoryName(info.category)), info.default_severity,
                     std::string(info.summary), std::string(RuleDocumentation(info.id))});
  }
  return rules;
}

std::string ListRules(bool json) {
  const std::vector<RuleDescription> rules = DescribeRules();
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const RuleDescription& rule : rules) {
      list.push_back({{"id", rule.id},
                      {"category", rule.category},
                      {"severity", std::string(SeverityName(rule.default_severity))},
                      {"summary", rule.summary}});
    }
    return list.dump(2) + "\n";
  }
  size_t id_width = 4, category_width = 8;
  for (const RuleDescription& rule : rules) {
    id_width = std::max(id_width, rule.id.size());
    category_width = std::max(category_width, rule.category.size());
  }
  std::string out = fmt::format("{:<{}}  {:<{}}  {:<8}  {}\n", "RULE", id_width, "CATEGORY",
                                category_width, "SEVERITY", "SUMMARY");
  for (const RuleDescription& rule : rules) {
    out += fmt::format("{:<{}}  {:<{}}  {:<8}  {}\n", rule.id, id_width, rule.category,
                       category_width, SeverityName(rule.default_severity), rule.summary);
  }
  return out;
}

int Explain(const std::string& id) {
  const Rule* rule = FindRule(id);
  if (rule == nullptr) {
    std::vector<std::string_view> ids;
    for (const Rule* r : AllRules()) ids.push_back(r->info().id);
    std::string message = StrCat("hlolint: error: unknown rule '", id, "'");
    const std::string suggestion = ClosestMatch(id, ids);
    if (!suggestion.empty()) message += StrCat(" (did you mean '", suggestion, "'?)");
    std::cerr << message << "\nRun 'hlolint --list-rules' for the list of rules.\n";
    return 2;
  }
  const std::string_view page = RuleDocumentation(id);
  if (page.empty()) {
    std::cerr << "hlolint: error: rule '" << id << "' has no documentation page ("
              << "docs/rules/" << id << ".md); summary: " << rule->info().summary << "\n";
    return 2;
  }
  return WriteStdout(page) ? 0 : 2;
}

}  // namespace hlolint
