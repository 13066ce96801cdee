// Code actions for the findings in a range: apply a finding's fix where it
// is a text edit; silence a finding with a `// hlolint: ignore[rule]`
// comment on the line above it (docs/configuration.md, "Inline
// suppressions").
#pragma once

#include <nlohmann/json.hpp>

#include "lsp/document.h"

namespace hlolint::lsp {

// The CodeAction list for `textDocument/codeAction`.
nlohmann::json CodeActions(const Document& document, const nlohmann::json& params);

}  // namespace hlolint::lsp
