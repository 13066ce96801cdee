// The answers about names in a parsed document: definition, references,
// highlights and symbols. Each takes the request's params and returns its
// result; a position that names nothing gets null or an empty list.
#pragma once

#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "lsp/document.h"

namespace hlolint::lsp {

// A document with more instructions than this gets an outline of its
// computations only, and only of this many: a million-entry outline helps
// nobody and costs the editor seconds and hundreds of megabytes.
inline constexpr size_t kMaxOutlineSymbols = 100'000;

// The request's `position` in the document's last parse; nullopt when it is
// missing or malformed. Lines past the end are kept (they name nothing).
std::optional<api::Position> RequestPosition(const Document& document,
                                             const nlohmann::json& params);

nlohmann::json Definition(const Document& document, const nlohmann::json& params);
nlohmann::json References(const Document& document, const nlohmann::json& params);
nlohmann::json DocumentHighlight(const Document& document, const nlohmann::json& params);
nlohmann::json DocumentSymbols(const Document& document);
// The computations of every open document whose name holds `query`
// (ignoring case); all of them for an empty query.
nlohmann::json WorkspaceSymbols(const std::map<std::string, std::unique_ptr<Document>>& documents,
                                const nlohmann::json& params);

}  // namespace hlolint::lsp
