// The human formats: concise (one line each) and full (snippets, colour).
#include <catch2/catch.hpp>

#include "report/report.h"
#include "report/text_escape.h"
#include "report_test_util.h"

namespace hlolint {
namespace {

TEST_CASE("concise prints one line per diagnostic and per note, messages kept on one line") {
  const std::vector<FileResult> files = report_test::SampleResults();
  ReportInput input;
  input.files = &files;
  CHECK(RenderConcise(input) ==
        "dumps/a,b:c.hlo:4:3: error: reshape 'r' is not a bitcast (100% sure) "
        "[reshape-not-bitcast]\n"
        "dumps/a,b:c.hlo:3:3: note: operand produced here\n"
        "dumps/a,b:c.hlo:4:3: note: a note without a place\n"
        "dumps/a,b:c.hlo:7:10: warning: first line\\nsecond line [unused-suppression]\n");
}

TEST_CASE("full shows the source line, a caret under the span, notes, source, help and a summary") {
  const std::vector<FileResult> files = report_test::SampleResults();
  ReportInput input;
  input.files = &files;
  CHECK(RenderFull(input) ==
        "dumps/a,b:c.hlo:4:3: error: reshape 'r' is not a bitcast (100% sure) "
        "[reshape-not-bitcast]\n"
        " 4 |   r = f32[2,2]{0,1} reshape(p)\n"
        "   |   ^\n"
        "dumps/a,b:c.hlo:3:3: note: operand produced here\n"
        "note: a note without a place\n"
        "  = source: model.py:42 (op_name \"jit(f)/reshape\")\n"
        "  = help: give 'r' the layout {1,0}\n"
        "\n"
        "dumps/a,b:c.hlo:7:10: warning: first line\nsecond line [unused-suppression]\n"
        " 7 | \t// hlolint: ignore[abc]\n"
        "   | \t        ^~~~~~\n"
        "\n"
        "Found 1 error, 1 warning in 2 files (3 modules, 5 instructions).\n");
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
