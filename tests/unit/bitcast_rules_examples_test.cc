// The examples of reshape-not-bitcast and unclaimed-output-alias: each
// positive example produces its rule's finding (with a fix hint), and each
// clean variant produces no finding of any rule; examples/ as a whole shows
// one finding per seed rule.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/lint.h"
#include "rules/registry.h"

using namespace hlolint;

namespace {

FileResult LintExample(const std::string& name) {
  LintOptions options;
  options.rules = AllRules();
  const std::string path = std::string(HLOLINT_SOURCE_DIR) + "/examples/" + name;
  FileResult result = LintFile(path, name, options);
  REQUIRE_FALSE(result.io_error);
  return result;
}

std::string Describe(const FileResult& result) {
  std::string out;
  for (const Diagnostic& d : result.diagnostics) {
    out += d.rule + " " + std::to_string(d.resolved.line) + ": " + d.message + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("examples/reshape-not-bitcast.hlo: one finding with the rewrite as fix",
          "[bitcast][examples]") {
  const FileResult result = LintExample("reshape-not-bitcast.hlo");
  INFO(Describe(result));
  REQUIRE(result.modules == 1);
  int found = 0;
  for (const Diagnostic& d : result.diagnostics) {
    if (d.rule != "reshape-not-bitcast") continue;
    ++found;
    // The GEMM call makes it GPU's; from 2026-04-24 (latest) XLA decomposes
    // the reshape into copies before LayoutNormalization: a warning.
    CHECK(d.severity == Severity::kWarning);
    CHECK(d.instruction == "reshape.7");
    CHECK(d.message ==
          "reshape f16[2048,4096]{1,0} -> f16[16,128,32,128]{2,3,1,0} is not a bitcast");
    CHECK(d.fix.find("rewrite it as: reshape to f16[16,128,32,128]{3,2,1,0} (a bitcast), then "
                     "copy to {2,3,1,0}") == 0);
    // Operand note, GEMM note, the evidence, what happens to it, the XLA the
    // verdict assumes.
    REQUIRE(d.notes.size() == 5);
    CHECK(d.notes[1].message.find("__cublas$lt$matmul") != std::string::npos);
    CHECK(d.notes[2].message.find("result index (0,0,1,0) (logical element 128)") == 0);
    CHECK(d.notes[3].message.find("XLA runs ReshapeDecomposer right before each") == 0);
    CHECK(d.notes[4].message.find("assumes XLA with 'reshape-decomposer-before-layout-"
                                  "normalization'") == 0);
    REQUIRE(d.source.has_value());
    CHECK(d.source->file == "model.py");
  }
  CHECK(found == 1);
}

TEST_CASE("examples/unclaimed-output-alias.hlo: one finding naming the JAX fix",
          "[bitcast][examples]") {
  const FileResult result = LintExample("unclaimed-output-alias.hlo");
  INFO(Describe(result));
  int found = 0;
  for (const Diagnostic& d : result.diagnostics) {
    if (d.rule != "unclaimed-output-alias") continue;
    ++found;
    CHECK(d.severity == Severity::kWarning);
    CHECK(d.message.find("output {0}") != std::string::npos);
    CHECK(d.fix ==
          "declare the alias: input_output_aliases={0: 0} on jax.ffi.ffi_call, pallas_call or "
          "jax-triton's triton_call (output_to_operand_aliasing={{0}: (0, {})} in HLO); if the "
          "kernel cannot run in place, pass a dedicated output buffer as an extra operand and "
          "alias that");
  }
  CHECK(found == 1);
}

TEST_CASE("examples/: exactly one finding per seed rule, each in its example", "[examples]") {
  std::vector<std::string> found;
  for (const char* rule : {"dead-in-place-past-root", "missed-in-place-pair",
                           "reshape-not-bitcast", "unclaimed-output-alias"}) {
    for (const char* suffix : {".hlo", "-clean.hlo"}) {
      const std::string name = std::string(rule) + suffix;
      const FileResult result = LintExample(name);
      for (const Diagnostic& d : result.diagnostics) found.push_back(name + " " + d.rule);
    }
  }
  CHECK(found == std::vector<std::string>{
                     "dead-in-place-past-root.hlo dead-in-place-past-root",
                     "missed-in-place-pair.hlo missed-in-place-pair",
                     "reshape-not-bitcast.hlo reshape-not-bitcast",
                     "unclaimed-output-alias.hlo unclaimed-output-alias"});
}

TEST_CASE("clean examples produce no finding", "[bitcast][examples]") {
  for (const char* name : {"reshape-not-bitcast-clean.hlo", "unclaimed-output-alias-clean.hlo",
                           "dead-in-place-past-root-clean.hlo", "missed-in-place-pair-clean.hlo"}) {
    const FileResult result = LintExample(name);
    INFO(name << "\n" << Describe(result));
    CHECK(result.modules == 1);
    CHECK(result.diagnostics.empty());
  }
}
