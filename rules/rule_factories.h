// One factory per rule source file in rules/. Adding a rule: write
// rules/<id>.cc defining its factory, declare it here, list it in
// registry.cc, add docs/rules/<id>.md and a golden test.
#pragma once

#include <memory>

#include "engine/rule.h"

namespace hlolint {

// Engine-level rules (reported by the engine itself, not by Check()).
std::unique_ptr<Rule> MakeParseErrorRule();
std::unique_ptr<Rule> MakeUnsupportedFormatRule();
std::unique_ptr<Rule> MakeUnusedSuppressionRule();

std::unique_ptr<Rule> MakeReshapeNotBitcastRule();
std::unique_ptr<Rule> MakeUnclaimedOutputAliasRule();
std::unique_ptr<Rule> MakeDeadInPlacePastRootRule();
std::unique_ptr<Rule> MakeMissedInPlacePairRule();
std::unique_ptr<Rule> MakeDonationNotUsedRule();
std::unique_ptr<Rule> MakeEntryParameterCopiedRule();

// Structural verifier (RuleCategory::kVerify).
std::unique_ptr<Rule> MakeVerifyShapeRule();
std::unique_ptr<Rule> MakeVerifyAsyncPairsRule();
std::unique_ptr<Rule> MakeVerifyCallSignatureRule();
std::unique_ptr<Rule> MakeVerifyChannelsRule();
std::unique_ptr<Rule> MakeVerifyCollectivesRule();
std::unique_ptr<Rule> MakeVerifyAliasConfigRule();
std::unique_ptr<Rule> MakeVerifyBuffersRule();
std::unique_ptr<Rule> MakeVerifyEntryLayoutRule();
std::unique_ptr<Rule> MakeVerifyLayoutRule();
std::unique_ptr<Rule> MakeVerifyNamesRule();
std::unique_ptr<Rule> MakeVerifyOperandCountRule();
std::unique_ptr<Rule> MakeVerifyScheduleRule();
std::unique_ptr<Rule> MakeVerifyShardingRule();
std::unique_ptr<Rule> MakeHostOffloadLeakRule();

}  // namespace hlolint
