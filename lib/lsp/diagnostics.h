// A lint result as the params of textDocument/publishDiagnostics.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "hlolint/lint.h"

namespace hlolint::lsp {

// `text` is what was linted, to convert its byte columns to UTF-16; notes
// located in the document link back to `uri`. With `rule_docs_url` (a URL
// with "{rule}" for the rule id), each diagnostic links to its rule's page.
nlohmann::json PublishDiagnosticsParams(const std::string& uri, std::optional<int64_t> version,
                                        std::string_view text, const api::LintResult& result,
                                        const std::string& rule_docs_url = {});

}  // namespace hlolint::lsp
