// junit: JUnit XML for CI test reports. One test case per file; each
// diagnostic at or above the file's --fail-on level is a <failure>, the
// others are listed in <system-out>; an unreadable file is an <error>.
#include "report/dump_history.h"
#include "report/report.h"
#include "report/text_escape.h"
#include "util/strings.h"

namespace hlolint {
namespace {

std::string Line(const FileResult& file, const Diagnostic& d) {
  std::string text = StrCat(file.path, ":", d.resolved.line, ":", d.resolved.column, ": ",
                            SeverityName(d.severity), ": ", d.message, " [", d.rule, "]");
  for (const DiagnosticNote& note : d.notes) {
    const ResolvedSpan& at = note.span ? note.resolved : d.resolved;
    text += StrCat("\n", file.path, ":", at.line, ":", at.column, ": note: ", note.message);
  }
  for (const std::string& line : DumpHistoryLines(file, d)) text += StrCat("\nnote: ", line);
  if (!d.fix.empty()) text += StrCat("\nhelp: ", d.fix);
  return text;
}

}  // namespace

std::string RenderJunit(const ReportInput& input) {
  std::string cases;
  uint64_t failed = 0, errored = 0;
  const std::vector<FileResult>& files = *input.files;
  for (size_t i = 0; i < files.size(); ++i) {
    const FileResult& file = files[i];
    const std::string path = XmlEscape(file.path);
    std::string body, below;
    bool fails = false;
    if (file.io_error) {
      ++errored;
      body += StrCat("      <error message=\"", XmlEscape(file.io_error_message), "\"/>\n");
    }
    for (const Diagnostic& d : file.diagnostics) {
      if (d.severity >= input.FailOn(i)) {
        fails = true;
        body += StrCat("      <failure type=\"", XmlEscape(d.rule), "\" message=\"",
                       XmlEscape(StrCat(d.resolved.line, ":", d.resolved.column, ": ",
                                        SeverityName(d.severity), ": ", d.message, " [", d.rule,
                                        "]")),
                       "\">", XmlEscape(Line(file, d)), "</failure>\n");
      } else {
        below += Line(file, d) + "\n";
      }
    }
    if (fails) ++failed;
    if (!below.empty()) body += StrCat("      <system-out>", XmlEscape(below), "</system-out>\n");
    cases += StrCat("    <testcase name=\"", path, "\" classname=\"hlolint\" file=\"", path, "\"");
    cases += body.empty() ? "/>\n" : StrCat(">\n", body, "    </testcase>\n");
  }
  const std::string counts = StrCat("tests=\"", files.size(), "\" failures=\"", failed,
                                    "\" errors=\"", errored, "\"");
  return StrCat("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                "<testsuites name=\"hlolint\" ", counts, ">\n",
                "  <testsuite name=\"hlolint\" ", counts, " skipped=\"0\">\n", cases,
                "  </testsuite>\n", "</testsuites>\n");
}

}  // namespace hlolint
