// concise: exactly one line per finding, its headline, in the form GCC,
// clang and VS Code problem matchers understand:
//   file:line:col: severity: message [rule-id]
// (the notes and the fix are in the full and machine formats). On a terminal
// it is coloured as GCC colours it: bold location, the severity word in its
// colour, the rule id bold.
#include "report/report.h"
#include "report/text_escape.h"
#include "util/strings.h"

namespace hlolint {
namespace {

struct Palette {
  std::string_view bold, reset, error, warning, note;
};

constexpr Palette kPlain{"", "", "", "", ""};
constexpr Palette kAnsi{"\x1b[1m", "\x1b[0m", "\x1b[1;31m", "\x1b[1;35m", "\x1b[1;36m"};

std::string_view SeverityColor(const Palette& p, Severity severity) {
  switch (severity) {
    case Severity::kError: return p.error;
    case Severity::kWarning: return p.warning;
    case Severity::kNote: return p.note;
  }
  return p.error;
}

}  // namespace

std::string RenderConcise(const ReportInput& input) {
  const Palette& p = input.color ? kAnsi : kPlain;
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
