// The parts of the hlolint._hlolint extension, each registering its classes
// and functions on the module.
#pragma once

#include <nanobind/nanobind.h>

namespace hlolint_python {

// Location, Note, TextEdit, ProgramSource, Diagnostic, LintResult, RuleInfo.
void BindResults(nanobind::module_& m);
// Linter, expand_paths, rules, find_rule.
void BindLinting(nanobind::module_& m);

}  // namespace hlolint_python
