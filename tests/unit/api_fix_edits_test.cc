// Fixes that are text edits (api::Diagnostic::edit): each unused or
// mistyped suppression comes with the edit that removes or corrects it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "hlolint/lint.h"

namespace api = hlolint::api;

namespace {

// Line numbers matter: the tests name positions in this text.
constexpr const char* kSuppressions = R"(HloModule sup

ENTRY main {
  // hlolint: ignore[verify-shape] nothing wrong here
  p = f32[4]{0} parameter(0)
  n = f32[4]{0} negate(p)  // hlolint: ignore[verify-shap, reshape-not-bitcast] typo
  ROOT r = f32[4]{0} negate(n)  // hlolint: ignore[ALL] all
}
)";

struct Edit {
  uint32_t line, column, end_line, end_column;
  std::string new_text;
  bool operator==(const Edit&) const = default;
};

}  // namespace

namespace Catch {
template <>
struct StringMaker<Edit> {
  static std::string convert(const Edit& e) {
    return std::to_string(e.line) + ":" + std::to_string(e.column) + "-" +
           std::to_string(e.end_line) + ":" + std::to_string(e.end_column) + " '" + e.new_text + "'";
  }
};
}  // namespace Catch

TEST_CASE("api: unused and mistyped suppressions come with the edit that fixes them") {
  const api::LintResult result = api::LintText(kSuppressions, "sup.hlo");
  std::vector<std::string> fixes;
  std::vector<Edit> edits;
  for (const api::Diagnostic& d : result.diagnostics) {
    REQUIRE(d.rule == "unused-suppression");
    REQUIRE(d.edit);
    fixes.push_back(d.fix);
    const api::Location& at = d.edit->location;
    edits.push_back({at.line, at.column, at.end_line, at.end_column, d.edit->new_text});
  }
  CHECK(fixes == std::vector<std::string>{"remove the comment", "did you mean 'verify-shape'?",
                                          "remove the id from the comment", "remove the comment"});
  CHECK(edits == std::vector<Edit>{
                     {4, 1, 5, 1, ""},                // a comment alone: its whole line
                     {6, 47, 6, 58, "verify-shape"},  // the id it meant
                     {6, 58, 6, 79, ""},              // ", reshape-not-bitcast"
                     {7, 31, 7, 60, ""},              // a comment after code: with its spaces
                 });
}

TEST_CASE("api: a finding whose fix is prose has no edit") {
  const api::LintResult result = api::LintText(
      "HloModule m\n\nENTRY main {\n  p = f32[4]{0} parameter(0)\n  ROOT s = f32[5]{0} add(p, p)\n}\n",
      "m.hlo");
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].rule == "verify-shape");
  CHECK_FALSE(result.diagnostics[0].edit);
}
