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

// The span's first line, or a window of it around the span's column.
SourceExcerpt ExcerptAt(const SourceFile& file, const ResolvedSpan& at) {
  std::string_view line = file.Line(at.line);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  SourceExcerpt excerpt;
  if (line.size() > kMaxSourceLine) {
    // Keep a window around the column so the caret still points at the span.
    size_t column = at.column > 0 ? at.column - 1 : 0;
    size_t start = column > kMaxSourceLine / 2 ? column - kMaxSourceLine / 2 : 0;
    excerpt.clipped_before = start > 0;
    excerpt.clipped_after = start + kMaxSourceLine < line.size();
    line = line.substr(start, kMaxSourceLine);
    excerpt.offset = static_cast<uint32_t>(start);
  }
  excerpt.text = std::string(line);
  return excerpt;
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
  SourceExcerpt primary = ExcerptAt(file, d.resolved);
  d.source_line = std::move(primary.text);
  d.source_line_offset = primary.offset;
  d.source_line_clipped_after = primary.clipped_after;
  for (DiagnosticNote& note : d.notes) {
    if (!note.span) continue;
    note.resolved = ResolveSpan(file, *note.span);
    note.excerpt = ExcerptAt(file, note.resolved);
  }
  if (d.replacement) d.replacement->resolved = ResolveSpan(file, d.replacement->span);
}

}  // namespace hlolint
