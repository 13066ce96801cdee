// Fingerprints: line-independent and blind to XLA's renumbered name suffixes.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "diag/fingerprint.h"
#include "engine/lint.h"
#include "rules/registry.h"

namespace hlolint {
namespace {

Diagnostic Sample() {
  Diagnostic d;
  d.rule = "reshape-not-bitcast";
  d.module = "jit_f.3";
  d.computation = "fused_computation.12";
  d.instruction = "reshape.7";
  d.opcode = "reshape";
  d.shape = "f16[16,128]{0,1}";
  d.op_name = "jit(f)/reshape";
  d.message = "reshape.7 is not a bitcast";
  d.resolved = {10, 3, 10, 12};
  return d;
}

TEST_CASE("NormalizeHloName drops XLA's numeric suffixes only") {
  CHECK(NormalizeHloName("add.6") == "add");
  CHECK(NormalizeHloName("fusion.123") == "fusion");
  CHECK(NormalizeHloName("param_0.7") == "param_0");
  CHECK(NormalizeHloName("%multiply.2.3") == "multiply");
  CHECK(NormalizeHloName("fusion.12.clone.3") == "fusion.clone");
  CHECK(NormalizeHloName("copy-start.1") == "copy-start");
  CHECK(NormalizeHloName("p") == "p");
  CHECK(NormalizeHloName("x1") == "x1");
  CHECK(NormalizeHloName("") == "");
}

TEST_CASE("NormalizeDigits replaces every number") {
  CHECK(NormalizeDigits("instruction does not exist: add.17") == "instruction does not exist: add.#");
  CHECK(NormalizeDigits("f32[4,128]") == "f#[#,#]");
}

TEST_CASE("Fingerprint ignores lines, columns, messages and suffixes") {
  const Diagnostic a = Sample();
  Diagnostic b = Sample();
  b.resolved = {99, 7, 99, 20};
  b.module = "jit_f.8";
  b.computation = "fused_computation.40";
  b.instruction = "reshape.123";
  b.message = "reshape.123 is not a bitcast";
  const std::string fa = ComputeFingerprint(a);
  CHECK(fa.size() == 16);
  CHECK(fa.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(ComputeFingerprint(b) == fa);
}

TEST_CASE("Fingerprint changes with each identifying field") {
  const std::string base = ComputeFingerprint(Sample());
  std::set<std::string> seen = {base};
  auto differs = [&](auto mutate) {
    Diagnostic d = Sample();
    mutate(d);
    return seen.insert(ComputeFingerprint(d)).second;
  };
  CHECK(differs([](Diagnostic& d) { d.rule = "other-rule"; }));
  CHECK(differs([](Diagnostic& d) { d.module = "jit_g"; }));
  CHECK(differs([](Diagnostic& d) { d.computation = "body"; }));
  CHECK(differs([](Diagnostic& d) { d.instruction = "transpose.7"; }));
  CHECK(differs([](Diagnostic& d) { d.opcode = "copy"; }));
  CHECK(differs([](Diagnostic& d) { d.shape = "f16[16,128]{1,0}"; }));
  CHECK(differs([](Diagnostic& d) { d.op_name = "jit(f)/other"; }));
}

TEST_CASE("Without an instruction the message (numbers aside) tells findings apart") {
  Diagnostic a;
  a.rule = "parse-error";
  a.module = "m";
  a.message = "instruction does not exist: q.3";
  Diagnostic b = a;
  b.message = "instruction does not exist: q.12";
  Diagnostic c = a;
  c.message = "unknown opcode: negativ";
  CHECK(ComputeFingerprint(a) == ComputeFingerprint(b));
  CHECK(ComputeFingerprint(a) != ComputeFingerprint(c));
}

TEST_CASE("Every diagnostic of LintSource has a fingerprint, parse errors included") {
  auto file = SourceFile::FromString("t.hlo",
                                     "HloModule broken\n"
                                     "ENTRY e {\n"
                                     "  p = f32[4]{0} parameter(0)\n"
                                     "  ROOT r = f32[4]{0} negate(p, q)\n"
                                     "}\n");
  LintOptions options;
  options.rules = AllRules();
  FileResult result = LintSource(*file, options);
  REQUIRE(!result.diagnostics.empty());
  for (const Diagnostic& d : result.diagnostics) {
    CHECK(d.fingerprint.size() == 16);
    CHECK(d.fingerprint == ComputeFingerprint(d));
  }
}

TEST_CASE("A parse error keeps its fingerprint when lines shift and names are renumbered") {
  auto lint = [](const std::string& text) {
    auto file = SourceFile::FromString("t.hlo", text);
    LintOptions options;
    options.rules = {FindRule("parse-error")};
    return LintSource(*file, options);
  };
  FileResult before = lint(
      "HloModule m.1\nENTRY e.2 {\n  p.3 = f32[4]{0} parameter(0)\n"
      "  ROOT r.4 = f32[4]{0} negate(p.3, q.5)\n}\n");
  FileResult after = lint(
      "// a new comment\n\nHloModule m.11\nENTRY e.12 {\n  p.13 = f32[4]{0} parameter(0)\n"
      "  ROOT r.14 = f32[4]{0} negate(p.13, q.15)\n}\n");
  REQUIRE(before.diagnostics.size() == 1);
  REQUIRE(after.diagnostics.size() == 1);
  CHECK(before.diagnostics[0].resolved.line != after.diagnostics[0].resolved.line);
  CHECK(before.diagnostics[0].fingerprint == after.diagnostics[0].fingerprint);
}

}  // namespace
}  // namespace hlolint
