// The language server in whole sessions, as an editor drives it: framed
// messages in, every framed message out checked exactly.
#include <string>

#include <catch2/catch.hpp>

#include "lsp_session.h"

using nlohmann::json;
using namespace hlolint::lsp::testing;

namespace {

constexpr const char* kDocumentUri = "file:///lsp-test/small.hlo";

// sum's written shape is not what add makes of its operands (verify-shape).
constexpr const char* kWrongShapeModule = R"(HloModule small

ENTRY main {
  p0 = f32[4]{0} parameter(0)
  p1 = f32[4]{0} parameter(1)
  sum = f32[5]{0} add(p0, p1)
  ROOT out = (f32[5]{0}, f32[4]{0}) tuple(sum, p1)
}
)";

constexpr const char* kRightShapeModule = R"(HloModule small

ENTRY main {
  p0 = f32[4]{0} parameter(0)
  p1 = f32[4]{0} parameter(1)
  sum = f32[4]{0} add(p0, p1)
  ROOT out = (f32[4]{0}, f32[4]{0}) tuple(sum, p1)
}
)";

json DidOpen(const std::string& text, int version = 1) {
  return Notify("textDocument/didOpen", {{"textDocument",
                                          {{"uri", kDocumentUri},
                                           {"languageId", "hlo"},
                                           {"version", version},
                                           {"text", text}}}});
}

json InitializeReply() {
  return json::parse(R"({"jsonrpc":"2.0","id":1,"result":{
      "capabilities":{"positionEncoding":"utf-16",
        "textDocumentSync":{"openClose":true,"change":2,"save":{"includeText":false}},
        "hoverProvider":true,"definitionProvider":true,"referencesProvider":true,
        "documentHighlightProvider":true,"documentSymbolProvider":true,
        "workspaceSymbolProvider":true,"codeActionProvider":{"codeActionKinds":["quickfix"]}},
      "serverInfo":{"name":"hlolint","version":")" HLOLINT_VERSION R"("}}})");
}

json WrongShapeDiagnostics(int version) {
  json params = json::parse(R"({"uri":"file:///lsp-test/small.hlo","diagnostics":[{
      "range":{"start":{"line":5,"character":2},"end":{"line":5,"character":5}},
      "severity":1,"code":"verify-shape","source":"hlolint",
      "message":"[ShapeVerifier::HandleElementwiseBinary] Expected instruction to have shape equal to f32[4], actual shape is f32[5]"}]})");
  params["version"] = version;
  return Notify("textDocument/publishDiagnostics", params);
}

json NoDiagnostics(std::optional<int> version) {
  json params = {{"uri", kDocumentUri}, {"diagnostics", json::array()}};
  if (version) params["version"] = *version;
  return Notify("textDocument/publishDiagnostics", params);
}

json Error(json id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json NullResult(int id) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", nullptr}}; }

}  // namespace

TEST_CASE("lsp server: open, see the finding, fix it, see it go, close, shut down") {
  const json fix = Notify("textDocument/didChange",
                          {{"textDocument", {{"uri", kDocumentUri}, {"version", 2}}},
                           {"contentChanges", json::array({{{"text", kRightShapeModule}}})}});
  const json close = Notify("textDocument/didClose", {{"textDocument", {{"uri", kDocumentUri}}}});
  const SessionOutput session = RunSession(Initialize() + Frame(DidOpen(kWrongShapeModule)) +
                                           Frame(fix) + Frame(close) + ShutdownAndExit(2));
  REQUIRE(session.messages.size() == 5);
  CHECK(session.messages[0] == InitializeReply());
  CHECK(session.messages[1] == WrongShapeDiagnostics(1));
  CHECK(session.messages[2] == NoDiagnostics(2));
  CHECK(session.messages[3] == NoDiagnostics(std::nullopt));
  CHECK(session.messages[4] == NullResult(2));
  CHECK(session.exit_status == 0);
  CHECK(session.log.empty());
}

TEST_CASE("lsp server: an unknown request is answered MethodNotFound, a notification ignored") {
  const SessionOutput session =
      RunSession(Initialize() + Frame(Request(7, "textDocument/frobnicate")) +
                 Frame(Notify("$/unknownNotification")) + ShutdownAndExit(8));
  REQUIRE(session.messages.size() == 3);
  CHECK(session.messages[1] == Error(7, -32601, "unknown method: textDocument/frobnicate"));
  CHECK(session.messages[2] == NullResult(8));
  CHECK(session.exit_status == 0);
}

TEST_CASE("lsp server: requests before initialize and after shutdown are refused") {
  const SessionOutput session =
      RunSession(Frame(Request(1, "shutdown")) + Frame(DidOpen(kWrongShapeModule)) +
                 Frame(Request(2, "initialize")) + Frame(Request(3, "initialize")) +
                 Frame(Request(4, "shutdown")) + Frame(Request(5, "textDocument/hover")) +
                 Frame(Notify("exit")));
  REQUIRE(session.messages.size() == 5);
  CHECK(session.messages[0] == Error(1, -32002, "the server is not initialized"));
  // The didOpen before initialize was dropped: no diagnostics.
  CHECK(session.messages[1]["id"] == 2);
  CHECK(session.messages[2] == Error(3, -32600, "initialize was already received"));
  CHECK(session.messages[3] == NullResult(4));
  CHECK(session.messages[4] == Error(5, -32600, "the server is shut down"));
  CHECK(session.exit_status == 0);
}

TEST_CASE("lsp server: exit without shutdown, or the input ending, exits with status 1") {
  CHECK(RunSession(Initialize() + Frame(Notify("exit"))).exit_status == 1);
  CHECK(RunSession(Initialize()).exit_status == 1);
  CHECK(RunSession("").exit_status == 1);
}

