// The language server: reads LSP messages from a stream, answers them and
// publishes diagnostics on another, until `exit` or the end of the input.
//
// One thread handles messages in order; with read-ahead (Inbox) another
// reads them meanwhile, so that a burst of edits is linted once, when the
// client goes quiet, and a request cancelled while it waited is dropped.
// Requests about a document parse its latest text first; its findings
// follow when it is linted.
#pragma once

#include <chrono>
#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "hlolint/lint.h"
#include "lsp/document.h"
#include "lsp/inbox.h"
#include "lsp/settings.h"

namespace hlolint::lsp {

struct ServerOptions {
  ServerSettings settings;  // the command line's; the editor's settings apply on top
  Inbox::Mode inbox = Inbox::Mode::kReadAhead;
};

class Server {
 public:
  // `log` takes what a person should read (stderr for `hlolint lsp`); the
  // protocol stream carries only protocol.
  Server(std::istream& in, std::ostream& out, std::ostream& log, ServerOptions options);

  // Serves until `exit` or the end of `in`; returns the process's exit
  // status: 0 after shutdown then exit, 1 otherwise (LSP's exit rule).
  int Run();

 private:
  using Clock = Inbox::Clock;
  enum class State { kWaitingForInitialize, kRunning, kShutDown };

  // Message dispatch (server.cc).
  // Messages are taken by value: a document's text moves out of them, not copied.
  void HandleGuarded(nlohmann::json message);
  void Handle(nlohmann::json& message);
  void HandleRequest(const nlohmann::json& id, const std::string& method,
                     const nlohmann::json& params);
  void HandleNotification(const std::string& method, nlohmann::json& params);
  void HandleResponse(const nlohmann::json& message);
  void Initialize(const nlohmann::json& id, const nlohmann::json& params);
  // The answer to a request about one document, parsed first.
  nlohmann::json AnswerDocumentRequest(const std::string& method, Document& document,
                                       const nlohmann::json& params);
  bool CancelledWhileWaiting(const nlohmann::json& id);

  // Documents and linting (server_documents.cc).
  void DidOpen(nlohmann::json& params);
  void DidChange(nlohmann::json& params);
  void DidClose(const nlohmann::json& params);
  void DidSave(const nlohmann::json& params);
  void DidChangeConfiguration(const nlohmann::json& params);
  Document* FindDocument(const nlohmann::json& params);
  void ScheduleLint(const std::string& uri, Clock::duration delay);
  void ScheduleLintOfAll();
  std::optional<Clock::time_point> NextLintDue() const;
  void LintDue(Clock::time_point now);
  void LintAndPublish(Document& document);
  void PublishConfigurationErrors(Document& document);
  // Settings from the command line, initializationOptions and the editor's
  // workspace settings, in that order; a linter for them.
  void ApplySettings(const nlohmann::json& workspace_settings);

  // Progress reports ($/progress) on long lints (server_documents.cc).
  void RequestProgressToken();
  std::optional<std::string> TakeProgressToken();

  void Send(const nlohmann::json& message);
  void ShowMessage(int type, const std::string& message);

  std::istream& in_;
  std::ostream& out_;
  std::ostream& log_;
  Inbox::Mode inbox_mode_;
  // Outlives Run: after `exit` the client may keep the input open, and the
  // reading thread waits on it (`hlolint lsp` exits without waiting).
  std::unique_ptr<Inbox> inbox_;
  ServerSettings command_line_settings_;
  nlohmann::json initialization_options_;
  // The editor's workspace settings in effect: reading the configuration
  // files again must not drop them.
  nlohmann::json workspace_settings_;
  ServerSettings settings_;
  api::Linter linter_;
  State state_ = State::kWaitingForInitialize;
  std::optional<int> exit_status_;  // set by `exit`
  std::map<std::string, std::unique_ptr<Document>> documents_;  // by URI
  std::map<std::string, Clock::time_point> lint_due_;          // by URI
  // Configuration files whose errors a document's lint published, by document URI.
  std::map<std::string, std::set<std::string>> configuration_errors_;
  bool client_shows_progress_ = false;
  uint64_t next_request_id_ = 1;
  std::map<std::string, std::string> token_requests_;  // our request id -> the token it creates
  std::optional<std::string> progress_token_;          // created by the client, not used yet
};

// The capabilities `initialize` announces: only what the server implements.
nlohmann::json ServerCapabilities();

}  // namespace hlolint::lsp
