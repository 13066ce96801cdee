// An open document edited as clients edit: ranges in UTF-16 positions,
// several changes in one notification, full replacements, and changes
// that are wrong (left unapplied, the document as it was).
#include <string>

#include <catch2/catch.hpp>

#include "lsp/document.h"

using nlohmann::json;
using hlolint::lsp::Document;
using hlolint::lsp::EditableText;

namespace {

json Range(int line, int character, int end_line, int end_character) {
  return {{"start", {{"line", line}, {"character", character}}},
          {"end", {{"line", end_line}, {"character", end_character}}}};
}

json Change(json range, const std::string& text) { return {{"range", range}, {"text", text}}; }

std::string Apply(Document& document, json changes, int version) {
  return document.ApplyChanges(changes, version);
}

}  // namespace

TEST_CASE("lsp document: a range edit inside a line, across lines, and at the end") {
  EditableText text("ab\ncd\nef");
  REQUIRE(text.Replace(Range(1, 1, 1, 2), "XY"));
  CHECK(text.text() == "ab\ncXY\nef");
  REQUIRE(text.Replace(Range(0, 1, 2, 1), "1\n2\n3\n4"));
  CHECK(text.text() == "a1\n2\n3\n4f");
  // The index of lines follows: line 3 is "4f" now.
  REQUIRE(text.Replace(Range(3, 0, 3, 1), "four"));
  CHECK(text.text() == "a1\n2\n3\nfourf");
  REQUIRE(text.Replace(Range(3, 5, 3, 5), "\nlast"));
  CHECK(text.text() == "a1\n2\n3\nfourf\nlast");
}

TEST_CASE("lsp document: positions count UTF-16 units and are clamped to the text") {
  // é is one unit (two bytes), 😀 two units (four bytes).
  EditableText text("\xC3\xA9\xF0\x9F\x98\x80x\r\nnext");
  REQUIRE(text.Replace(Range(0, 3, 0, 4), "y"));  // after é and 😀: the x
  CHECK(text.text() == "\xC3\xA9\xF0\x9F\x98\x80y\r\nnext");
  REQUIRE(text.Replace(Range(0, 99, 0, 99), "!"));  // past the line's end: before its \r\n
  CHECK(text.text() == "\xC3\xA9\xF0\x9F\x98\x80y!\r\nnext");
  REQUIRE(text.Replace(Range(7, 0, 9, 0), " end"));  // past the last line: the text's end
  CHECK(text.text() == "\xC3\xA9\xF0\x9F\x98\x80y!\r\nnext end");
  CHECK_FALSE(text.Replace(json::object(), "z"));
}

TEST_CASE("lsp document: changes apply in order, and a bad one leaves the document as it was") {
  Document document("file:///d.hlo", "one\ntwo\n", 1);
  CHECK(Apply(document, json::array({Change(Range(0, 0, 0, 3), "ONE"),
                                           Change(Range(1, 0, 1, 0), "2 ")}),
                              2)
            .empty());
  CHECK(document.text() == "ONE\n2 two\n");
  CHECK(document.version() == 2);
  CHECK(Apply(document, json::array({Change(Range(0, 0, 0, 1), "x"),
                                           Change(json{{"start", 1}}, "y")}),
                              3) == "a content change with a range that is not an LSP Range");
  CHECK(Apply(document, json::array({{{"range", Range(0, 0, 0, 1)}}}), 3) ==
        "a content change without a text");
  CHECK(Apply(document, json::object(), 3) == "contentChanges is not an array");
  CHECK(document.text() == "ONE\n2 two\n");
  CHECK(document.version() == 2);
  // A change without a range replaces the whole text.
  CHECK(Apply(document, json::array({{{"text", "new"}}, Change(Range(0, 3, 0, 3), "!")}),
                              4)
            .empty());
  CHECK(document.text() == "new!");
}

TEST_CASE("lsp document: the text lives in the parse until the next edit") {
  Document document("file:///dir/m%20n.hlo", "HloModule m\nENTRY e {\n  ROOT p = f32[] parameter(0)\n}\n",
                    1);
  CHECK(document.path() == "/dir/m n.hlo");
  CHECK(document.needs_parse());
  document.Parse();
  CHECK_FALSE(document.needs_parse());
  CHECK(document.text().data() == document.module().text().data());
  REQUIRE(Apply(document, json::array({Change(Range(2, 7, 2, 8), "q")}), 2).empty());
  CHECK(document.needs_parse());
  CHECK(document.text() == "HloModule m\nENTRY e {\n  ROOT q = f32[] parameter(0)\n}\n");
  document.Parse();
  CHECK(document.module().instruction(0)->name == "q");
}
