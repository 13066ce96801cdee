// Every registered rule is documented and selectable: --explain and
// --list-rules work for rules added later without touching this test.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "engine/selection.h"
#include "rules/registry.h"

namespace hlolint {
namespace {

TEST_CASE("Every registered rule has a compiled-in page equal to docs/rules/<id>.md") {
  for (const Rule* rule : AllRules()) {
    const std::string id(rule->info().id);
    INFO("rule " << id);
    const std::string_view page = RuleDocumentation(id);
    REQUIRE(!page.empty());
    CHECK(page.rfind("# " + id + "\n", 0) == 0);
    std::ifstream file(std::string(HLOLINT_SOURCE_DIR) + "/docs/rules/" + id + ".md");
    REQUIRE(file);
    std::stringstream text;
    text << file.rdbuf();
    CHECK(page == text.str());
  }
}

TEST_CASE("Rule ids are unique kebab-case, with a category, summary and severity") {
  std::set<std::string_view> ids;
  for (const Rule* rule : AllRules()) {
    const RuleInfo& info = rule->info();
    INFO("rule " << info.id);
    CHECK(ids.insert(info.id).second);
    CHECK(!info.id.empty());
    CHECK(info.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") ==
          std::string_view::npos);
    CHECK(!CategoryName(info.category).empty());
    CHECK(!info.summary.empty());
    CHECK(info.summary.back() != '.');
    CHECK(FindRule(info.id) == rule);
    CHECK(IsKnownSpecifier(info.id, AllRules()));
    CHECK(IsKnownSpecifier(CategoryName(info.category), AllRules()));
    // A rule id must not shadow a category name, or --select would be ambiguous.
    for (const Rule* other : AllRules()) CHECK(CategoryName(other->info().category) != info.id);
  }
}

}  // namespace
}  // namespace hlolint
