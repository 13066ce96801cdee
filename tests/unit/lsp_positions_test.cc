// LSP positions (0-based, UTF-16) from the library's (1-based, bytes), and
// document URIs to paths.
#include <string>

#include <catch2/catch.hpp>

#include "lsp/positions.h"

namespace lsp = hlolint::lsp;

TEST_CASE("lsp positions: UTF-16 length of UTF-8 text") {
  CHECK(lsp::Utf16Length("") == 0);
  CHECK(lsp::Utf16Length("abc") == 3);
  CHECK(lsp::Utf16Length("\xC3\xA9") == 1);          // é: 2 bytes, 1 unit
  CHECK(lsp::Utf16Length("\xE6\x97\xA5") == 1);      // 日: 3 bytes, 1 unit
  CHECK(lsp::Utf16Length("\xF0\x9F\x98\x80") == 2);  // 😀: 4 bytes, a surrogate pair
  CHECK(lsp::Utf16Length("\xFF") == 1);              // not UTF-8: one replacement character
}

TEST_CASE("lsp positions: a range after non-ASCII text counts UTF-16 units") {
  // Line 2 is `  x = "é😀" y`; the range covers `y`.
  const std::string text = "first\n  x = \"\xC3\xA9\xF0\x9F\x98\x80\" y\n";
  hlolint::api::Location location;
  location.line = 2;
  location.end_line = 2;
  location.offset = static_cast<uint32_t>(text.find(" y") + 1);
  location.end_offset = location.offset + 1;
  location.column = location.offset - 6 + 1;  // bytes since the line's start, 1-based
  location.end_column = location.column + 1;
  CHECK(lsp::RangeIn(text, location) ==
        nlohmann::json::parse(R"({"start":{"line":1,"character":12},"end":{"line":1,"character":13}})"));
}

TEST_CASE("lsp positions: a location without a line, or outside the text, does not fail") {
  CHECK(lsp::RangeIn("abc", hlolint::api::Location{}) ==
        nlohmann::json::parse(R"({"start":{"line":0,"character":0},"end":{"line":0,"character":0}})"));
  hlolint::api::Location elsewhere;
  elsewhere.line = elsewhere.end_line = 7;
  elsewhere.column = 4;
  elsewhere.end_column = 9;
  elsewhere.offset = 500;
  elsewhere.end_offset = 505;
  CHECK(lsp::RangeIn("short", elsewhere) ==
        nlohmann::json::parse(R"({"start":{"line":6,"character":3},"end":{"line":6,"character":8}})"));
}

TEST_CASE("lsp positions: a file URI gives a path, other schemes stay as they are") {
  CHECK(lsp::PathFromUri("file:///home/me/dump.hlo") == "/home/me/dump.hlo");
  CHECK(lsp::PathFromUri("file:///a%20b/c%2Ehlo") == "/a b/c.hlo");
  CHECK(lsp::PathFromUri("file://host/share/x.hlo") == "/share/x.hlo");
  CHECK(lsp::PathFromUri("file:///bad%zz%") == "/bad%zz%");
  CHECK(lsp::PathFromUri("untitled:Untitled-1") == "untitled:Untitled-1");
}
