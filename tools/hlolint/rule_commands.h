// --list-rules and --explain.
#pragma once

#include <string>
#include <vector>

#include "report/report.h"

namespace hlolint {

// Every registered rule, in registry order, with its documentation page.
std::vector<RuleDescription> DescribeRules();

// The --list-rules table (or a JSON array when `json`).
std::string ListRules(bool json);

// Prints the rule's page; returns the exit status (2 for an unknown rule or
// a rule without a page, with a message on stderr).
int Explain(const std::string& id);

}  // namespace hlolint
