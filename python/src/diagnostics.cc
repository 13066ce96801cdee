// Findings as Python objects: read-only views of the library's structs.
// A LintResult owns its diagnostics; the Diagnostic objects handed out
// reference them and keep the result alive, so nothing is copied.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

#include "bindings.h"
#include "hlolint/hlolint.h"

namespace nb = nanobind;
namespace api = hlolint::api;

namespace hlolint_python {
namespace {

// The position fields of the CLI's JSON (lib/report/json_diagnostic.cc).
void PutSpan(nb::dict& out, const api::Location& at) {
  out["file"] = at.path;
  out["line"] = at.line;
  out["column"] = at.column;
  out["end_line"] = at.end_line;
  out["end_column"] = at.end_column;
}

// The CLI's JSON `dump` object (lib/report/dump_history.cc).
nb::dict DumpToDict(const api::DumpInfo& dump) {
  nb::dict out;
  out["module_id"] = dump.module_id;
  out["module_name"] = dump.module_name;
  out["kind"] = dump.kind;
  out["step"] = dump.step ? nb::cast(*dump.step) : nb::none();
  out["pipeline"] = dump.pipeline;
  out["after_pass"] = dump.after_pass;
  out["before_pass"] = dump.before_pass;
  if (dump.kind == "within_pass") {
    out["during_pass"] = dump.during_pass;
    out["step_name"] = dump.step_name;
  }
  if (!dump.platform.empty()) out["platform"] = dump.platform;
  if (!dump.timestamp.empty()) out["timestamp"] = dump.timestamp;
  if (!dump.next_pass.empty()) out["next_pass"] = dump.next_pass;
  return out;
}

// The same keys, in the same order, as the CLI's `--format json` object
// (without the dump-sequence histories, which only the CLI computes).
nb::dict DiagnosticToDict(const api::Diagnostic& d) {
  nb::dict out;
  out["rule"] = d.rule;
  out["severity"] = api::SeverityName(d.severity);
  out["message"] = d.message;
  PutSpan(out, d.location);
  if (!d.label.empty()) out["label"] = d.label;
  out["module"] = d.module;
  out["computation"] = d.computation;
  out["instruction"] = d.instruction;
  if (!d.op_name.empty()) out["op_name"] = d.op_name;
  nb::list notes;
  for (const api::Note& note : d.notes) {
    nb::dict n;
    n["message"] = note.message;
    if (note.location) PutSpan(n, *note.location);
    notes.append(n);
  }
  out["notes"] = notes;
  if (d.source) {
    nb::dict source;
    source["file"] = d.source->file;
    source["line"] = d.source->line;
    out["source"] = source;
  }
  out["fingerprint"] = d.fingerprint;
  if (!d.fix.empty()) out["fix"] = d.fix;
  if (d.dump) out["dump"] = DumpToDict(*d.dump);
  return out;
}

std::string Describe(const api::Diagnostic& d) {
  return d.location.path + ":" + std::to_string(d.location.line) + ":" +
         std::to_string(d.location.column) + ": " + api::SeverityName(d.severity) + ": " +
         d.message + " [" + d.rule + "]";
}

// A list of views into `owner`'s vector, each keeping `owner` alive.
template <typename T>
nb::list Views(const std::vector<T>& items, nb::handle owner) {
  nb::list out;
  for (const T& item : items) out.append(nb::cast(&item, nb::rv_policy::reference_internal, owner));
  return out;
}

void BindLocation(nb::module_& m) {
  nb::class_<api::Location>(m, "Location", "A range of a text: 1-based lines, byte columns, end exclusive.")
      .def_ro("path", &api::Location::path)
      .def_ro("line", &api::Location::line)
      .def_ro("column", &api::Location::column)
      .def_ro("end_line", &api::Location::end_line)
      .def_ro("end_column", &api::Location::end_column)
      .def_ro("offset", &api::Location::offset, "Byte offset of the start in the text.")
      .def_ro("end_offset", &api::Location::end_offset)
      .def("__repr__", [](const api::Location& l) {
        return "Location(" + l.path + ":" + std::to_string(l.line) + ":" +
               std::to_string(l.column) + "-" + std::to_string(l.end_line) + ":" +
               std::to_string(l.end_column) + ")";
      });
  nb::class_<api::Note>(m, "Note", "A note of a finding, with its location when it has one.")
      .def_ro("message", &api::Note::message)
      .def_ro("location", &api::Note::location)
      .def("__repr__", [](const api::Note& n) { return "<Note " + n.message + ">"; });
  nb::class_<api::TextEdit>(m, "TextEdit", "A fix that is a text edit: replace location's range with new_text.")
      .def_ro("location", &api::TextEdit::location)
      .def_ro("new_text", &api::TextEdit::new_text);
  nb::class_<api::DumpInfo>(m, "DumpInfo", "What the name of an XLA dump file says.")
      .def_ro("module_id", &api::DumpInfo::module_id)
      .def_ro("module_name", &api::DumpInfo::module_name)
      .def_ro("kind", &api::DumpInfo::kind)
      .def_ro("step", &api::DumpInfo::step)
      .def_ro("pipeline", &api::DumpInfo::pipeline)
      .def_ro("after_pass", &api::DumpInfo::after_pass)
      .def_ro("before_pass", &api::DumpInfo::before_pass)
      .def_ro("during_pass", &api::DumpInfo::during_pass)
      .def_ro("step_name", &api::DumpInfo::step_name)
      .def_ro("platform", &api::DumpInfo::platform)
      .def_ro("timestamp", &api::DumpInfo::timestamp)
      .def_ro("next_pass", &api::DumpInfo::next_pass)
      .def("to_dict", &DumpToDict, "The CLI's JSON `dump` object.");
  nb::class_<api::ProgramSource>(m, "ProgramSource", "Where an instruction came from: its metadata source_file and source_line.")
      .def_ro("file", &api::ProgramSource::file)
      .def_ro("line", &api::ProgramSource::line);
}

void BindDiagnostic(nb::module_& m) {
  nb::class_<api::Diagnostic>(m, "Diagnostic", "One finding, as the CLI reports it.")
      .def_ro("rule", &api::Diagnostic::rule, "The rule id, e.g. 'reshape-not-bitcast'.")
      .def_prop_ro("severity", [](const api::Diagnostic& d) { return api::SeverityName(d.severity); },
                   "'error', 'warning' or 'note' (after severity overrides).")
      .def_ro("message", &api::Diagnostic::message)
      .def_ro("location", &api::Diagnostic::location)
      .def_prop_ro("file", [](const api::Diagnostic& d) { return d.location.path; })
      .def_prop_ro("line", [](const api::Diagnostic& d) { return d.location.line; })
      .def_prop_ro("column", [](const api::Diagnostic& d) { return d.location.column; })
      .def_prop_ro("end_line", [](const api::Diagnostic& d) { return d.location.end_line; })
      .def_prop_ro("end_column", [](const api::Diagnostic& d) { return d.location.end_column; })
      .def_ro("module", &api::Diagnostic::module)
      .def_ro("computation", &api::Diagnostic::computation)
      .def_ro("instruction", &api::Diagnostic::instruction)
      .def_ro("op_name", &api::Diagnostic::op_name)
      .def_ro("source", &api::Diagnostic::source)
      .def_prop_ro("notes", [](nb::handle self) {
        return Views(nb::cast<const api::Diagnostic&>(self).notes, self);
      })
      .def_prop_ro("label", [](const api::Diagnostic& d) -> std::optional<std::string> {
        if (d.label.empty()) return std::nullopt;
        return d.label;
      }, "What the finding's own span is (the full format prints it under the caret), or None.")
      .def_prop_ro("fix", [](const api::Diagnostic& d) -> std::optional<std::string> {
        if (d.fix.empty()) return std::nullopt;
        return d.fix;
      }, "A one-line fix hint, or None.")
      .def_ro("edit", &api::Diagnostic::edit, "The fix as a TextEdit, where it is mechanical; else None.")
      .def_ro("fingerprint", &api::Diagnostic::fingerprint)
      .def_ro("dump", &api::Diagnostic::dump, "The XLA dump its file is (DumpInfo), or None.")
      .def("to_dict", &DiagnosticToDict, "The CLI's `--format json` object for this finding.")
      .def("__str__", &Describe)
      .def("__repr__", [](const api::Diagnostic& d) { return "<Diagnostic " + Describe(d) + ">"; });
}

void BindResult(nb::module_& m) {
  nb::class_<api::LintError>(m, "LintProblem", "Why an input, or part of it, was not linted.")
      .def_ro("message", &api::LintError::message)
      .def_ro("location", &api::LintError::location);
  nb::class_<api::LintResult>(m, "LintResult", "The findings for one input.")
      .def_ro("path", &api::LintResult::path)
      .def_prop_ro("diagnostics", [](nb::handle self) {
        return Views(nb::cast<const api::LintResult&>(self).diagnostics, self);
      })
      .def_prop_ro("errors", [](nb::handle self) {
        return Views(nb::cast<const api::LintResult&>(self).errors, self);
      })
      .def_ro("modules", &api::LintResult::modules)
      .def_ro("computations", &api::LintResult::computations)
      .def_ro("instructions", &api::LintResult::instructions)
      .def_ro("suppressed", &api::LintResult::suppressed)
      .def_ro("dump", &api::LintResult::dump);
  nb::class_<api::RuleInfo>(m, "RuleInfo", "A rule, as `hlolint --list-rules` shows it.")
      .def_ro("id", &api::RuleInfo::id)
      .def_ro("category", &api::RuleInfo::category)
      .def_prop_ro("default_severity",
                   [](const api::RuleInfo& r) { return api::SeverityName(r.default_severity); })
      .def_ro("summary", &api::RuleInfo::summary)
      .def_ro("documentation", &api::RuleInfo::documentation)
      .def("__repr__", [](const api::RuleInfo& r) { return "<RuleInfo " + r.id + ">"; });
}

}  // namespace

void BindResults(nb::module_& m) {
  BindLocation(m);
  BindDiagnostic(m);
  BindResult(m);
}

}  // namespace hlolint_python
