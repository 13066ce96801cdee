// The human formats: concise (one line each) and full (snippets, colour).
#include <catch2/catch.hpp>

#include "report/report.h"
#include "report/text_escape.h"
#include "report_test_util.h"

namespace hlolint {
namespace {

TEST_CASE("concise prints one line per finding, its headline, kept on one line") {
  const std::vector<FileResult> files = report_test::SampleResults();
  ReportInput input;
  input.files = &files;
  CHECK(RenderConcise(input) ==
        "dumps/a,b:c.hlo:4:3: error: reshape 'r' is not a bitcast (100% sure) "
        "[reshape-not-bitcast]\n"
        "dumps/a,b:c.hlo:7:10: warning: first line\\nsecond line [unused-suppression]\n");
}

TEST_CASE("concise on a terminal is coloured as GCC colours it") {
  const std::vector<FileResult> files = report_test::SampleResults();
  ReportInput input;
  input.files = &files;
  input.color = true;
  CHECK(RenderConcise(input) ==
        "\x1b[1mdumps/a,b:c.hlo:4:3:\x1b[0m \x1b[1;31merror:\x1b[0m reshape 'r' is not a "
        "bitcast (100% sure) [\x1b[1mreshape-not-bitcast\x1b[0m]\n"
        "\x1b[1mdumps/a,b:c.hlo:7:10:\x1b[0m \x1b[1;35mwarning:\x1b[0m first line\\nsecond "
        "line [\x1b[1munused-suppression\x1b[0m]\n");
}

TEST_CASE("full shows the source line, a caret under the span, notes, source, help and a summary") {
  const std::vector<FileResult> files = report_test::SampleResults();
  ReportInput input;
  input.files = &files;
  CHECK(RenderFull(input) ==
        "dumps/a,b:c.hlo:4:3: error: reshape 'r' is not a bitcast (100% sure) "
        "[reshape-not-bitcast]\n"
        " 4 |   r = f32[2,2]{0,1} reshape(p)\n"
        "   |   ^ moves data\n"
        "dumps/a,b:c.hlo:3:3: note: operand produced here\n"
        " 3 |   p = f32[2,2]{1,0} parameter(0)\n"
        "   |   ^\n"
        "  = note: a note without a place\n"
        "  = source: model.py:42 (op_name \"jit(f)/reshape\")\n"
        "  = help: give 'r' the layout {1,0}\n"
        "\n"
        "dumps/a,b:c.hlo:7:10: warning: first line\nsecond line [unused-suppression]\n"
        " 7 | \t// hlolint: ignore[abc]\n"
        "   | \t        ^~~~~~\n"
        "\n"
        "Found 1 error, 1 warning in 2 files (3 modules, 5 instructions).\n");
}

// A diagnostic at `column` (1-based) of a line of `length` 'x's, the span
// two bytes long, as Resolve leaves it.
std::vector<FileResult> LongLine(size_t length, uint32_t column) {
  FileResult file;
  file.path = "d.txt";
  Diagnostic d;
  d.rule = "parse-error";
  d.message = "bad";
  d.resolved = {1, column, 1, column + 2};
  std::string line(length, 'x');
  line.replace(column - 1, 2, "AB");
  d.source_line = line;
  d.label = "here";
  file.diagnostics.push_back(d);
  return {file};
}

TEST_CASE("full clips a line wider than the report around the span, marking cut sides") {
  ReportInput input;
  input.quiet = true;
  input.width = 40;  // the line gets 40 - 4 - 1 (" 1 | ") = 35 columns, 33 and two marks
  const std::vector<FileResult> middle = LongLine(300, 150);
  input.files = &middle;
  // 11 characters (a third of 33) before the span, the rest after it.
  CHECK(RenderFull(input) == "d.txt:1:150: error: bad [parse-error]\n"
                             " 1 | \u2026" + std::string(11, 'x') + "AB" + std::string(20, 'x') +
                                 "\u2026\n"
                             "   |  " + std::string(11, ' ') + "^~ here\n\n");
  const std::vector<FileResult> start = LongLine(300, 1);
  input.files = &start;
  CHECK(RenderFull(input) == "d.txt:1:1: error: bad [parse-error]\n"
                             " 1 | AB" + std::string(31, 'x') + "\u2026\n"
                             "   | ^~ here\n\n");
  const std::vector<FileResult> end = LongLine(300, 299);
  input.files = &end;
  CHECK(RenderFull(input) == "d.txt:1:299: error: bad [parse-error]\n"
                             " 1 | \u2026" + std::string(31, 'x') + "AB\n"
                             "   |  " + std::string(31, ' ') + "^~ here\n\n");
  // A line that fits is shown whole.
  const std::vector<FileResult> short_line = LongLine(30, 10);
  input.files = &short_line;
  CHECK(RenderFull(input) == "d.txt:1:10: error: bad [parse-error]\n"
                             " 1 | " + std::string(9, 'x') + "AB" + std::string(19, 'x') + "\n"
                             "   | " + std::string(9, ' ') + "^~ here\n\n");
}

TEST_CASE("full colours only when asked, and quiet drops the summary") {
  const std::vector<FileResult> files = report_test::SampleResults();
  ReportInput input;
  input.files = &files;
  CHECK(RenderFull(input).find('\x1b') == std::string::npos);
  input.color = true;
  const std::string coloured = RenderFull(input);
  CHECK(coloured.find("\x1b[1;31merror:\x1b[0m") != std::string::npos);
  CHECK(coloured.find("\x1b[1;35mwarning:\x1b[0m") != std::string::npos);
  input.color = false;
  input.quiet = true;
  CHECK(RenderFull(input).find("Found") == std::string::npos);
  const std::vector<FileResult> none;
  input.files = &none;
  input.quiet = false;
  CHECK(RenderFull(input) == "No problems found in 0 files (0 modules, 0 instructions).\n");
}

TEST_CASE("Escaping helpers") {
  CHECK(OneLine("a\nb\r\nc") == "a\\nb\\r\\nc");
  CHECK(ValidUtf8("ok \xC3\xA9 bad \xFF end") == "ok \xC3\xA9 bad \xEF\xBF\xBD end");
  CHECK(XmlEscape("<a & \"b\">\x01") == "&lt;a &amp; &quot;b&quot;&gt;\xEF\xBF\xBD");
  CHECK(PathToUri("./dumps/a b:c.hlo") == "dumps/a%20b%3Ac.hlo");
  CHECK(PathToUri("/abs/x#1.hlo") == "file:///abs/x%231.hlo");
}

TEST_CASE("Format names round-trip") {
  for (std::string_view name : FormatNames()) {
    REQUIRE(FormatFromName(name).has_value());
    CHECK(FormatName(*FormatFromName(name)) == name);
  }
  CHECK(!FormatFromName("text").has_value());
}

}  // namespace
}  // namespace hlolint
