// What rules hlolint has, as `hlolint --list-rules` and `--explain` show.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hlolint/location.h"

namespace hlolint::api {

struct RuleInfo {
  std::string id;        // e.g. "reshape-not-bitcast"
  std::string category;  // "parse", "layout", "aliasing", "scheduling", "verify", "meta"
  Severity default_severity = Severity::kError;
  std::string summary;        // one line, no trailing period
  std::string documentation;  // the rule's page (docs/rules/<id>.md, Markdown); may be empty
};

// Every rule, in the order the CLI lists them.
std::vector<RuleInfo> Rules();
// nullopt when no rule has this id.
std::optional<RuleInfo> FindRule(std::string_view id);

}  // namespace hlolint::api
