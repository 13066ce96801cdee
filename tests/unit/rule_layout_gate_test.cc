// reshape-not-bitcast reports only once layouts are assigned. When the text
// carries no evidence either way (an entry parameter with a caller-chosen
// layout feeding a default-layout reshape: XLA's ReshapeDecomposerTest
// AlignableInput has this form), the per-pass dump file name decides.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "engine/dump_context.h"
#include "engine/lint.h"
#include "rules/registry.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

constexpr std::string_view kAmbiguous = R"(HloModule m
ENTRY main {
  p = f32[4,2,3]{0,1,2} parameter(0)
  ROOT r = f32[8,3]{1,0} reshape(p)
}
)";

std::vector<Diagnostic> LintWithDump(const DumpContext* dump) {
  auto file = SourceFile::FromString("module_0001.m.txt", kAmbiguous);
  LintOptions options;
  options.rules = {FindRule("reshape-not-bitcast")};
  REQUIRE(options.rules[0] != nullptr);
  options.dump = dump;
  return LintSource(*file, options).diagnostics;
}

TEST_CASE("reshape-not-bitcast: no evidence of layout assignment, no finding") {
  CHECK(LintWithDump(nullptr).empty());
  DumpContext before;
  before.pipeline = "optimization";
  before.after_pass = "algsimp";
  before.before_pass = "layout-assignment";
  CHECK(LintWithDump(&before).empty());
}

TEST_CASE("reshape-not-bitcast: a dump name after layout assignment makes it a finding") {
  DumpContext after;
  after.pipeline = "post-layout_assignment";
  after.after_pass = "reshape-mover";
  after.before_pass = "layout_normalization";
  const std::vector<Diagnostic> found = LintWithDump(&after);
  REQUIRE(found.size() == 1);
  CHECK(found[0].rule == "reshape-not-bitcast");
  CHECK(found[0].severity == Severity::kError);
  CHECK(found[0].resolved.line == 4);
  CHECK(found[0].message.rfind("reshape f32[4,2,3]{0,1,2} -> f32[8,3]{1,0} is not a bitcast", 0) ==
        0);
  // Right before LayoutNormalization: a note names both passes.
  REQUIRE(found[0].notes.size() == 3);
  CHECK(found[0].notes[2].message.find("this dump was taken after pass 'reshape-mover' (pipeline "
                                       "'post-layout_assignment'), right before pass "
                                       "'layout_normalization'") == 0);
}

}  // namespace
}  // namespace hlolint
