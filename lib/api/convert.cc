#include "api/convert.h"

#include <type_traits>

namespace hlolint::api_internal {
namespace {

// The two enums list the same severities in the same order.
static_assert(static_cast<int>(Severity::kNote) == static_cast<int>(api::Severity::kNote));
static_assert(static_cast<int>(Severity::kWarning) ==
              static_cast<int>(api::Severity::kWarning));
static_assert(static_cast<int>(Severity::kError) ==
              static_cast<int>(api::Severity::kError));

api::Location LocationOf(const std::string& path, const SourceSpan& span, const ResolvedSpan& at) {
  api::Location location;
  location.path = path;
  location.line = at.line;
  location.column = at.column;
  location.end_line = at.end_line;
  location.end_column = at.end_column;
  location.offset = span.begin;
  location.end_offset = span.end;
  return location;
}

api::DumpInfo DumpInfoOf(const DumpContext& dump) {
  api::DumpInfo out;
  out.module_id = dump.module_id;
  out.module_name = dump.module_name;
  out.kind = std::string(DumpKindName(dump.kind));
  out.step = dump.step;
  out.pipeline = dump.pipeline;
  out.after_pass = dump.after_pass;
  out.before_pass = dump.before_pass;
  out.during_pass = dump.during_pass;
  out.step_name = dump.step_name;
  out.platform = dump.platform;
  out.timestamp = dump.timestamp;
  out.next_pass = dump.next_pass;
  return out;
}

}  // namespace

api::Severity ToApi(Severity severity) { return static_cast<api::Severity>(severity); }
Severity FromApi(api::Severity severity) {
  return static_cast<Severity>(severity);
}

api::Diagnostic ToApi(const Diagnostic& diagnostic, const std::string& path) {
  api::Diagnostic out;
  out.rule = diagnostic.rule;
  out.severity = ToApi(diagnostic.severity);
  out.message = diagnostic.message;
  out.location = LocationOf(path, diagnostic.span, diagnostic.resolved);
  out.module = diagnostic.module;
  out.computation = diagnostic.computation;
  out.instruction = diagnostic.instruction;
  out.op_name = diagnostic.op_name;
  if (diagnostic.source) {
    out.source = api::ProgramSource{diagnostic.source->file, diagnostic.source->line};
  }
  for (const DiagnosticNote& note : diagnostic.notes) {
    api::Note& converted = out.notes.emplace_back();
    converted.message = note.message;
    if (note.span) converted.location = LocationOf(path, *note.span, note.resolved);
  }
  out.fix = diagnostic.fix;
  out.label = diagnostic.label;
  if (diagnostic.replacement) {
    const Replacement& r = *diagnostic.replacement;
    out.edit = api::TextEdit{LocationOf(path, r.span, r.resolved), r.text};
  }
  out.fingerprint = diagnostic.fingerprint;
  return out;
}

api::LintResult ToApi(const FileResult& result) {
  api::LintResult out;
  out.path = result.path;
  if (result.io_error) out.errors.push_back({result.io_error_message, std::nullopt});
  if (result.dump) out.dump = DumpInfoOf(*result.dump);
  out.diagnostics.reserve(result.diagnostics.size());
  for (const Diagnostic& d : result.diagnostics) {
    out.diagnostics.push_back(ToApi(d, result.path));
    out.diagnostics.back().dump = out.dump;
  }
  out.modules = result.modules;
  out.computations = result.computations;
  out.instructions = result.instructions;
  out.suppressed = result.suppressed;
  return out;
}

api::LintError ToApi(const ConfigError& error) {
  api::LintError out;
  // Without a position (an unreadable file), the message names the file.
  out.message = error.line != 0 ? error.message : error.ToString();
  if (error.line != 0) {
    api::Location location;
    location.path = error.file;
    location.line = error.line;
    location.column = error.column;
    location.end_line = error.line;
    location.end_column = error.column + 1;
    out.location = location;
  }
  return out;
}

}  // namespace hlolint::api_internal
