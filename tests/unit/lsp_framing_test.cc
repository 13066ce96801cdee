// The LSP base protocol's reader on well-formed and hostile byte streams.
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "lsp/framing.h"

using hlolint::lsp::MessageReader;
using hlolint::lsp::ReadResult;
using FrameStatus = hlolint::lsp::ReadResult::Status;

namespace {

ReadResult ReadOne(const std::string& bytes, uint64_t max_length = hlolint::lsp::kMaxContentLength) {
  std::istringstream in(bytes);
  MessageReader reader(in, max_length);
  return reader.Read();
}

}  // namespace

TEST_CASE("lsp framing: reads messages one after another, then the end") {
  std::istringstream in(
      "Content-Length: 7\r\n\r\n{\"a\":1}"
      "content-length:  2 \r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[]");
  MessageReader reader(in);
  ReadResult first = reader.Read();
  REQUIRE(first.status == FrameStatus::kMessage);
  CHECK(first.message == nlohmann::json{{"a", 1}});
  ReadResult second = reader.Read();
  REQUIRE(second.status == FrameStatus::kMessage);
  CHECK(second.message == nlohmann::json::array());
  CHECK(reader.Read().status == FrameStatus::kEndOfStream);
  CHECK(reader.Read().status == FrameStatus::kEndOfStream);
}

TEST_CASE("lsp framing: a body that is not JSON is skipped, located, and the stream goes on") {
  std::istringstream in("Content-Length: 3\r\n\r\n{x}Content-Length: 2\r\n\r\n{}");
  MessageReader reader(in);
  ReadResult bad = reader.Read();
  CHECK(bad.status == FrameStatus::kBadBody);
  CHECK(bad.error == "byte 0: the body is not JSON");
  ReadResult good = reader.Read();
  CHECK(good.status == FrameStatus::kMessage);
  CHECK(good.message == nlohmann::json::object());
}

TEST_CASE("lsp framing: a broken header is a located framing error") {
  CHECK(ReadOne("Content-Type: x\r\n\r\n{}").error == "byte 0: no Content-Length header");
  CHECK(ReadOne("Content-Length: abc\r\n\r\n{}").error ==
        "byte 0: Content-Length is not a number: 'abc'");
  CHECK(ReadOne("Content-Length: -2\r\n\r\n{}").error ==
        "byte 0: Content-Length is not a number: '-2'");
  CHECK(ReadOne("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}").error ==
        "byte 0: two different Content-Length headers");
  CHECK(ReadOne("{\"jsonrpc\":\"2.0\"}").error ==
        "byte 0: the stream ended inside the header (no blank line after it)");
  CHECK(ReadOne("Content-Length: 2\r\n{}\r\n").error ==
        "byte 0: header line without ':': '{}'");
  CHECK(ReadOne("Content-Length: 2\r\n").error ==
        "byte 0: the stream ended inside the header (no blank line after it)");
  CHECK(ReadOne(std::string(10000, 'x')).error == "byte 0: header line too long");
  std::string many_headers;
  for (int i = 0; i < 100; ++i) many_headers += "X-Header: 1\r\n";
  CHECK(ReadOne(many_headers).error == "byte 0: too many header lines");
  CHECK(ReadOne("\r\n{}").error == "byte 0: no Content-Length header");
  CHECK(ReadOne("Content-Length: 2\r\n").status == FrameStatus::kBadFraming);
}

TEST_CASE("lsp framing: a truncated body or an absurd length is refused without waiting") {
  const ReadResult truncated = ReadOne("Content-Length: 10\r\n\r\n{}");
  CHECK(truncated.status == FrameStatus::kBadFraming);
  CHECK(truncated.error == "byte 0: the stream ended inside the body: 2 of 10 bytes");
  // A length past the cap is refused before any of the body is read.
  const ReadResult absurd = ReadOne("Content-Length: 99999999999999\r\n\r\n{}");
  CHECK(absurd.error == "byte 0: Content-Length 99999999999999 exceeds the limit of 2147483648 bytes");
  CHECK(ReadOne("Content-Length: 3\r\n\r\n[1]", 2).status == FrameStatus::kBadFraming);
  CHECK(ReadOne("Content-Length: 99999999999999999999999\r\n\r\n").status == FrameStatus::kBadFraming);
}

TEST_CASE("lsp framing: errors name the byte where the failing message began") {
  std::istringstream in("Content-Length: 2\r\n\r\n{}Content-Length: 5\r\n\r\n{}");
  MessageReader reader(in);
  CHECK(reader.Read().status == FrameStatus::kMessage);
  CHECK(reader.Read().error == "byte 23: the stream ended inside the body: 2 of 5 bytes");
}

TEST_CASE("lsp framing: the writer frames what the reader reads") {
  std::ostringstream out;
  const nlohmann::json message = {{"text", "\xC3\xA9t\xC3\xA9"}};
  hlolint::lsp::WriteMessage(out, message);
  CHECK(out.str() == "Content-Length: 16\r\n\r\n{\"text\":\"\xC3\xA9t\xC3\xA9\"}");
  // Bytes that are not UTF-8 are replaced rather than thrown on.
  std::ostringstream invalid;
  hlolint::lsp::WriteMessage(invalid, {{"text", "\xFF"}});
  CHECK(invalid.str() == "Content-Length: 14\r\n\r\n{\"text\":\"\xEF\xBF\xBD\"}");
}

TEST_CASE("lsp framing: deeply nested JSON is refused without overflowing the stack") {
  const std::string nested = std::string(100000, '[') + std::string(100000, ']');
  const ReadResult deep =
      ReadOne("Content-Length: " + std::to_string(nested.size()) + "\r\n\r\n" + nested);
  CHECK(deep.status == FrameStatus::kBadBody);
  CHECK(deep.error == "byte 0: the body is nested deeper than 1024 levels");
  const std::string deepest_allowed = std::string(1024, '[') + std::string(1024, ']');
  CHECK(ReadOne("Content-Length: 2048\r\n\r\n" + deepest_allowed).status == FrameStatus::kMessage);
  const std::string unclosed(100000, '[');
  CHECK(ReadOne("Content-Length: 100000\r\n\r\n" + unclosed).status == FrameStatus::kBadBody);
}
