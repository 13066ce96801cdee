// The language server's features in whole sessions: progress on long
// lints, cancelled requests, the editor's settings, configuration files
// with errors, saving. Every message out checked exactly.
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "hlolint/rules.h"
#include "lsp_session.h"

using nlohmann::json;
using namespace hlolint::lsp::testing;

namespace {

constexpr const char* kUri = "file:///lsp-features/m.hlo";

// sum's written shape is not what add makes of its operands (verify-shape).
constexpr const char* kWrongShape = R"(HloModule m

ENTRY main {
  p = f32[4]{0} parameter(0)
  sum = f32[5]{0} add(p, p)
  ROOT out = f32[4]{0} negate(p)
}
)";

json Open(const std::string& uri = kUri, const std::string& text = kWrongShape) {
  return Notify("textDocument/didOpen",
                {{"textDocument", {{"uri", uri}, {"languageId", "hlo"}, {"version", 1}, {"text", text}}}});
}

json VerifyShape(json extra = json::object()) {
  json diagnostic = {
      {"range", {{"start", {{"line", 4}, {"character", 2}}}, {"end", {{"line", 4}, {"character", 5}}}}},
      {"severity", 1},
      {"code", "verify-shape"},
      {"source", "hlolint"},
      {"message",
       "[ShapeVerifier::HandleElementwiseBinary] Expected instruction to have shape equal to "
       "f32[4], actual shape is f32[5]"}};
  diagnostic.update(extra);
  return diagnostic;
}

json Published(json diagnostics, const std::string& uri = kUri, std::optional<int> version = 1) {
  json params = {{"uri", uri}, {"diagnostics", std::move(diagnostics)}};
  if (version) params["version"] = *version;
  return Notify("textDocument/publishDiagnostics", std::move(params));
}

json Reply(json id, json result) {
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"result", std::move(result)}};
}

json ServerRequest(const std::string& id, const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json Progress(const std::string& token, json value) {
  return Notify("$/progress", {{"token", token}, {"value", std::move(value)}});
}

json ErrorReply(json id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"error", {{"code", code}, {"message", message}}}};
}

json ShowError(const std::string& message) {
  return Notify("window/showMessage", {{"type", 1}, {"message", "hlolint: " + message}});
}

json Settings(json hlolint) {
  return Notify("workspace/didChangeConfiguration", {{"settings", {{"hlolint", std::move(hlolint)}}}});
}

std::string InitializeWith(json params) {
  return Frame(Request(1, "initialize", std::move(params))) + Frame(Notify("initialized"));
}

}  // namespace

TEST_CASE("lsp features: a long lint reports progress on a token the client created first") {
  hlolint::lsp::ServerOptions options = OneMessageAtATime();
  options.settings.progress_min_bytes = 0;  // every lint is long
  const std::string input =
      InitializeWith({{"capabilities", {{"window", {{"workDoneProgress", true}}}}}}) +
      Frame(Reply("hlolint/1", nullptr)) + Frame(Open()) + ShutdownAndExit(2);
  const SessionOutput session = RunSession(input, options);
  REQUIRE(session.messages.size() == 7);
  CHECK(session.messages[1] ==
        ServerRequest("hlolint/1", "window/workDoneProgress/create", {{"token", "hlolint/lint/1"}}));
  CHECK(session.messages[2] == Progress("hlolint/lint/1", {{"kind", "begin"},
                                                           {"title", "hlolint"},
                                                           {"message", "linting m.hlo"}}));
  CHECK(session.messages[3] ==
        Progress("hlolint/lint/1", {{"kind", "end"}, {"message", "1 findings in m.hlo"}}));
  CHECK(session.messages[4] == Published(json::array({VerifyShape()})));
  // The next token is asked for at once; the client has not answered it.
  CHECK(session.messages[5] ==
        ServerRequest("hlolint/2", "window/workDoneProgress/create", {{"token", "hlolint/lint/2"}}));
  CHECK(session.messages[6] == Reply(2, nullptr));
}

TEST_CASE("lsp features: no progress before the client created the token, or without support") {
  hlolint::lsp::ServerOptions options = OneMessageAtATime();
  options.settings.progress_min_bytes = 0;
  const SessionOutput refused = RunSession(
      InitializeWith({{"capabilities", {{"window", {{"workDoneProgress", true}}}}}}) +
          Frame(json{{"jsonrpc", "2.0"}, {"id", "hlolint/1"}, {"error", {{"code", -1}, {"message", "no"}}}}) +
          Frame(Open()) + ShutdownAndExit(2),
      options);
  REQUIRE(refused.messages.size() == 4);
  CHECK(refused.messages[2] == Published(json::array({VerifyShape()})));
  const SessionOutput unsupported =
      RunSession(InitializeWith({{"capabilities", json::object()}}) + Frame(Open()) + ShutdownAndExit(2),
                 options);
  REQUIRE(unsupported.messages.size() == 3);
  CHECK(unsupported.messages[1] == Published(json::array({VerifyShape()})));
}

