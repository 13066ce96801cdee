// The library API's rule metadata (include/hlolint/rules.h).
#include <catch2/catch.hpp>

#include "hlolint/rules.h"

namespace api = hlolint::api;

TEST_CASE("api: the rules, as --list-rules lists them") {
  const std::vector<api::RuleInfo> rules = api::Rules();
  REQUIRE(rules.size() >= 20);
  CHECK(rules[0].id == "parse-error");
  CHECK(rules[0].category == "parse");
  CHECK(rules[0].default_severity == api::Severity::kError);
  for (const api::RuleInfo& rule : rules) {
    CHECK_FALSE(rule.id.empty());
    CHECK_FALSE(rule.summary.empty());
    CHECK_FALSE(rule.documentation.empty());
  }
}

TEST_CASE("api: one rule by id") {
  const std::optional<api::RuleInfo> rule = api::FindRule("unsupported-format");
  REQUIRE(rule);
  CHECK(rule->default_severity == api::Severity::kWarning);
  CHECK(rule->documentation.find("# unsupported-format") != std::string::npos);
  CHECK_FALSE(api::FindRule("no-such-rule"));
  CHECK(std::string(api::SeverityName(api::Severity::kWarning)) == "warning");
}
