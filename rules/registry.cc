#include "rules/registry.h"

#include <memory>

#include "rules/rule_factories.h"

namespace hlolint {
namespace {

std::vector<std::unique_ptr<Rule>> MakeRules() {
  std::vector<std::unique_ptr<Rule>> rules;
  // Engine-level.
  rules.push_back(MakeParseErrorRule());
  rules.push_back(MakeUnsupportedFormatRule());
  rules.push_back(MakeUnusedSuppressionRule());
  // Patterns that break XLA's passes.
  rules.push_back(MakeReshapeNotBitcastRule());
  rules.push_back(MakeUnclaimedOutputAliasRule());
  rules.push_back(MakeDeadInPlacePastRootRule());
  rules.push_back(MakeMissedInPlacePairRule());
  // Memory: what the optimized module allocates.
  rules.push_back(MakeDonationNotUsedRule());
  rules.push_back(MakeEntryParameterCopiedRule());
  // Structural verifier (XLA's HloVerifier).
  rules.push_back(MakeVerifyShapeRule());
  rules.push_back(MakeVerifyAsyncPairsRule());
  rules.push_back(MakeVerifyCallSignatureRule());
  rules.push_back(MakeVerifyChannelsRule());
  rules.push_back(MakeVerifyCollectivesRule());
  rules.push_back(MakeVerifyAliasConfigRule());
  rules.push_back(MakeVerifyBuffersRule());
  rules.push_back(MakeVerifyEntryLayoutRule());
  rules.push_back(MakeVerifyLayoutRule());
  rules.push_back(MakeVerifyNamesRule());
  rules.push_back(MakeVerifyOperandCountRule());
  rules.push_back(MakeVerifyScheduleRule());
  rules.push_back(MakeVerifyShardingRule());
  rules.push_back(MakeHostOffloadLeakRule());
  return rules;
}

}  // namespace

const std::vector<const Rule*>& AllRules() {
  static const auto* all = [] {
    static std::vector<std::unique_ptr<Rule>> owned = MakeRules();
    auto* view = new std::vector<const Rule*>();
    for (const auto& rule : owned) view->push_back(rule.get());
    return view;
  }();
  return *all;
}

const Rule* FindRule(std::string_view id) {
  for (const Rule* rule : AllRules()) {
    if (rule->info().id == id) return rule;
  }
  return nullptr;
}

}  // namespace hlolint