TEST_CASE("lsp features: a request cancelled while it waited is answered RequestCancelled") {
  hlolint::lsp::ServerOptions options;
  options.inbox = hlolint::lsp::Inbox::Mode::kReadAllBeforeFirst;
  const json hover = {{"textDocument", {{"uri", kUri}}}, {"position", {{"line", 4}, {"character", 3}}}};
  const SessionOutput session = RunSession(
      InitializeWith({{"capabilities", json::object()}}) + Frame(Open()) +
          Frame(Request(2, "textDocument/hover", hover)) +
          Frame(Notify("$/cancelRequest", {{"id", 2}})) +
          Frame(Request(3, "textDocument/hover", hover)) +
          Frame(Notify("$/cancelRequest", {{"id", 2}})) +  // again, after its answer: ignored
          Frame(Notify("$/cancelRequest", {{"id", 99}})) +  // nothing to cancel
          ShutdownAndExit(4),
      options);
  // Read ahead, the open document was still waiting to be linted when the
  // client shut the server down: no diagnostics.
  REQUIRE(session.messages.size() == 4);
  CHECK(session.messages[1] == ErrorReply(2, -32800, "the request was cancelled"));
  CHECK(session.messages[2]["id"] == 3);
  CHECK(session.messages[2]["result"]["contents"]["value"] ==
        "`%sum` = `f32[5]{0}` **add**\n\noperands:\n- `%p` `f32[4]{0}`\n- `%p` `f32[4]{0}`\n\n0 users");
  CHECK(session.messages[3] == Reply(4, nullptr));
}

TEST_CASE("lsp features: the editor's settings relint every document, and wrong ones are shown") {
  const SessionOutput session = RunSession(
      InitializeWith({{"capabilities", json::object()},
                      {"initializationOptions", {{"ruleDocsUrl", "https://docs.example/{rule}.md"}}}}) +
          Frame(Open()) + Frame(Settings({{"ignore", {"verify-shape"}}})) +
          Frame(Settings({{"select", {"no-such-rule"}}})) + ShutdownAndExit(2));
  REQUIRE(session.messages.size() == 6);
  CHECK(session.messages[1] ==
        Published(json::array({VerifyShape({{"codeDescription", {{"href", "https://docs.example/verify-shape.md"}}}})})));
  CHECK(session.messages[2] == Published(json::array()));
  CHECK(session.messages[3] == ShowError("select: unknown rule or category 'no-such-rule'"));
  // The settings that worked stay: still ignored.
  CHECK(session.messages[4] == Published(json::array()));
  CHECK(session.messages[5] == Reply(2, nullptr));
}

TEST_CASE("lsp features: reading the configuration files again keeps the editor's settings") {
  const json as_warning = Settings({{"severityOverrides", {{"verify-shape", "warning"}}}});
  const json change = {{"uri", "file:///lsp-features/.hlolint.json"}, {"type", 2}};
  const json watched_file_changed =
      Notify("workspace/didChangeWatchedFiles", {{"changes", json::array({change})}});
  const json config_saved =
      Notify("textDocument/didSave", {{"textDocument", {{"uri", "file:///lsp-features/.hlolint.json"}}}});
  const SessionOutput session = RunSession(
      InitializeWith({{"capabilities", json::object()}}) + Frame(Open()) + Frame(as_warning) +
      Frame(watched_file_changed) + Frame(config_saved) + ShutdownAndExit(2));
  REQUIRE(session.messages.size() == 6);
  CHECK(session.messages[1] == Published(json::array({VerifyShape()})));
  for (size_t i = 2; i <= 4; ++i) CHECK(session.messages[i] == Published(json::array({VerifyShape({{"severity", 2}})})));
  CHECK(session.messages[5] == Reply(2, nullptr));
}

TEST_CASE("lsp features: saving lints again, closing clears the findings") {
  const json saved = Notify("textDocument/didSave", {{"textDocument", {{"uri", kUri}}}});
  const json closed = Notify("textDocument/didClose", {{"textDocument", {{"uri", kUri}}}});
  const SessionOutput session = RunSession(InitializeWith({{"capabilities", json::object()}}) +
                                           Frame(Open()) + Frame(saved) + Frame(closed) +
                                           Frame(saved) + ShutdownAndExit(2));
  REQUIRE(session.messages.size() == 5);
  CHECK(session.messages[1] == Published(json::array({VerifyShape()})));
  CHECK(session.messages[2] == Published(json::array({VerifyShape()})));
  CHECK(session.messages[3] == Published(json::array(), kUri, std::nullopt));
  CHECK(session.messages[4] == Reply(2, nullptr));
}

