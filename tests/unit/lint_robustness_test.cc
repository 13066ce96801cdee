// The whole pipeline (parse, every rule, positions, suppressions,
// fingerprints, every reporter) on hostile input: truncated modules, many
// modules, configured limits (100,000 modules in one file: tests/cli/
// hostile_tests.py, with the command line's memory measured). Each input must give located diagnostics,
// never a crash. The fuzz target (tests/fuzz/fuzz_lint.cc) does the same on
// random inputs; these are the cases we know matter.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/lint.h"
#include "engine/rule.h"
#include "report/report.h"
#include "rules/registry.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

LintOptions AllRulesOptions() {
  LintOptions options;
  options.rules = AllRules();
  options.known_rules = AllRules();
  return options;
}

std::vector<RuleDescription> Descriptions() {
  std::vector<RuleDescription> rules;
  for (const Rule* rule : AllRules()) {
    const RuleInfo& info = rule->info();
    rules.push_back({std::string(info.id), std::string(CategoryName(info.category)), info.default_severity,
                     std::string(info.summary), ""});
  }
  return rules;
}

// Every diagnostic is located inside the text; returns the parse errors.
int CheckLocated(const FileResult& result, std::string_view text) {
  const auto file = SourceFile::FromString("t.hlo", text);
  const uint32_t lines = file->LineCount();
  int parse_errors = 0;
  for (const Diagnostic& d : result.diagnostics) {
    INFO(d.rule << " " << d.message);
    REQUIRE(d.resolved.line >= 1);
    REQUIRE(d.resolved.line <= lines);
    REQUIRE(d.resolved.column >= 1);
    REQUIRE_FALSE(d.message.empty());
    if (d.rule == "parse-error") ++parse_errors;
  }
  return parse_errors;
}

void RenderAll(const FileResult& result, const std::vector<RuleDescription>& rules) {
  std::vector<FileResult> files{result};
  ReportInput input;
  input.files = &files;
  input.rules = &rules;
  input.tool_version = "test";
  input.working_directory = "/test";
  for (Format format : {Format::kFull, Format::kConcise, Format::kJson, Format::kJsonLines,
                        Format::kSarif, Format::kGithub, Format::kJunit}) {
    input.color = format == Format::kFull;
    const std::string report = Render(format, input);
    if (format == Format::kJson || format == Format::kSarif || format == Format::kJunit) {
      REQUIRE_FALSE(report.empty());
    }
  }
}

std::vector<std::string> ExampleModules() {
  std::vector<std::string> texts;
  const std::filesystem::path dir = std::filesystem::path(HLOLINT_SOURCE_DIR) / "examples";
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".hlo") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    texts.push_back(buffer.str());
  }
  return texts;
}

TEST_CASE("lint robustness: every prefix of every example lints with located diagnostics") {
  const LintOptions options = AllRulesOptions();
  const std::vector<RuleDescription> rules = Descriptions();
  const std::vector<std::string> examples = ExampleModules();
  REQUIRE(examples.size() >= 4);
  size_t truncations = 0, with_parse_error = 0;
  for (const std::string& full : examples) {
    for (size_t length = 0; length <= full.size(); ++length) {
      const std::string_view prefix(full.data(), length);
      const auto file = SourceFile::FromString("t.hlo", prefix);
      const FileResult result = LintSource(*file, options);
      ++truncations;
      if (CheckLocated(result, prefix) > 0) ++with_parse_error;
      // Rendering every format is the slow part: every 8th prefix and the
      // whole file.
      if (length % 8 == 0 || length == full.size()) RenderAll(result, rules);
    }
    // The complete example parses.
    const auto file = SourceFile::FromString("t.hlo", full);
    CHECK(CheckLocated(LintSource(*file, options), full) == 0);
  }
  // Most prefixes cut a module in the middle: a located parse error.
  CHECK(with_parse_error > truncations / 2);
}

TEST_CASE("lint robustness: the modules-per-file limit is a located parse error") {
  LintOptions options = AllRulesOptions();
  options.limits.max_modules_per_file = 3;
  std::string text;
  for (int i = 0; i < 5; ++i) {
    text += "HloModule m" + std::to_string(i) + "\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n// -----\n";
  }
  const auto file = SourceFile::FromString("t.hlo", text);
  const FileResult result = LintSource(*file, options);
  REQUIRE(result.diagnostics.size() == 1);
  const Diagnostic& d = result.diagnostics[0];
  CHECK(d.rule == "parse-error");
  CHECK(d.resolved.line == 16);  // the fourth module's `HloModule`
  CHECK(d.resolved.column == 1);
  CHECK_THAT(d.message, Catch::Matchers::Contains("more than 3 modules"));
  CHECK(result.modules == 4);  // the limit counts as one (failed) module
}

TEST_CASE("lint robustness: the rank limit is a located parse error") {
  LintOptions options = AllRulesOptions();
  options.limits.max_rank = 3;
  const std::string ok = "HloModule m\nENTRY e {\n  ROOT p = f32[1,2,3]{2,1,0} parameter(0)\n}\n";
  const auto ok_file = SourceFile::FromString("t.hlo", ok);
  CHECK(LintSource(*ok_file, options).diagnostics.empty());
  const std::string wide = "HloModule m\nENTRY e {\n  ROOT p = f32[1,2,3,4] parameter(0)\n}\n";
  const auto file = SourceFile::FromString("t.hlo", wide);
  const FileResult result = LintSource(*file, options);
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].rule == "parse-error");
  CHECK(result.diagnostics[0].resolved.line == 3);
  CHECK(result.diagnostics[0].resolved.column == 22);  // the fourth dimension
  CHECK(result.diagnostics[0].message == "shape has more than 3 dimensions (hlolint's limit)");
}

// Truncates its file while the lint runs (another process rewriting a dump
// being linted), then reports at the root: resolving that position reads
// the text past the file's new end.
class TruncateFileRule : public Rule {
 public:
  explicit TruncateFileRule(std::string path) : path_(std::move(path)) {}
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"truncate-file", RuleCategory::kMeta, Severity::kError, "test rule"};
    return kInfo;
  }
  void Check(RuleContext& ctx) const override {
    REQUIRE(::truncate(path_.c_str(), 4096) == 0);
    const Module& m = ctx.module();
    ctx.Report(m.computation(m.entry()).root, "at the root");
  }

 private:
  std::string path_;
};

TEST_CASE("lint robustness: a large file truncated while linted is an I/O error, not a crash") {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("hlolint_truncated_" + std::to_string(::getpid()) + ".hlo");
  {
    std::ofstream out(path, std::ios::binary);
    out << "HloModule m\n\nENTRY %e (p: f32[4]) -> f32[4] {\n  %p = f32[4]{0} parameter(0)\n";
    std::string previous = "p";
    for (int i = 0; out.tellp() < (12 << 20); ++i) {
      const std::string name = "n" + std::to_string(i);
      out << "  %" << name << " = f32[4]{0} negate(f32[4]{0} %" << previous << ")\n";
      previous = name;
    }
    out << "  ROOT %r = f32[4]{0} negate(f32[4]{0} %" << previous << ")\n}\n";
  }
  TruncateFileRule rule(path.string());
  LintOptions options;
  options.rules = {&rule};
  options.known_rules = AllRules();
  const FileResult result = LintFile(path.string(), "shown.hlo", options);
  CHECK(result.io_error);
  CHECK_THAT(result.io_error_message, Catch::Contains("was truncated while hlolint read it"));
  CHECK(result.diagnostics.empty());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace hlolint
