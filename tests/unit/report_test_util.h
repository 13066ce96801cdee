// Hand-built results for reporter tests (no parsing involved).
#pragma once

#include <string>
#include <vector>

#include "engine/lint.h"
#include "report/report.h"

namespace hlolint::report_test {

// Two files: one with an error (notes, metadata source, fix) and a warning
// whose message spans lines, one clean.
inline std::vector<FileResult> SampleResults() {
  FileResult a;
  a.path = "dumps/a,b:c.hlo";
  a.modules = 1;
  a.computations = 2;
  a.instructions = 5;
  a.bytes = 300;
  Diagnostic error;
  error.rule = "reshape-not-bitcast";
  error.severity = Severity::kError;
  error.message = "reshape 'r' is not a bitcast (100% sure)";
  error.module = "m";
  error.computation = "e";
  error.instruction = "r";
  error.op_name = "jit(f)/reshape";
  error.source = ProgramSource{"model.py", 42};
  error.fix = "give 'r' the layout {1,0}";
  error.resolved = {4, 3, 4, 4};
  error.source_line = "  r = f32[2,2]{0,1} reshape(p)";
  error.fingerprint = "0123456789abcdef";
  error.label = "moves data";
  error.notes.push_back({"operand produced here", SourceSpan{10, 11}, ResolvedSpan{3, 3, 3, 4},
                         SourceExcerpt{"  p = f32[2,2]{1,0} parameter(0)", 0, false, false}});
  error.notes.push_back({"a note without a place", std::nullopt, {}, {}});
  Diagnostic warning;
  warning.rule = "unused-suppression";
  warning.severity = Severity::kWarning;
  warning.message = "first line\nsecond line";
  warning.resolved = {7, 10, 7, 16};
  warning.source_line = "\t// hlolint: ignore[abc]";
  warning.fingerprint = "fedcba9876543210";
  a.diagnostics = {error, warning};
  FileResult b;
  b.path = "dumps/clean.hlo";
  b.modules = 2;
  return {a, b};
}

inline std::vector<RuleDescription> SampleRules() {
  return {
      {"reshape-not-bitcast", "layout", Severity::kError, "Reshape that is not a bitcast",
       "# reshape-not-bitcast\n\nCategory: layout\n\n## What it finds\n\nA reshape whose\n"
       "layouts move data.\n\nMore text.\n"},
      {"unused-suppression", "meta", Severity::kWarning, "Suppression that silences nothing", ""},
  };
}

}  // namespace hlolint::report_test
