// JSON-RPC 2.0 error codes and replies, as LSP uses them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace hlolint::lsp {

enum class ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestCancelled = -32800,
};

inline nlohmann::json ResultReply(const nlohmann::json& id, nlohmann::json result) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

// `id` is null when the request's id could not be read (JSON-RPC 2.0, 5).
inline nlohmann::json ErrorReply(const nlohmann::json& id, ErrorCode code,
                                 const std::string& message) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"error", {{"code", static_cast<int>(code)}, {"message", message}}}};
}

inline nlohmann::json Notification(const std::string& method, nlohmann::json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace hlolint::lsp
