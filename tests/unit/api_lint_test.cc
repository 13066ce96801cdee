// The library API's lint entry points (include/hlolint/lint.h): exact
// diagnostics of small hand-written modules, the options, and inputs that
// are not HLO at all.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "hlolint/lint.h"

namespace api = hlolint::api;

namespace {

// sum's written shape is not what add makes of its operands.
constexpr const char* kWrongShape = R"(HloModule small

ENTRY main {
  p0 = f32[4]{0} parameter(0)
  p1 = f32[4]{0} parameter(1)
  sum = f32[5]{0} add(p0, p1)
  ROOT out = (f32[5]{0}, f32[4]{0}) tuple(sum, p1)
}
)";

constexpr const char* kWrongShapeMessage =
    "[ShapeVerifier::HandleElementwiseBinary] Expected instruction to have shape equal to "
    "f32[4], actual shape is f32[5]";

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("hlolint_api_test_" + name)).string();
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

}  // namespace

TEST_CASE("api: LintText reports a finding with its rule, place and message") {
  const api::LintResult result = api::LintText(kWrongShape, "small.hlo");
  REQUIRE(result.ok());
  CHECK(result.path == "small.hlo");
  CHECK(result.modules == 1);
  CHECK(result.computations == 1);
  CHECK(result.instructions == 4);
  REQUIRE(result.diagnostics.size() == 1);
  const api::Diagnostic& d = result.diagnostics[0];
  CHECK(d.rule == "verify-shape");
  CHECK(d.severity == api::Severity::kError);
  CHECK(d.message == kWrongShapeMessage);
  CHECK(d.location.path == "small.hlo");
  CHECK(d.location.line == 6);
  CHECK(d.location.column == 3);
  CHECK(d.location.end_line == 6);
  CHECK(d.location.end_column == 6);
  const std::string text = kWrongShape;
  CHECK(text.substr(d.location.offset, d.location.end_offset - d.location.offset) == "sum");
  CHECK(d.module == "small");
  CHECK(d.computation == "main");
  CHECK(d.instruction == "sum");
  CHECK(d.notes.empty());
  CHECK(d.fingerprint.size() == 16);
}

TEST_CASE("api: a parse error is a located parse-error diagnostic") {
  const api::LintResult result = api::LintText(
      "HloModule t\n\nENTRY main {\n  p0 = f32[4]{0} parameter(0)\n  ROOT n = f32[4]{0} negate(p",
      "truncated.hlo");
  REQUIRE(result.ok());
  REQUIRE(result.diagnostics.size() == 1);
  const api::Diagnostic& d = result.diagnostics[0];
  CHECK(d.rule == "parse-error");
  CHECK(d.message == "instruction does not exist: p");
  CHECK(d.location.line == 5);
  CHECK(d.location.column == 29);
}

TEST_CASE("api: options select, ignore and override severities") {
  api::LintOptions ignore;
  ignore.ignore = {"verify-shape"};
  CHECK(api::LintText(kWrongShape, "small.hlo", ignore).diagnostics.empty());

  api::LintOptions select;
  select.select = std::vector<std::string>{"layout"};
  CHECK(api::LintText(kWrongShape, "small.hlo", select).diagnostics.empty());

  api::LintOptions demote;
  demote.severity_overrides = {{"verify", api::Severity::kNote}};
  const api::LintResult result = api::LintText(kWrongShape, "small.hlo", demote);
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].severity == api::Severity::kNote);
}

TEST_CASE("api: invalid options are errors with the command line's messages") {
  api::LintOptions options;
  options.select = std::vector<std::string>{"verify-shap"};
  api::Linter linter(options);
  REQUIRE(linter.option_errors().size() == 1);
  CHECK(linter.option_errors()[0].message ==
        "select: unknown rule or category 'verify-shap' (did you mean 'verify-shape'?)");
  const api::LintResult result = linter.LintText(kWrongShape, "small.hlo");
  CHECK_FALSE(result.ok());
  CHECK(result.diagnostics.empty());

  api::LintOptions version;
  version.xla_version = "nope";
  REQUIRE(api::Linter(version).option_errors().size() == 1);
  CHECK(api::Linter(version).option_errors()[0].message ==
        "xla_version must be latest, a date of XLA's main branch (2026-06-03) or a jaxlib "
        "release (jaxlib-0.10.2), not 'nope'");

  api::LintOptions backend;
  backend.backend = "gpu";
  CHECK(api::Linter(backend).option_errors().empty());
  backend.backend = "abacus";
  CHECK(api::Linter(backend).option_errors().size() == 1);

  api::LintOptions override_unknown;
  override_unknown.severity_overrides = {{"no-such-rule", api::Severity::kNote}};
  CHECK(api::Linter(override_unknown).option_errors().size() == 1);
}

