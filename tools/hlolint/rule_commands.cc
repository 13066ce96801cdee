#include "rule_commands.h"

#include <algorithm>
#include <iostream>
#include <optional>

#include "api/convert.h"
#include "engine/selection.h"
#include "hlolint/rules.h"
#include "nlohmann/json.hpp"
#include "output.h"
#include "rules/registry.h"
#include "util/strings.h"

namespace hlolint {

std::vector<RuleDescription> DescribeRules() {
  std::vector<RuleDescription> rules;
  for (api::RuleInfo& rule : api::Rules()) {
    rules.push_back({std::move(rule.id), std::move(rule.category),
                     api_internal::FromApi(rule.default_severity), std::move(rule.summary),
                     std::move(rule.documentation)});
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

namespace {

std::optional<RuleCategory> CategoryNamed(std::string_view name) {
  for (RuleCategory category : kRuleCategories) {
    if (CategoryName(category) == name) return category;
  }
  return std::nullopt;
}

// The category's summary and its rules, each with its summary.
std::string ExplainCategory(RuleCategory category) {
  std::vector<const Rule*> rules;
  size_t width = 0;
  for (const Rule* rule : AllRules()) {
    if (rule->info().category != category) continue;
    rules.push_back(rule);
    width = std::max(width, rule->info().id.size());
  }
  std::string out = StrCat(CategoryName(category), ": ", CategorySummary(category), ".\n\n");
  out += StrCat(rules.size(), rules.size() == 1 ? " rule:\n" : " rules:\n");
  for (const Rule* rule : rules) {
    out += fmt::format("  {:<{}}  {}\n", rule->info().id, width, rule->info().summary);
  }
  out += "\nRun 'hlolint --explain RULE' for a rule's documentation.\n";
  return out;
}

}  // namespace

int Explain(const std::string& id) {
  if (const std::optional<RuleCategory> category = CategoryNamed(id)) {
    return WriteStdout(ExplainCategory(*category)) ? 0 : 2;
  }
  const Rule* rule = FindRule(id);
  if (rule == nullptr) {
    std::vector<std::string_view> names;
    for (const Rule* r : AllRules()) names.push_back(r->info().id);
    for (RuleCategory category : kRuleCategories) names.push_back(CategoryName(category));
    std::string message = StrCat("hlolint: error: unknown rule or category '", id, "'");
    const std::string suggestion = ClosestMatch(id, names);
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
