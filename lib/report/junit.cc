// junit: JUnit XML for CI test reports, valid against the Jenkins JUnit
// schema (tests/schemas/junit-10.xsd). Each diagnostic at or above the
// file's --fail-on level is a test case of its own with one <failure>, so CI
// lists every finding; a file without such findings is one passing test
// case; an unreadable file is a test case with an <error>. Diagnostics below
// the level are listed in the <system-out> of the file's first test case.
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

std::string TestCase(std::string_view name, const std::string& body) {
  std::string out = StrCat("    <testcase name=\"", XmlEscape(name), "\" classname=\"hlolint\"");
  out += body.empty() ? "/>\n" : StrCat(">\n", body, "    </testcase>\n");
  return out;
}

struct Counts {
  uint64_t tests = 0, failures = 0, errors = 0;
};

// The test cases of one file.
std::string FileCases(const FileResult& file, Severity fail_on, Counts* counts) {
  std::vector<std::string> failures;  // one body per failing finding
  std::vector<std::string> names;
  std::string below;
  for (const Diagnostic& d : file.diagnostics) {
    if (d.severity >= fail_on) {
      names.push_back(StrCat(file.path, ":", d.resolved.line, ":", d.resolved.column, " [",
                             d.rule, "]"));
      failures.push_back(StrCat(
          "      <failure type=\"", XmlEscape(d.rule), "\" message=\"",
          XmlEscape(StrCat(d.resolved.line, ":", d.resolved.column, ": ",
                           SeverityName(d.severity), ": ", d.message, " [", d.rule, "]")),
          "\">", XmlEscape(Line(file, d)), "</failure>\n"));
    } else {
      below += Line(file, d) + "\n";
    }
  }
  const std::string system_out =
      below.empty() ? "" : StrCat("      <system-out>", XmlEscape(below), "</system-out>\n");
  std::string out;
  if (file.io_error || failures.empty()) {
    std::string body;
    if (file.io_error) {
      ++counts->errors;
      body += StrCat("      <error type=\"unreadable\" message=\"",
                     XmlEscape(file.io_error_message), "\"/>\n");
    }
    if (failures.empty()) body += system_out;
    out += TestCase(file.path, body);
    ++counts->tests;
  }
  for (size_t i = 0; i < failures.size(); ++i) {
    out += TestCase(names[i], i == 0 ? failures[i] + system_out : failures[i]);
    ++counts->tests;
    ++counts->failures;
  }
  return out;
}

}  // namespace

std::string RenderJunit(const ReportInput& input) {
  std::string cases;
  Counts counts;
  const std::vector<FileResult>& files = *input.files;
  for (size_t i = 0; i < files.size(); ++i) cases += FileCases(files[i], input.FailOn(i), &counts);
  const std::string attributes = StrCat("tests=\"", counts.tests, "\" failures=\"",
                                        counts.failures, "\" errors=\"", counts.errors, "\"");
  return StrCat("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                "<testsuites name=\"hlolint\" ", attributes, ">\n",
                "  <testsuite name=\"hlolint\" ", attributes, " skipped=\"0\">\n", cases,
                "  </testsuite>\n", "</testsuites>\n");
}

}  // namespace hlolint
