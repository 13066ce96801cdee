// Baselines: write, read, apply; counts and line independence.
#include <catch2/catch.hpp>

#include <string>

#include "engine/baseline.h"
#include "rules/registry.h"

namespace hlolint {
namespace {

FileResult WithFindings(std::string path, std::vector<std::string> fingerprints) {
  FileResult file;
  file.path = std::move(path);
  for (std::string& fingerprint : fingerprints) {
    Diagnostic d;
    d.rule = "parse-error";
    d.message = "m";
    d.fingerprint = std::move(fingerprint);
    file.diagnostics.push_back(std::move(d));
  }
  return file;
}

TEST_CASE("A written baseline reads back and hides exactly what it recorded") {
  std::vector<FileResult> files = {WithFindings("a.hlo", {"00000000000000aa", "00000000000000bb"}),
                                   WithFindings("b.hlo", {"00000000000000aa"})};
  const std::string document = BaselineDocument(files);
  Baseline baseline;
  std::string error;
  REQUIRE(ParseBaseline(document, "baseline.json", &baseline, &error));
  CHECK(baseline.counts.at("00000000000000aa") == 2);
  CHECK(baseline.counts.at("00000000000000bb") == 1);

  // One more occurrence of aa than recorded, and a new finding: both stay.
  std::vector<FileResult> later = {
      WithFindings("renamed.hlo", {"00000000000000aa", "00000000000000cc", "00000000000000aa"}),
      WithFindings("b.hlo", {"00000000000000bb", "00000000000000aa"})};
  CHECK(ApplyBaseline(baseline, later) == 3);
  REQUIRE(later[0].diagnostics.size() == 1);
  CHECK(later[0].diagnostics[0].fingerprint == "00000000000000cc");
  REQUIRE(later[1].diagnostics.size() == 1);
  CHECK(later[1].diagnostics[0].fingerprint == "00000000000000aa");
}

TEST_CASE("Baseline entries that match no finding are counted as stale") {
  Baseline baseline;
  baseline.counts = {{"00000000000000aa", 2}, {"00000000000000bb", 1}, {"00000000000000cc", 3}};
  // aa matches one of its two occurrences (not stale); bb and cc match nothing.
  std::vector<FileResult> files = {WithFindings("a.hlo", {"00000000000000aa", "00000000000000dd"})};
  uint64_t stale = 99;
  CHECK(ApplyBaseline(baseline, files, &stale) == 1);
  CHECK(stale == 2);
  std::vector<FileResult> all = {
      WithFindings("a.hlo", {"00000000000000aa", "00000000000000bb", "00000000000000cc"})};
  CHECK(ApplyBaseline(baseline, all, &stale) == 3);
  CHECK(stale == 0);
}

TEST_CASE("The baseline document is sorted and stable") {
  std::vector<FileResult> one = {WithFindings("a.hlo", {"00000000000000bb", "00000000000000aa"})};
  std::vector<FileResult> two = {WithFindings("a.hlo", {"00000000000000aa", "00000000000000bb"})};
  CHECK(BaselineDocument(one) == BaselineDocument(two));
  CHECK(BaselineDocument(one).find("\"version\": 1") != std::string::npos);
}

TEST_CASE("Malformed baselines are located errors") {
  Baseline baseline;
  std::string error;
  CHECK(!ParseBaseline("{\"version\": 1}", "b.json", &baseline, &error));
  CHECK(error == "b.json:1:1: error: not an hlolint baseline (expected an object with "
                 "\"findings\": [...])");
  CHECK(!ParseBaseline("{\"version\": 7, \"findings\": []}", "b.json", &baseline, &error));
  CHECK(error == "b.json:1:13: error: unsupported baseline version (this hlolint writes version 1)");
  CHECK(!ParseBaseline("{\"version\": 1, \"findings\": [{\"count\": 1}]}", "b.json", &baseline,
                       &error));
  CHECK(error == "b.json:1:29: error: each finding needs a \"fingerprint\" string");
  CHECK(!ParseBaseline("{\"version\": 1, \"findings\": [{\"fingerprint\": \"x\", \"count\": 0}]}",
                       "b.json", &baseline, &error));
  CHECK(error == "b.json:1:59: error: \"count\" must be a positive integer");
  CHECK(!ParseBaseline("not json", "b.json", &baseline, &error));
  CHECK(error.rfind("b.json:1:1: error: invalid JSON", 0) == 0);
}

TEST_CASE("A baseline survives renumbered names and shifted lines") {
  auto lint = [](const std::string& text) {
    auto file = SourceFile::FromString("dump.txt", text);
    LintOptions options;
    options.rules = AllRules();
    return LintSource(*file, options);
  };
  std::vector<FileResult> before = {lint(
      "HloModule m.1\nENTRY e.2 {\n  p.3 = f32[4]{0} parameter(0)\n"
      "  ROOT r.4 = f32[4]{0} negate(p.3, q.5)\n}\n")};
  REQUIRE(before[0].diagnostics.size() == 1);
  Baseline baseline;
  std::string error;
  REQUIRE(ParseBaseline(BaselineDocument(before), "b.json", &baseline, &error));
  std::vector<FileResult> after = {lint(
      "// regenerated\n\n\nHloModule m.9\nENTRY e.8 {\n  p.7 = f32[4]{0} parameter(0)\n"
      "  ROOT r.6 = f32[4]{0} negate(p.7, q.40)\n}\n")};
  REQUIRE(after[0].diagnostics.size() == 1);
  CHECK(ApplyBaseline(baseline, after) == 1);
  CHECK(after[0].diagnostics.empty());
}

}  // namespace
}  // namespace hlolint
