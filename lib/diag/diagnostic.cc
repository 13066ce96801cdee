#include "diag/diagnostic.h"

#include <algorithm>

namespace hlolint {
namespace {

// Longest source line copied into a diagnostic (dumps have megabyte lines).
constexpr size_t kMaxSourceLine = 400;

ResolvedSpan ResolveSpan(const SourceFile& file, const SourceSpan& span) {
  LineCol begin = file.Locate(span.begin);
  LineCol end = file.Locate(std::max(span.end, span.begin));
  return {begin.line, begin.column, end.line, end.column};
}

}  // namespace

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kNote: return "note";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "error";
}

std::optional<Severity> SeverityFromName(std::string_view name) {
  if (name == "note" || name == "info") return Severity::kNote;
  if (name == "warning") return Severity::kWarning;
  if (name == "error") return Severity::kError;
  return std::nullopt;
}

void Resolve(const SourceFile& file, Diagnostic& d) {
  d.resolved = ResolveSpan(file, d.span);
  std::string_view line = file.Line(d.resolved.line);
  if (line.size() > kMaxSourceLine) {
    // Keep a window around the column so the caret still points at the span.
    size_t column = d.resolved.column > 0 ? d.resolved.column - 1 : 0;
    size_t start = column > kMaxSourceLine / 2 ? column - kMaxSourceLine / 2 : 0;
    line = line.substr(start, kMaxSourceLine);
    d.source_line = std::string(line);
    d.source_line_offset = static_cast<uint32_t>(start);
  } else {
    d.source_line = std::string(line);
    d.source_line_offset = 0;
  }
  for (DiagnosticNote& note : d.notes) {
    if (note.span) note.resolved = ResolveSpan(file, *note.span);
  }
  if (d.replacement) d.replacement->resolved = ResolveSpan(file, d.replacement->span);
}

}  // namespace hlolint
