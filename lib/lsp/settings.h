// What the editor configures: `initializationOptions` and the settings of
// `workspace/didChangeConfiguration`, over the options `hlolint lsp` was
// started with. Keys are the command line's options in camelCase
// (docs/editors.md lists them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hlolint/lint.h"

namespace hlolint::lsp {

struct ServerSettings {
  api::LintOptions lint;
  // How long the client must be quiet after an edit before the document is
  // linted again; opening and saving lint at once.
  uint32_t debounce_ms = 250;
  // Documents at least this large report their lint with $/progress, when
  // the client supports it.
  uint64_t progress_min_bytes = uint64_t{8} << 20;
  // The URL of a rule's documentation with "{rule}" for its id; empty: the
  // diagnostics carry no codeDescription.
  std::string rule_docs_url;
};

// `settings` over `base`: either the object with the keys, or one holding
// it under "hlolint". What is wrong (an unknown key, a value of the wrong
// type) is appended to `errors` and leaves that setting as in `base`.
ServerSettings ApplySettings(const ServerSettings& base, const nlohmann::json& settings,
                             std::vector<std::string>* errors);

}  // namespace hlolint::lsp