TEST_CASE("lsp features: the errors in a configuration file are shown on that file") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "hlolint-lsp-features-config";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / ".hlolint.json") << "{\"select\": [\"no-such-rule\"],\n \"fail-on\": 3}\n";
  hlolint::lsp::ServerOptions options = OneMessageAtATime();
  options.settings.lint.config = hlolint::api::ConfigSource::kDiscover;
  const std::string uri = "file://" + (dir / "m.hlo").string();
  const std::string config_uri = "file://" + (dir / ".hlolint.json").string();
  const SessionOutput session = RunSession(
      InitializeWith({{"capabilities", json::object()}}) + Frame(Open(uri)) + ShutdownAndExit(2),
      options);
  std::filesystem::remove_all(dir);
  REQUIRE(session.messages.size() == 4);
  CHECK(session.messages[1] == Published(json::array(), uri));
  CHECK(session.messages[2]["params"]["uri"] == config_uri);
  const json& diagnostics = session.messages[2]["params"]["diagnostics"];
  REQUIRE(diagnostics.size() == 2);  // every error, in file order
  CHECK(diagnostics[0]["source"] == "hlolint");
  CHECK(diagnostics[0]["message"] == "unknown rule or category 'no-such-rule'");
  CHECK(diagnostics[0]["range"]["start"] == json{{"line", 0}, {"character", 12}});
  CHECK(diagnostics[1]["message"] == "expected \"error\", \"warning\" or \"note\"");
  CHECK(diagnostics[1]["range"]["start"] == json{{"line", 1}, {"character", 12}});
  CHECK(session.log.find("no-such-rule") != std::string::npos);
}

TEST_CASE("lsp features: a fix that is a text edit is a code action, before the suppression") {
  const std::string text =
      "HloModule m\n\nENTRY main {\n"
      "  p = f32[4]{0} parameter(0)  // hlolint: ignore[verify-shap] typo\n"
      "  ROOT s = f32[5]{0} add(p, p)\n}\n";
  const json range = {{"start", {{"line", 3}, {"character", 0}}}, {"end", {{"line", 4}, {"character", 0}}}};
  const SessionOutput session = RunSession(
      InitializeWith({{"capabilities", json::object()}}) + Frame(Open(kUri, text)) +
      Frame(Request(2, "textDocument/codeAction",
                    {{"textDocument", {{"uri", kUri}}}, {"range", range}, {"context", {{"diagnostics", json::array()}}}})) +
      ShutdownAndExit(3));
  REQUIRE(session.messages.size() == 4);
  const json fix_edit = {{"range", {{"start", {{"line", 3}, {"character", 49}}}, {"end", {{"line", 3}, {"character", 60}}}}},
                         {"newText", "verify-shape"}};
  const json suppress_edit = {{"range", {{"start", {{"line", 4}, {"character", 0}}}, {"end", {{"line", 4}, {"character", 0}}}}},
                              {"newText", "  // hlolint: ignore[verify-shape] TODO: why this finding is expected here\n"}};
  CHECK(session.messages[2] ==
        Reply(2, json::array({{{"title", "Fix: did you mean 'verify-shape'?"},
                               {"kind", "quickfix"},
                               {"isPreferred", true},
                               {"edit", {{"changes", {{kUri, json::array({fix_edit})}}}}}},
                              {{"title", "Suppress verify-shape on this line"},
                               {"kind", "quickfix"},
                               {"edit", {{"changes", {{kUri, json::array({suppress_edit})}}}}}}})));
}

TEST_CASE("lsp features: hover on a finding shows its notes and fix, for clients that hide related information") {
  const std::string text =
      "HloModule m\n\nENTRY main {\n  p = f32[4]{0} parameter(0)\n"
      "  p = f32[4]{0} parameter(1)\n  ROOT n = f32[4]{0} negate(p)\n}\n";
  const json hover = {{"textDocument", {{"uri", kUri}}}, {"position", {{"line", 4}, {"character", 2}}}};
  const SessionOutput session =
      RunSession(InitializeWith({{"capabilities", json::object()}}) + Frame(Open(kUri, text)) +
                 Frame(Request(2, "textDocument/hover", hover)) + ShutdownAndExit(3));
  REQUIRE(session.messages.size() == 4);
  const std::string value = session.messages[2]["result"]["contents"]["value"];
  // The text does not parse: no symbol to describe, only the finding.
  CHECK(value == "**parse-error** (error): " + hlolint::api::FindRule("parse-error")->summary +
                     "\n\nnote (line 4): instruction previously defined here");
}
