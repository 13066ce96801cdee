// Hostile bytes in what the human formats print: a source line, a message
// or an op_name holding invalid UTF-8 or terminal escape sequences comes out
// as valid UTF-8 without control characters, and the caret still points at
// the right character.
#include <catch2/catch.hpp>

#include "report/report.h"
#include "report/text_escape.h"

namespace hlolint {
namespace {

const std::string kBad = "\xEF\xBF\xBD";  // U+FFFD

TEST_CASE("TerminalText replaces invalid UTF-8 and control characters, keeps tabs") {
  CHECK(TerminalText("plain\ttext") == "plain\ttext");
  CHECK(TerminalText("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(TerminalText("a\x1B[31mb") == "a" + kBad + "[31mb");
  CHECK(TerminalText(std::string("a\0b\x7F", 4)) == "a" + kBad + "b" + kBad);
  CHECK(TerminalText("\xC2\x9B" "2J") == kBad + "2J");  // C1 CSI
  CHECK(TerminalText("\xFF\xFE") == kBad + kBad);
  CHECK(TerminalText("\xE2\x82") == kBad + kBad);       // truncated sequence
  std::vector<uint32_t> starts;
  TerminalText("a\xC3\xA9\xFF" "b", &starts);
  CHECK(starts == std::vector<uint32_t>{0, 1, 1, 2, 3});
}

TEST_CASE("full and concise print hostile text safely, the caret under the right character") {
  FileResult file;
  file.path = "x.hlo";
  Diagnostic d;
  d.rule = "parse-error";
  d.message = "unexpected \x1B]0;pwned\x07 here";
  d.resolved = {1, 8, 1, 9};  // byte 8 is the "b": after two 2-byte characters, two bad bytes, "a"
  d.source_line = "\xC3\xA9\xC3\xA9\xFF\x1B" "ab";
  d.source = ProgramSource{"m\x1B.py", 3};
  d.op_name = "op\xFF";
  d.notes.push_back({"note \x1B[2J", SourceSpan{0, 1}, ResolvedSpan{1, 1, 1, 2},
                     SourceExcerpt{d.source_line, 0, false, false}});
  file.diagnostics.push_back(d);
  const std::vector<FileResult> files{file};
  ReportInput input;
  input.files = &files;
  input.quiet = true;
  CHECK(RenderFull(input) ==
        "x.hlo:1:8: error: unexpected " + kBad + "]0;pwned" + kBad + " here [parse-error]\n"
        " 1 | \xC3\xA9\xC3\xA9" + kBad + kBad + "ab\n"
        "   |      ^\n"
        "x.hlo:1:1: note: note " + kBad + "[2J\n"
        " 1 | \xC3\xA9\xC3\xA9" + kBad + kBad + "ab\n"
        "   | ^\n"
        "  = source: m" + kBad + ".py:3 (op_name \"op" + kBad + "\")\n"
        "\n");
  CHECK(RenderConcise(input) ==
        "x.hlo:1:8: error: unexpected " + kBad + "]0;pwned" + kBad + " here [parse-error]\n");
}

}  // namespace
}  // namespace hlolint
