// From the engine's types to the API's plain structs (include/hlolint/).
#pragma once

#include "diag/diagnostic.h"
#include "engine/config.h"
#include "engine/lint.h"
#include "hlolint/lint.h"
#include "hlolint/location.h"

namespace hlolint::api_internal {

api::Severity ToApi(Severity severity);
Severity FromApi(api::Severity severity);

api::Diagnostic ToApi(const Diagnostic& diagnostic, const std::string& path);
// The file's findings and its I/O error, if any.
api::LintResult ToApi(const FileResult& result);
api::LintError ToApi(const ConfigError& error);

}  // namespace hlolint::api_internal
