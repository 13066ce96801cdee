// Inline suppression comments: where they apply and what counts as used.
#include <catch2/catch.hpp>

#include <string>

#include "engine/lint.h"
#include "engine/suppressions.h"
#include "parse/parser.h"
#include "rules/registry.h"

namespace hlolint {
namespace {

std::vector<Suppression> Find(const std::string& text) {
  auto file = SourceFile::FromString("t.hlo", text);
  return FindSuppressions(*file);
}

TEST_CASE("A trailing comment applies to its own line, a standalone one to the next code line") {
  const std::vector<Suppression> found = Find(
      "a = 1  // hlolint: ignore[rule-a] reason one\n"  // 1
      "// hlolint: ignore[rule-b, rule-c]\n"             // 2
      "\n"                                               // 3
      "// a plain comment\n"                             // 4
      "// hlolint: ignore[ALL]\n"                        // 5
      "b = 2\n"                                          // 6
      "// hlolint: ignore[rule-d]\n");                   // 7 (nothing follows)
  REQUIRE(found.size() == 4);
  CHECK(found[0].target_line == 1);
  CHECK(found[0].rules.size() == 1);
  CHECK(found[0].rules[0].id == "rule-a");
  CHECK(found[0].reason == "reason one");
  CHECK(found[1].target_line == 6);
  REQUIRE(found[1].rules.size() == 2);
  CHECK(found[1].rules[1].id == "rule-c");
  CHECK(found[2].target_line == 6);
  CHECK(found[2].rules[0].id == "ALL");
  CHECK(found[3].target_line == 0);
}

TEST_CASE("Directives are found across the megabyte chunks of the search") {
  // Markers just before, across and after the 1 MB boundaries the search
  // steps over (it releases a big file's text behind it as it goes).
  std::string text;
  std::vector<size_t> markers = {1048540, 1048580, 2097140, 2097180};
  for (size_t marker : markers) {
    while (text.size() + 6 <= marker - 3) text += "x = 1\n";
    while (text.size() < marker - 3) text += "\n";
    text += "// hlolint: ignore[r]\n";
  }
  text += "y = 2\n";
  const std::vector<Suppression> found = Find(text);
  REQUIRE(found.size() == markers.size());
  for (size_t i = 0; i < markers.size(); ++i) {
    CHECK(found[i].span.begin == markers[i] - 3);
    REQUIRE(found[i].rules.size() == 1);
    CHECK(found[i].rules[0].id == "r");
  }
}

TEST_CASE("The id span points into the comment") {
  const std::string text = "x // hlolint: ignore[ rule-a ,rule-b]\n";
  const std::vector<Suppression> found = Find(text);
  REQUIRE(found.size() == 1);
  REQUIRE(found[0].rules.size() == 2);
  CHECK(text.substr(found[0].rules[0].span.begin,
                    found[0].rules[0].span.end - found[0].rules[0].span.begin) == "rule-a");
  CHECK(text.substr(found[0].rules[1].span.begin,
                    found[0].rules[1].span.end - found[0].rules[1].span.begin) == "rule-b");
}

TEST_CASE("Malformed directives carry an error, and markers in strings or prose are not directives") {
  CHECK(!Find("// hlolint: ignroe[x]\n")[0].error.empty());
  CHECK(!Find("// hlolint: ignore[x\n")[0].error.empty());
  CHECK(!Find("// hlolint: ignore[]\n")[0].error.empty());
  CHECK(!Find("// hlolint: ignore[a b]\n")[0].error.empty());
  CHECK(Find("p = f32[] parameter(0), metadata={op_name=\"// hlolint: ignore[x]\"}\n").empty());
  CHECK(Find("// see hlolint: ignore[x] in the docs\n").empty());
  CHECK(Find("no marker at all\n").empty());
}

TEST_CASE("ApplySuppressions removes matching diagnostics and marks ids used") {
  std::vector<Suppression> suppressions = Find(
      "// hlolint: ignore[rule-a, rule-b]\n"
      "x = 1\n"
      "y = 2 // hlolint: ignore[ALL]\n");
  auto diagnostic = [](std::string rule, uint32_t line) {
    Diagnostic d;
    d.rule = std::move(rule);
    d.resolved.line = line;
    return d;
  };
  std::vector<Diagnostic> diagnostics = {diagnostic("rule-a", 2), diagnostic("rule-c", 2),
                                         diagnostic("rule-z", 3),
                                         diagnostic("unused-suppression", 3)};
  CHECK(ApplySuppressions(suppressions, diagnostics) == 2);
  REQUIRE(diagnostics.size() == 2);
  CHECK(diagnostics[0].rule == "rule-c");
  CHECK(diagnostics[1].rule == "unused-suppression");  // never silenced
  CHECK(suppressions[0].rules[0].used);
  CHECK(!suppressions[0].rules[1].used);
  CHECK(suppressions[1].rules[0].used);
}

TEST_CASE("Suppressions are found in a file parsed before it watched for them") {
  const std::string text =
      "HloModule m\n"
      "ENTRY e {\n"
      "  // hlolint: ignore[rule-a]\n"
      "  ROOT p = f32[4]{0} parameter(0) // hlolint: ignore[rule-b]\n"
      "}\n";
  auto file = SourceFile::FromString("t.hlo", text);
  ParseAllModules(*file);  // no marker yet: the parser notes none
  CHECK(file->DirectiveMarkers().empty());
  const std::vector<Suppression> found = FindSuppressions(*file);
  REQUIRE(found.size() == 2);
  CHECK(found[0].rules[0].id == "rule-a");
  CHECK(found[1].rules[0].id == "rule-b");
  CHECK(file->DirectiveMarker() == kSuppressionMarker);
}

TEST_CASE("LintSource reports suppressed counts and unused ids") {
  auto file = SourceFile::FromString(
      "t.hlo",
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = f32[4]{0} parameter(0)\n"
      "  // hlolint: ignore[parse-error, unsupported-format]\n"
      "  ROOT r = f32[4]{0} negate(p, q)\n"
      "}\n");
  LintOptions options;
  options.rules = AllRules();
  FileResult result = LintSource(*file, options);
  CHECK(result.suppressed == 1);
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].rule == "unused-suppression");
  CHECK(result.diagnostics[0].message == "suppression of 'unsupported-format' silences nothing");
  CHECK(result.diagnostics[0].resolved.line == 4);
  CHECK(result.diagnostics[0].resolved.column == 35);

  // Without unused-suppression selected, the suppression still works.
  options.rules = {FindRule("parse-error")};
  result = LintSource(*file, options);
  CHECK(result.suppressed == 1);
  CHECK(result.diagnostics.empty());
}

}  // namespace
}  // namespace hlolint