TEST_CASE("api: hostile input comes back as diagnostics, never a crash") {
  SECTION("empty") {
    const api::LintResult result = api::LintText("", "empty.hlo");
    REQUIRE(result.ok());
    REQUIRE(result.diagnostics.size() == 1);
    CHECK(result.diagnostics[0].rule == "unsupported-format");
    CHECK(result.diagnostics[0].severity == api::Severity::kWarning);
    CHECK(result.diagnostics[0].location.line == 1);
  }
  SECTION("binary bytes") {
    const std::string bytes("GIF89a\0\x01\xff\xfe\0\0garbage\x80\x81", 20);
    const api::LintResult result = api::LintText(bytes, "image.gif");
    REQUIRE(result.ok());
    REQUIRE(result.diagnostics.size() == 1);
    CHECK(result.diagnostics[0].rule == "unsupported-format");
    CHECK(result.diagnostics[0].message ==
          "this is a binary file (NUL or control bytes, or not UTF-8), not HLO text");
    CHECK(result.diagnostics[0].location.line == 1);
    CHECK(result.diagnostics[0].location.column == 1);
  }
  SECTION("a huge line") {
    std::string text = "HloModule big\n\nENTRY main {\n  p0 = f32[4]{0} parameter(0), "
                       "metadata={op_name=\"";
    text += std::string(4 << 20, 'a');
    text += "\"}\n  ROOT n = f32[4]{0} negate(p0)\n}\n";
    const api::LintResult result = api::LintText(text, "big.hlo");
    CHECK(result.ok());
    CHECK(result.diagnostics.empty());
    CHECK(result.instructions == 2);
  }
  SECTION("every prefix of a module") {
    const std::string text = kWrongShape;
    for (size_t size = 0; size <= text.size(); size += 7) {
      const api::LintResult result = api::LintText(text.substr(0, size), "prefix.hlo");
      CHECK(result.ok());
    }
  }
}

TEST_CASE("api: LintFile reads a file, and an unreadable one is an error") {
  const std::string path = TempPath("wrong_shape.hlo");
  WriteFile(path, kWrongShape);
  const api::LintResult result = api::LintFile(path);
  std::remove(path.c_str());
  REQUIRE(result.ok());
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].location.path == path);

  const api::LintResult missing = api::LintFile(TempPath("no_such_file.hlo"));
  REQUIRE(missing.errors.size() == 1);
  CHECK(missing.errors[0].message.find("no_such_file.hlo") != std::string::npos);
  CHECK(missing.diagnostics.empty());
}

TEST_CASE("api: a configuration file applies, and a broken one is a located error") {
  const std::string config = TempPath("config.json");
  WriteFile(config, R"({"ignore": ["verify-shape"]})");
  api::LintOptions options;
  options.config = api::ConfigSource::kFile;
  options.config_file = config;
  const api::LintResult result = api::LintText(kWrongShape, "small.hlo", options);
  CHECK(result.ok());
  CHECK(result.diagnostics.empty());

  WriteFile(config, "{\n  \"ignore\": [\"verify-shap\"]\n}\n");
  const api::Linter broken(options);
  std::remove(config.c_str());
  REQUIRE(broken.option_errors().size() == 1);
  const api::LintError& error = broken.option_errors()[0];
  REQUIRE(error.location);
  CHECK(error.location->path == config);
  CHECK(error.location->line == 2);
}

TEST_CASE("api: suppressions are counted, not reported") {
  std::string text = kWrongShape;
  const std::string line = "  sum = f32[5]{0} add(p0, p1)";
  text.replace(text.find(line), line.size(), line + "  // hlolint: ignore[verify-shape]");
  const api::LintResult result = api::LintText(text, "small.hlo");
  CHECK(result.diagnostics.empty());
  CHECK(result.suppressed == 1);
}

TEST_CASE("api: a bad assumed pass is an option error") {
  api::LintOptions options;
  options.assume_pass = "";
  CHECK(api::Linter(options).option_errors().size() == 1);
  options.assume_pass = "after_layout-assignment";
  CHECK(api::Linter(options).option_errors().empty());
}

TEST_CASE("api: a per-pass dump's name, or an assumed pass, says where in compilation it is") {
  // A reshape that moves data matters only once layouts are assigned: a
  // file named as the dump right before LayoutNormalization is judged so.
  const std::string text =
      "HloModule m\n\nENTRY main {\n  p = f32[4,6]{0,1} parameter(0)\n"
      "  ROOT r = f32[24]{0} reshape(p)\n}\n";
  const std::string dump_name = "module_0001.m.0005.gpu.after_x.before_layout-normalization.txt";
  CHECK(api::LintText(text, "plain.hlo").diagnostics.empty());

  const api::LintResult dumped = api::LintText(text, dump_name);
  REQUIRE(dumped.diagnostics.size() == 1);
  const api::Diagnostic& d = dumped.diagnostics[0];
  CHECK(d.rule == "reshape-not-bitcast");
  CHECK(d.severity == api::Severity::kError);
  CHECK(d.location.line == 5);
  CHECK(d.location.column == 8);
  REQUIRE(d.notes.size() == 3);  // the operand, the evidence, the consequence
  CHECK(d.notes[0].message == "operand produced here with layout {0,1}");
  REQUIRE(d.notes[0].location);
  CHECK(d.notes[0].location->line == 4);
  CHECK(d.notes[0].location->column == 3);

  api::LintOptions ignore_name;
  ignore_name.dump_context_from_path = false;
  CHECK(api::LintText(text, dump_name, ignore_name).diagnostics.empty());

  api::LintOptions assumed;
  assumed.assume_pass = "before_layout-normalization";
  const api::LintResult result = api::LintText(text, "plain.hlo", assumed);
  REQUIRE(result.diagnostics.size() == 1);
  CHECK(result.diagnostics[0].rule == "reshape-not-bitcast");
  CHECK(result.diagnostics[0].severity == api::Severity::kError);
  CHECK(result.diagnostics[0].location.line == 5);
}

TEST_CASE("api: one Linter lints on several threads at once") {
  api::LintOptions options;
  options.config = api::ConfigSource::kDiscover;
  const api::Linter linter(options);
  const api::Linter copy = linter;  // shares the state
  const std::string path = TempPath("concurrent.hlo");
  std::vector<std::thread> threads;
  std::vector<int> found(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        const api::LintResult result = (t % 2 == 0 ? linter : copy).LintText(kWrongShape, path);
        if (result.ok() && result.diagnostics.size() == 1) ++found[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(found == std::vector<int>{10, 10, 10, 10});
}
