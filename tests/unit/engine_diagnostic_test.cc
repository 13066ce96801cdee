// The diagnostic model as a rule sees it (engine/rule.h): RuleContext fills
// rule id, severity, primary location, names, the metadata source location
// and fingerprint inputs; the builder adds notes with their own locations,
// a fix hint and another severity; the engine resolves every position and
// applies severity overrides.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "engine/lint.h"
#include "parse/attributes.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

constexpr std::string_view kModule = R"(HloModule model
ENTRY main {
  p = f32[4]{0} parameter(0), metadata={op_name="jit(f)/p"}
  q = f32[4]{0} negate(p), metadata={op_name="jit(f)/neg" source_file="model.py" source_line=42}
  ROOT r = f32[4]{0} custom-call(q), custom_call_target="k", output_to_operand_aliasing={{}: (0, {})}
}
)";

// Reports once at `q` (notes at `p`, at r's aliasing attribute and without a
// place, a fix, error severity) and once at r's aliasing attribute.
class ProbeRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"probe-rule", RuleCategory::kMeta, Severity::kWarning,
                                "A rule for tests"};
    return kInfo;
  }
  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    InstrId p = kNoId, q = kNoId, r = kNoId;
    for (InstrId id = 0; id < m.instruction_count(); ++id) {
      if (m.name(id) == "p") p = id;
      if (m.name(id) == "q") q = id;
      if (m.name(id) == "r") r = id;
    }
    ctx.Report(q, "q is probed")
        .Note(p, "operand produced here")
        .NoteAtAttribute(r, AttrName::kOutputToOperandAliasing, "claimed here")
        .NoteAtAttribute(p, AttrName::kOutputToOperandAliasing, "falls back to the name")
        .Note("a note without a place")
        .Fix("do something else")
        .WithSeverity(Severity::kError);
    ctx.ReportAtAttribute(r, AttrName::kOutputToOperandAliasing, "r's aliasing is probed");
  }
};

std::vector<Diagnostic> Lint(const LintOptions& options) {
  auto file = SourceFile::FromString("probe.hlo", kModule);
  return LintSource(*file, options).diagnostics;
}

std::string At(const ResolvedSpan& span) {
  return std::to_string(span.line) + ":" + std::to_string(span.column) + "-" +
         std::to_string(span.end_line) + ":" + std::to_string(span.end_column);
}

TEST_CASE("engine: a context without a module reports at a span, with notes and a fix") {
  ProbeRule probe;
  std::vector<Diagnostic> found;
  {
    RuleContext ctx(probe, "model", &found);
    ctx.ReportAt({3, 5}, "the text is probed").NoteAt({7, 7}, "see here").Fix("do less");
  }
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found[0];
  CHECK(d.rule == "probe-rule");
  CHECK(d.severity == Severity::kWarning);
  CHECK(d.message == "the text is probed");
  CHECK(d.span.begin == 3);
  CHECK(d.span.end == 5);
  CHECK(d.module == "model");
  CHECK(d.computation.empty());
  CHECK(d.instruction.empty());
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "see here");
  CHECK(d.fix == "do less");
}

TEST_CASE("engine: a rule's diagnostic carries locations, notes, source and fix") {
  ProbeRule probe;
  LintOptions options;
  options.rules = {&probe};
  const std::vector<Diagnostic> found = Lint(options);
  REQUIRE(found.size() == 2);
  const Diagnostic& d = found[0];
  CHECK(d.rule == "probe-rule");
  CHECK(d.severity == Severity::kError);  // WithSeverity overrides the default warning
  CHECK(d.message == "q is probed");
  CHECK(At(d.resolved) == "4:3-4:4");  // the instruction's name
  CHECK(d.source_line == "  q = f32[4]{0} negate(p), metadata={op_name=\"jit(f)/neg\" "
                         "source_file=\"model.py\" source_line=42}");
  CHECK(d.module == "model");
  CHECK(d.computation == "main");
  CHECK(d.instruction == "q");
  REQUIRE(d.source.has_value());
  CHECK(d.source->file == "model.py");
  CHECK(d.source->line == 42);
  CHECK(d.fix == "do something else");
  // Fingerprint inputs: opcode, shape and metadata op_name.
  CHECK(d.opcode == "negate");
  CHECK(d.shape == "f32[4]{0}");
  CHECK(d.op_name == "jit(f)/neg");
  CHECK_FALSE(d.fingerprint.empty());
  REQUIRE(d.notes.size() == 4);
  CHECK(d.notes[0].message == "operand produced here");
  CHECK(At(d.notes[0].resolved) == "3:3-3:4");
  CHECK(d.notes[1].message == "claimed here");
  CHECK(At(d.notes[1].resolved) == "5:62-5:88");  // the attribute's name
  CHECK(At(d.notes[2].resolved) == "3:3-3:4");    // p has no such attribute
  CHECK_FALSE(d.notes[3].span.has_value());

  // Reported at an attribute: located at its name; no metadata, no source.
  const Diagnostic& a = found[1];
  CHECK(a.severity == Severity::kWarning);  // the rule's default
  CHECK(At(a.resolved) == "5:62-5:88");
  CHECK(a.instruction == "r");
  CHECK_FALSE(a.source.has_value());
  CHECK(a.fix.empty());
  CHECK(a.notes.empty());
}

TEST_CASE("engine: severity overrides apply to every diagnostic of the rule") {
  ProbeRule probe;
  LintOptions options;
  options.rules = {&probe};
  options.severity_overrides["probe-rule"] = Severity::kNote;
  const std::vector<Diagnostic> found = Lint(options);
  REQUIRE(found.size() == 2);
  CHECK(found[0].severity == Severity::kNote);
  CHECK(found[1].severity == Severity::kNote);
}

TEST_CASE("engine: a rule that is not selected does not run") {
  LintOptions options;  // no rules at all
  CHECK(Lint(options).empty());
}

}  // namespace
}  // namespace hlolint
