// `hlolint --memory-report`: each module's memory estimate
// (docs/memory-report.md) instead of a lint.
#pragma once

#include "api/settings.h"
#include "cli_options.h"

namespace hlolint {

// Exit status: 0 when every module was estimated, 1 when a module did not
// parse (its error is in the report), 2 on usage and I/O errors.
int RunMemoryReport(const CliOptions& options, const api_internal::RuleSettings& settings);

}  // namespace hlolint
