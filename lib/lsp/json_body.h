// A message body parsed as JSON. Bodies carry whole documents (a didOpen of
// a 1 GB dump), so the parse is simdjson's, several times faster than
// nlohmann's on a long string, then handed on as nlohmann::json, the type
// the server works in.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace hlolint::lsp {

// Nesting deeper than this is refused (no LSP message comes close).
inline constexpr size_t kMaxJsonDepth = 1024;

// The JSON in `body`, or nullopt and why not in `error`. `body` may be
// reallocated to pad it for the parser.
std::optional<nlohmann::json> ParseJsonBody(std::string& body, std::string* error);

}  // namespace hlolint::lsp
