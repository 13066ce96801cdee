// The registry: every rule hlolint knows, in one explicit list (registry.cc).
#pragma once

#include <string_view>
#include <vector>

#include "engine/rule.h"

namespace hlolint {

// All rules in registry order (engine-level rules first).
const std::vector<const Rule*>& AllRules();
// nullptr when no rule has this id.
const Rule* FindRule(std::string_view id);
// The rule's documentation page (docs/rules/<id>.md, compiled in); empty when
// missing.
std::string_view RuleDocumentation(std::string_view id);

}  // namespace hlolint
