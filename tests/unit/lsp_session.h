// Drives the language server as an editor does, through streams with real
// Content-Length framing, and reads back every message it wrote.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lsp/framing.h"
#include "lsp/server.h"

namespace hlolint::lsp::testing {

inline std::string Frame(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

inline std::string Frame(const nlohmann::json& message) { return Frame(message.dump()); }

struct SessionOutput {
  int exit_status = -1;
  std::vector<nlohmann::json> messages;  // as the client receives them
  std::string log;
};

// Reads each message when the last is handled, so every change is linted
// before the next message: the output is the same on every run.
inline ServerOptions OneMessageAtATime() {
  ServerOptions options;
  options.inbox = Inbox::Mode::kOnDemand;
  return options;
}

inline SessionOutput RunSession(const std::string& input,
                                ServerOptions options = OneMessageAtATime()) {
  std::istringstream in(input);
  std::ostringstream out;
  std::ostringstream log;
  SessionOutput session;
  Server server(in, out, log, std::move(options));
  session.exit_status = server.Run();
  session.log = log.str();
  // The server's own output must frame correctly too.
  std::istringstream written(out.str());
  MessageReader reader(written);
  for (ReadResult read = reader.Read(); read.status != ReadResult::Status::kEndOfStream;
       read = reader.Read()) {
    if (read.status != ReadResult::Status::kMessage) {
      session.messages.push_back({{"unreadable", read.error}});
      break;
    }
    session.messages.push_back(std::move(read.message));
  }
  return session;
}

inline nlohmann::json Request(int id, const std::string& method,
                              nlohmann::json params = nlohmann::json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

inline nlohmann::json Notify(const std::string& method,
                             nlohmann::json params = nlohmann::json::object()) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

inline std::string Initialize() {
  return Frame(Request(1, "initialize", {{"capabilities", nlohmann::json::object()}})) +
         Frame(Notify("initialized"));
}

inline std::string ShutdownAndExit(int id) {
  return Frame(Request(id, "shutdown")) + Frame(Notify("exit"));
}

}  // namespace hlolint::lsp::testing
