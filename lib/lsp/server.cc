#include "lsp/server.h"

#include <exception>
#include <utility>

#include "lsp/code_actions.h"
#include "lsp/framing.h"
#include "lsp/hover.h"
#include "lsp/jsonrpc.h"
#include "lsp/navigation.h"

namespace hlolint::lsp {
namespace {

// LSP's TextDocumentSyncKind.Incremental: a change sends the edited ranges.
constexpr int kSyncIncremental = 2;

// A JSON-RPC id is a number or a string; anything else makes the message invalid.
bool IsValidId(const nlohmann::json& id) { return id.is_number_integer() || id.is_string(); }

bool ClientShowsProgress(const nlohmann::json& params) {
  const nlohmann::json* capabilities = &params;
  for (const char* key : {"capabilities", "window", "workDoneProgress"}) {
    if (!capabilities->is_object() || !capabilities->contains(key)) return false;
    capabilities = &(*capabilities)[key];
  }
  return capabilities->is_boolean() && capabilities->get<bool>();
}

// The requests about one open document (params.textDocument.uri).
bool IsDocumentRequest(const std::string& method) {
  return method == "textDocument/hover" || method == "textDocument/definition" ||
         method == "textDocument/references" || method == "textDocument/documentHighlight" ||
         method == "textDocument/documentSymbol" || method == "textDocument/codeAction";
}

}  // namespace

nlohmann::json ServerCapabilities() {
  return {{"positionEncoding", "utf-16"},
          {"textDocumentSync",
           {{"openClose", true}, {"change", kSyncIncremental}, {"save", {{"includeText", false}}}}},
          {"hoverProvider", true},
          {"definitionProvider", true},
          {"referencesProvider", true},
          {"documentHighlightProvider", true},
          {"documentSymbolProvider", true},
          {"workspaceSymbolProvider", true},
          {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}}};
}

Server::Server(std::istream& in, std::ostream& out, std::ostream& log, ServerOptions options)
    : in_(in),
      out_(out),
      log_(log),
      inbox_mode_(options.inbox),
      command_line_settings_(std::move(options.settings)),
      settings_(command_line_settings_),
      linter_(settings_.lint) {
  for (const api::LintError& error : linter_.option_errors()) {
    log_ << "hlolint lsp: " << error.message << "\n";
  }
}

