// Hover: what the name under the cursor is (an instruction's shape,
// operands, users, sharding and origin in the program; a computation's
// size and callers), and the findings at the cursor with their rules.
#pragma once

#include <nlohmann/json.hpp>

#include "lsp/document.h"

namespace hlolint::lsp {

// The Hover result (Markdown), or null where there is nothing to say.
nlohmann::json Hover(const Document& document, const nlohmann::json& params);

}  // namespace hlolint::lsp
