#include "lsp/server.h"

#include <exception>
#include <utility>

#include "lsp/diagnostics.h"
#include "lsp/framing.h"
#include "lsp/jsonrpc.h"
#include "lsp/positions.h"

namespace hlolint::lsp {
namespace {

// LSP's TextDocumentSyncKind.Full: every change sends the whole text.
constexpr int kSyncFull = 1;

// A JSON-RPC id is a number or a string; anything else makes the message invalid.
bool IsValidId(const nlohmann::json& id) { return id.is_number_integer() || id.is_string(); }

// params.textDocument.uri, or empty when missing.
std::string DocumentUri(const nlohmann::json& params) {
  const auto document = params.find("textDocument");
  if (document == params.end() || !document->is_object()) return {};
  const auto uri = document->find("uri");
  return uri != document->end() && uri->is_string() ? uri->get<std::string>() : std::string();
}

std::optional<int64_t> DocumentVersion(const nlohmann::json& params) {
  const nlohmann::json& document = params["textDocument"];
  const auto version = document.find("version");
  if (version == document.end() || !version->is_number_integer()) return std::nullopt;
  return version->get<int64_t>();
}

}  // namespace

nlohmann::json ServerCapabilities() {
  return {{"textDocumentSync", {{"openClose", true}, {"change", kSyncFull}}}};
}

Server::Server(std::istream& in, std::ostream& out, std::ostream& log, api::LintOptions options)
    : in_(in), out_(out), log_(log), linter_(std::move(options)) {
  for (const api::LintError& error : linter_.option_errors()) {
    log_ << "hlolint lsp: " << error.message << "\n";
  }
}

int Server::Run() {
  MessageReader reader(in_);
  while (!exit_status_) {
    ReadResult read = reader.Read();
    switch (read.status) {
      case ReadResult::Status::kMessage:
        HandleGuarded(read.message);
        break;
      case ReadResult::Status::kBadBody:
        // The framing held, so the next message can still be read.
        log_ << "hlolint lsp: " << read.error << "\n";
        Send(ErrorReply(nullptr, ErrorCode::kParseError, read.error));
        break;
      case ReadResult::Status::kBadFraming:
        // Where the next message starts is unknown: reply once and stop.
        log_ << "hlolint lsp: " << read.error << "\n";
        Send(ErrorReply(nullptr, ErrorCode::kParseError, read.error));
        return 1;
      case ReadResult::Status::kEndOfStream:
        return 1;  // the client went away without `exit`
    }
    if (!out_) {
      log_ << "hlolint lsp: the client stopped reading; exiting\n";
      return 1;
    }
  }
  return *exit_status_;
}

// A bug in a handler must cost one request, not the session the editor
// holds open.
void Server::HandleGuarded(const nlohmann::json& message) {
  try {
    Handle(message);
  } catch (const std::exception& e) {
    log_ << "hlolint lsp: internal error: " << e.what() << "\n";
    const bool is_request = message.is_object() && message.contains("method") &&
                            message.contains("id") && IsValidId(message["id"]);
    if (is_request) Send(ErrorReply(message["id"], ErrorCode::kInternalError, e.what()));
  }
}

void Server::Handle(const nlohmann::json& message) {
  const bool is_jsonrpc = message.is_object() && message.contains("jsonrpc") &&
                          message["jsonrpc"] == "2.0";
  if (!is_jsonrpc) {
    const nlohmann::json id = message.is_object() && message.contains("id") &&
                                      IsValidId(message["id"])
                                  ? message["id"]
                                  : nlohmann::json(nullptr);
    Send(ErrorReply(id, ErrorCode::kInvalidRequest, "not a JSON-RPC 2.0 message"));
    return;
  }
  const auto method = message.find("method");
  const auto id = message.find("id");
  if (method == message.end()) {
    // A response to a request of ours; the server sends none yet.
    if (id == message.end() || (!message.contains("result") && !message.contains("error"))) {
      Send(ErrorReply(nullptr, ErrorCode::kInvalidRequest, "a message without a method"));
    }
    return;
  }
  if (!method->is_string() || (id != message.end() && !IsValidId(*id))) {
    Send(ErrorReply(id != message.end() && IsValidId(*id) ? *id : nlohmann::json(nullptr),
                    ErrorCode::kInvalidRequest, "invalid method or id"));
    return;
  }
  const auto params_it = message.find("params");
  const nlohmann::json params = params_it == message.end() ? nlohmann::json::object() : *params_it;
  if (id != message.end()) {
    HandleRequest(*id, method->get<std::string>(), params);
  } else {
    HandleNotification(method->get<std::string>(), params);
  }
}

void Server::HandleRequest(const nlohmann::json& id, const std::string& method,
                           [[maybe_unused]] const nlohmann::json& params) {
  if (state_ == State::kWaitingForInitialize && method != "initialize") {
    Send(ErrorReply(id, ErrorCode::kServerNotInitialized, "the server is not initialized"));
    return;
  }
  if (state_ == State::kShutDown) {
    Send(ErrorReply(id, ErrorCode::kInvalidRequest, "the server is shut down"));
    return;
  }
  if (method == "initialize") {
    if (state_ != State::kWaitingForInitialize) {
      Send(ErrorReply(id, ErrorCode::kInvalidRequest, "initialize was already received"));
      return;
    }
    state_ = State::kRunning;
    Send(ResultReply(id, {{"capabilities", ServerCapabilities()},
                          {"serverInfo", {{"name", "hlolint"}}}}));
  } else if (method == "shutdown") {
    state_ = State::kShutDown;
    documents_.clear();
    Send(ResultReply(id, nullptr));
  } else {
    Send(ErrorReply(id, ErrorCode::kMethodNotFound, "unknown method: " + method));
  }
}

void Server::HandleNotification(const std::string& method, const nlohmann::json& params) {
  if (method == "exit") {
    exit_status_ = state_ == State::kShutDown ? 0 : 1;
    return;
  }
  // Notifications before initialize are dropped (LSP 3.17, initialize).
  if (state_ != State::kRunning || !params.is_object()) return;
  if (method == "textDocument/didOpen") {
    DidOpen(params);
  } else if (method == "textDocument/didChange") {
    DidChange(params);
  } else if (method == "textDocument/didClose") {
    DidClose(params);
  }
  // `initialized`, `$/...` and every other notification need nothing.
}

void Server::DidOpen(const nlohmann::json& params) {
  const std::string uri = DocumentUri(params);
  // DocumentUri found textDocument to be an object when the uri is not empty.
  const nlohmann::json* text = nullptr;
  if (!uri.empty()) {
    const nlohmann::json& document = params["textDocument"];
    const auto found = document.find("text");
    if (found != document.end()) text = &*found;
  }
  if (text == nullptr || !text->is_string()) {
    log_ << "hlolint lsp: didOpen without a textDocument uri and text\n";
    return;
  }
  Document& document = documents_[uri];
  document.text = text->get<std::string>();
  document.version = DocumentVersion(params);
  LintAndPublish(uri, document);
}

void Server::DidChange(const nlohmann::json& params) {
  const std::string uri = DocumentUri(params);
  const auto document = documents_.find(uri);
  const auto changes = params.find("contentChanges");
  if (document == documents_.end() || changes == params.end() || !changes->is_array()) {
    log_ << "hlolint lsp: didChange for a document that is not open: " << uri << "\n";
    return;
  }
  // Full sync: the last change holds the whole text.
  for (const nlohmann::json& change : *changes) {
    if (!change.is_object() || change.contains("range") || !change.contains("text") ||
        !change["text"].is_string()) {
      log_ << "hlolint lsp: didChange with a change that is not the full text: " << uri << "\n";
      return;
    }
  }
  if (changes->empty()) return;
  document->second.text = changes->back()["text"].get<std::string>();
  document->second.version = DocumentVersion(params);
  LintAndPublish(uri, document->second);
}

void Server::DidClose(const nlohmann::json& params) {
  const std::string uri = DocumentUri(params);
  if (documents_.erase(uri) == 0) return;
  // Clear the editor's list: the findings of a closed file would go stale.
  Send(Notification("textDocument/publishDiagnostics",
                    {{"uri", uri}, {"diagnostics", nlohmann::json::array()}}));
}

void Server::LintAndPublish(const std::string& uri, const Document& document) {
  const api::LintResult result = linter_.LintText(document.text, PathFromUri(uri));
  for (const api::LintError& error : result.errors) {
    log_ << "hlolint lsp: " << uri << ": " << error.message << "\n";
  }
  Send(Notification("textDocument/publishDiagnostics",
                    PublishDiagnosticsParams(uri, document.version, document.text, result)));
}

void Server::Send(const nlohmann::json& message) { WriteMessage(out_, message); }

}  // namespace hlolint::lsp