int Server::Run() {
  inbox_ = std::make_unique<Inbox>(in_, inbox_mode_);
  Inbox& inbox = *inbox_;
  while (!exit_status_) {
    // Reading on demand cannot tell whether more is coming: lint now.
    if (inbox_mode_ == Inbox::Mode::kOnDemand) LintDue(Clock::time_point::max());
    std::optional<ReadResult> read = inbox.Take(NextLintDue());
    if (!read) {
      LintDue(Clock::now());  // the client was quiet until a lint was due
      continue;
    }
    switch (read->status) {
      case ReadResult::Status::kMessage:
        HandleGuarded(std::move(read->message));
        break;
      case ReadResult::Status::kBadBody:
        // The framing held, so the next message can still be read.
        log_ << "hlolint lsp: " << read->error << "\n";
        Send(ErrorReply(nullptr, ErrorCode::kParseError, read->error));
        break;
      case ReadResult::Status::kBadFraming:
        // Where the next message starts is unknown: reply once and stop.
        log_ << "hlolint lsp: " << read->error << "\n";
        Send(ErrorReply(nullptr, ErrorCode::kParseError, read->error));
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
void Server::HandleGuarded(nlohmann::json message) {
  try {
    Handle(message);
  } catch (const std::exception& e) {
    log_ << "hlolint lsp: internal error: " << e.what() << "\n";
    const bool is_request = message.is_object() && message.contains("method") &&
                            message.contains("id") && IsValidId(message["id"]);
    if (is_request) Send(ErrorReply(message["id"], ErrorCode::kInternalError, e.what()));
  }
}

void Server::Handle(nlohmann::json& message) {
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
    if (id == message.end() || (!message.contains("result") && !message.contains("error"))) {
      Send(ErrorReply(nullptr, ErrorCode::kInvalidRequest, "a message without a method"));
      return;
    }
    HandleResponse(message);
    return;
  }
  if (!method->is_string() || (id != message.end() && !IsValidId(*id))) {
    Send(ErrorReply(id != message.end() && IsValidId(*id) ? *id : nlohmann::json(nullptr),
                    ErrorCode::kInvalidRequest, "invalid method or id"));
    return;
  }
  const auto params_it = message.find("params");
  nlohmann::json params =
      params_it == message.end() ? nlohmann::json::object() : std::move(*params_it);
  if (id == message.end()) {
    HandleNotification(method->get<std::string>(), params);
  } else if (CancelledWhileWaiting(*id)) {
    Send(ErrorReply(*id, ErrorCode::kRequestCancelled, "the request was cancelled"));
  } else {
    HandleRequest(*id, method->get<std::string>(), params);
  }
}

// A `$/cancelRequest` behind the request in the inbox: the client no
// longer wants the answer. (One that arrives after the answer is ignored.)
bool Server::CancelledWhileWaiting(const nlohmann::json& id) {
  bool cancelled = false;
  inbox_->ForEachWaiting([&](const ReadResult& read) {
    const nlohmann::json& m = read.message;
    if (read.status != ReadResult::Status::kMessage || !m.is_object()) return;
    const auto method = m.find("method");
    const auto params = m.find("params");
    if (method == m.end() || *method != "$/cancelRequest" || params == m.end() ||
        !params->is_object()) {
      return;
    }
    const auto cancelled_id = params->find("id");
    if (cancelled_id != params->end() && *cancelled_id == id) cancelled = true;
  });
  return cancelled;
}

void Server::HandleRequest(const nlohmann::json& id, const std::string& method,
                           const nlohmann::json& params) {
  if (state_ == State::kWaitingForInitialize && method != "initialize") {
    Send(ErrorReply(id, ErrorCode::kServerNotInitialized, "the server is not initialized"));
    return;
  }
  if (state_ == State::kShutDown) {
    Send(ErrorReply(id, ErrorCode::kInvalidRequest, "the server is shut down"));
    return;
  }
  if (method == "initialize") {
    Initialize(id, params);
    return;
  }
  if (method == "shutdown") {
    state_ = State::kShutDown;
    documents_.clear();
    lint_due_.clear();
    Send(ResultReply(id, nullptr));
    return;
  }
  if (!params.is_object()) {
    Send(ErrorReply(id, ErrorCode::kInvalidParams, "params must be an object"));
    return;
  }
  if (method == "workspace/symbol") {
    for (auto& [uri, document] : documents_) document->Parse();
    Send(ResultReply(id, WorkspaceSymbols(documents_, params)));
    return;
  }
  if (IsDocumentRequest(method)) {
    Document* document = FindDocument(params);
    if (document == nullptr) {
      Send(ErrorReply(id, ErrorCode::kInvalidParams, "the document is not open"));
      return;
    }
    Send(ResultReply(id, AnswerDocumentRequest(method, *document, params)));
    return;
  }
  Send(ErrorReply(id, ErrorCode::kMethodNotFound, "unknown method: " + method));
}

nlohmann::json Server::AnswerDocumentRequest(const std::string& method, Document& document,
                                             const nlohmann::json& params) {
  document.Parse();
  if (method == "textDocument/hover") return Hover(document, params);
  if (method == "textDocument/definition") return Definition(document, params);
  if (method == "textDocument/references") return References(document, params);
  if (method == "textDocument/documentHighlight") return DocumentHighlight(document, params);
  if (method == "textDocument/documentSymbol") return DocumentSymbols(document);
  // Code actions come from the findings: they must be of this text.
  if (document.needs_lint()) LintAndPublish(document);
  return CodeActions(document, params);
}

void Server::Initialize(const nlohmann::json& id, const nlohmann::json& params) {
  if (state_ != State::kWaitingForInitialize) {
    Send(ErrorReply(id, ErrorCode::kInvalidRequest, "initialize was already received"));
    return;
  }
  state_ = State::kRunning;
  if (params.is_object()) {
    client_shows_progress_ = ClientShowsProgress(params);
    const auto options = params.find("initializationOptions");
    if (options != params.end()) initialization_options_ = *options;
  }
  ApplySettings(nullptr);
  Send(ResultReply(id, {{"capabilities", ServerCapabilities()},
                        {"serverInfo", {{"name", "hlolint"}, {"version", HLOLINT_VERSION}}}}));
}

void Server::HandleNotification(const std::string& method, nlohmann::json& params) {
  if (method == "exit") {
    exit_status_ = state_ == State::kShutDown ? 0 : 1;
    return;
  }
  // Notifications before initialize are dropped (LSP 3.17, initialize).
  if (state_ != State::kRunning || !params.is_object()) return;
  if (method == "initialized") {
    if (client_shows_progress_) RequestProgressToken();
  } else if (method == "textDocument/didOpen") {
    DidOpen(params);
  } else if (method == "textDocument/didChange") {
    DidChange(params);
  } else if (method == "textDocument/didClose") {
    DidClose(params);
  } else if (method == "textDocument/didSave") {
    DidSave(params);
  } else if (method == "workspace/didChangeConfiguration") {
    DidChangeConfiguration(params);
  } else if (method == "workspace/didChangeWatchedFiles") {
    // A configuration file may have changed: read them again.
    ApplySettings(workspace_settings_);
  }
  // `$/cancelRequest` was seen while its request waited; `$/setTrace` and
  // every other notification need nothing.
}

void Server::HandleResponse(const nlohmann::json& message) {
  const nlohmann::json& id = message["id"];
  if (!id.is_string()) return;
  const auto request = token_requests_.find(id.get<std::string>());
  if (request == token_requests_.end()) return;
  if (message.contains("result")) progress_token_ = request->second;
  token_requests_.erase(request);
}

void Server::Send(const nlohmann::json& message) { WriteMessage(out_, message); }

// LSP's MessageType: 1 error, 2 warning, 3 info, 4 log.
void Server::ShowMessage(int type, const std::string& message) {
  Send(Notification("window/showMessage", {{"type", type}, {"message", "hlolint: " + message}}));
}

}  // namespace hlolint::lsp