TEST_CASE("lsp server: a body that is not JSON gets a parse error and the session goes on") {
  const SessionOutput session =
      RunSession(Initialize() + Frame(std::string("{\"jsonrpc\": ")) + ShutdownAndExit(2));
  const std::string at = "byte " + std::to_string(Initialize().size());
  REQUIRE(session.messages.size() == 3);
  CHECK(session.messages[1] == Error(nullptr, -32700, at + ": the body is not JSON"));
  CHECK(session.messages[2] == NullResult(2));
  CHECK(session.exit_status == 0);
  CHECK(session.log == "hlolint lsp: " + at + ": the body is not JSON\n");
}

TEST_CASE("lsp server: broken framing gets one parse error, then the server stops") {
  const SessionOutput session = RunSession(Initialize() + "Content-Length: 12\r\n\r\n{}");
  const std::string at = "byte " + std::to_string(Initialize().size());
  REQUIRE(session.messages.size() == 2);
  CHECK(session.messages[1] ==
        Error(nullptr, -32700, at + ": the stream ended inside the body: 2 of 12 bytes"));
  CHECK(session.exit_status == 1);
  const SessionOutput garbage = RunSession("GET / HTTP/1.1\r\n\r\n");
  REQUIRE(garbage.messages.size() == 1);
  CHECK(garbage.messages[0] == Error(nullptr, -32700, "byte 0: header line without ':': 'GET / HTTP/1.1'"));
}

TEST_CASE("lsp server: JSON that is not a JSON-RPC message is an invalid request") {
  const SessionOutput session = RunSession(
      Initialize() + Frame(std::string("[1,2]")) +
      Frame(json{{"jsonrpc", "1.0"}, {"id", 4}, {"method", "shutdown"}}) +
      Frame(json{{"jsonrpc", 2}, {"method", "exit"}}) +
      Frame(json{{"jsonrpc", "2.0"}, {"id", json::array()}, {"method", "shutdown"}}) +
      Frame(json{{"jsonrpc", "2.0"}, {"id", 5}, {"method", 17}}) +
      Frame(Notify("textDocument/didOpen", {{"textDocument", 3}})) +
      Frame(Notify("textDocument/didChange", {{"textDocument", {{"uri", "file:///nothing"}}}})) +
      ShutdownAndExit(6));
  REQUIRE(session.messages.size() == 7);
  CHECK(session.messages[1] == Error(nullptr, -32600, "not a JSON-RPC 2.0 message"));
  CHECK(session.messages[2] == Error(4, -32600, "not a JSON-RPC 2.0 message"));
  CHECK(session.messages[3] == Error(nullptr, -32600, "not a JSON-RPC 2.0 message"));
  CHECK(session.messages[4] == Error(nullptr, -32600, "invalid method or id"));
  CHECK(session.messages[5] == Error(5, -32600, "invalid method or id"));
  CHECK(session.messages[6] == NullResult(6));
  CHECK(session.exit_status == 0);
}

TEST_CASE("lsp server: a range after non-ASCII text is in UTF-16 units") {
  // The parse error is at `frob`, byte column 60; é is one UTF-16 unit, 😀 two.
  const std::string text =
      "HloModule m\n\nENTRY main {\n"
      "  p = f32[4]{0} parameter(0), metadata={op_name=\"\xC3\xA9\xF0\x9F\x98\x80\"}, frob=1\n"
      "  ROOT n = f32[4]{0} negate(p)\n}\n";
  const SessionOutput session =
      RunSession(Initialize() + Frame(DidOpen(text)) + ShutdownAndExit(2));
  REQUIRE(session.messages.size() == 3);
  const json& diagnostic = session.messages[1]["params"]["diagnostics"].at(0);
  CHECK(diagnostic["code"] == "parse-error");
  CHECK(diagnostic["range"] ==
        json::parse(R"({"start":{"line":3,"character":56},"end":{"line":3,"character":56}})"));
}

TEST_CASE("lsp server: a located note becomes relatedInformation in the document") {
  const std::string text =
      "HloModule m\n\nENTRY main {\n  p = f32[4]{0} parameter(0)\n"
      "  p = f32[4]{0} parameter(1)\n  ROOT n = f32[4]{0} negate(p)\n}\n";
  const SessionOutput session =
      RunSession(Initialize() + Frame(DidOpen(text)) + ShutdownAndExit(2));
  REQUIRE(session.messages.size() == 3);
  CHECK(session.messages[1] == Notify("textDocument/publishDiagnostics", json::parse(R"({
      "uri":"file:///lsp-test/small.hlo","version":1,"diagnostics":[{
        "range":{"start":{"line":4,"character":2},"end":{"line":4,"character":2}},
        "severity":1,"code":"parse-error","source":"hlolint",
        "message":"instruction already exists: p",
        "relatedInformation":[{"location":{"uri":"file:///lsp-test/small.hlo",
          "range":{"start":{"line":3,"character":2},"end":{"line":3,"character":2}}},
          "message":"instruction previously defined here"}]}]})")));
}

TEST_CASE("lsp server: a client that stopped reading ends the session") {
  std::istringstream in(Initialize() + Frame(DidOpen(kWrongShapeModule)) + ShutdownAndExit(2));
  std::ostringstream out;
  out.setstate(std::ios::badbit);  // as a write to a closed pipe leaves std::cout
  std::ostringstream log;
  hlolint::lsp::Server server(in, out, log, OneMessageAtATime());
  CHECK(server.Run() == 1);
  CHECK(log.str() == "hlolint lsp: the client stopped reading; exiting\n");
}
