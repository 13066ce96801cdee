// Which rules run: rule ids, category names (RuleInfo::category) and `ALL`,
// combined from configuration and command line in layers (see
// docs/configuration.md "Selecting rules").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/rule.h"

namespace hlolint {

// One source of selection settings (a configuration file, the command line).
struct SelectionLayer {
  std::optional<std::vector<std::string>> select;  // replaces what earlier layers chose
  std::vector<std::string> extend_select;          // adds
  std::vector<std::string> ignore;                 // removes (wins within its layer)
};

// True when `specifier` names a rule, a category or ALL.
bool IsKnownSpecifier(std::string_view specifier, const std::vector<const Rule*>& all);

// The message for an unknown specifier, with a suggestion when one is close:
// "unknown rule or category 'reshape-not-bitcat' (did you mean 'reshape-not-bitcast'?)".
std::string UnknownSpecifierMessage(std::string_view specifier,
                                    const std::vector<const Rule*>& all);

// Applies the layers in order to "every rule" and returns the selected rules
// in registry order. Unknown specifiers are an InvalidArgument error.
absl::StatusOr<std::vector<const Rule*>> ResolveSelection(
    const std::vector<const Rule*>& all, const std::vector<SelectionLayer>& layers);

// The rules matching a list of specifiers (registry order), e.g. for
// per-path ignores. Unknown specifiers are an InvalidArgument error.
absl::StatusOr<std::vector<const Rule*>> MatchSpecifiers(const std::vector<std::string>& specifiers,
                                                         const std::vector<const Rule*>& all);

// The candidate closest to `word` by edit distance, when close enough to be
// a plausible typo; empty otherwise.
std::string ClosestMatch(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace hlolint
