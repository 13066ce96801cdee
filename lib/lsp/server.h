// The language server: reads LSP messages from a stream, answers them and
// publishes diagnostics on another, until `exit` or the end of the input.
// One thread; each message is handled before the next is read.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "hlolint/lint.h"

namespace hlolint::lsp {

class Server {
 public:
  // `log` takes what a person should read (stderr for `hlolint lsp`); the
  // protocol stream carries only protocol.
  Server(std::istream& in, std::ostream& out, std::ostream& log, api::LintOptions options);

  // Serves until `exit` or the end of `in`; returns the process's exit
  // status: 0 after shutdown then exit, 1 otherwise (LSP's exit rule).
  int Run();

 private:
  enum class State { kWaitingForInitialize, kRunning, kShutDown };

  struct Document {
    std::string text;
    std::optional<int64_t> version;
  };

  void HandleGuarded(const nlohmann::json& message);
  void Handle(const nlohmann::json& message);
  void HandleRequest(const nlohmann::json& id, const std::string& method,
                     const nlohmann::json& params);
  void HandleNotification(const std::string& method, const nlohmann::json& params);

  void DidOpen(const nlohmann::json& params);
  void DidChange(const nlohmann::json& params);
  void DidClose(const nlohmann::json& params);
  void LintAndPublish(const std::string& uri, const Document& document);

  void Send(const nlohmann::json& message);

  std::istream& in_;
  std::ostream& out_;
  std::ostream& log_;
  api::Linter linter_;
  State state_ = State::kWaitingForInitialize;
  std::optional<int> exit_status_;  // set by `exit`
  std::map<std::string, Document> documents_;  // by URI
};

// The capabilities `initialize` announces: only what the server implements.
nlohmann::json ServerCapabilities();

}  // namespace hlolint::lsp
