// concise: exactly one line per diagnostic and per located note, in the form
// GCC, clang and VS Code problem matchers understand:
//   file:line:col: severity: message [rule-id]
//   file:line:col: note: message
#include "report/dump_history.h"
#include "report/report.h"
#include "report/text_escape.h"
#include "util/strings.h"

namespace hlolint {

std::string RenderConcise(const ReportInput& input) {
  std::string out;
  for (const FileResult& file : *input.files) {
    for (const Diagnostic& d : file.diagnostics) {
      // Messages may quote strings from the file: no control characters.
      out += StrCat(file.path, ":", d.resolved.line, ":", d.resolved.column, ": ",
                    SeverityName(d.severity), ": ", TerminalText(OneLine(d.message)), " [", d.rule,
                    "]\n");
      for (const DiagnosticNote& note : d.notes) {
        // A note without a location is reported at its diagnostic.
        const ResolvedSpan& at = note.span ? note.resolved : d.resolved;
        out += StrCat(file.path, ":", at.line, ":", at.column, ": note: ",
                      TerminalText(OneLine(note.message)), "\n");
      }
      // A finding of a dump sequence: where it was first seen and fixed.
      for (const std::string& line : DumpHistoryLines(file, d)) {
        out += StrCat(file.path, ":", d.resolved.line, ":", d.resolved.column, ": note: ",
                      OneLine(line), "\n");
      }
    }
  }
  return out;
}

}  // namespace hlolint
