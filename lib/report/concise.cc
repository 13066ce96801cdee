// concise: exactly one line per finding, its headline, in the form GCC,
// clang and VS Code problem matchers understand:
//   file:line:col: severity: message [rule-id]
// (the notes and the fix are in the full and machine formats). On a terminal
// it is coloured as GCC colours it: bold location, the severity word in its
// colour, the rule id bold.
#include "report/palette.h"
#include "report/report.h"
#include "report/text_escape.h"
#include "util/strings.h"

namespace hlolint {

std::string RenderConcise(const ReportInput& input) {
  const Palette& p = input.color ? kAnsiPalette : kPlainPalette;
  std::string out;
  for (const FileResult& file : *input.files) {
    for (const Diagnostic& d : file.diagnostics) {
      // Messages may quote strings from the file: no control characters.
      out += StrCat(p.bold, file.path, ":", d.resolved.line, ":", d.resolved.column, ":",
                    p.reset, " ", SeverityColor(p, d.severity), SeverityName(d.severity), ":",
                    p.reset, " ", TerminalText(OneLine(d.message)), " [", p.bold, d.rule,
                    p.reset, "]\n");
    }
  }
  return out;
}

}  // namespace hlolint
