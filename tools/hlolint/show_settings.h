// --show-settings: the settings one input would be linted with.
#pragma once

#include "api/settings.h"
#include "cli_options.h"

namespace hlolint {

// Prints which .hlolint.json applies to the first path (the working
// directory without one) and the settings that result once the command
// line's are applied over it; returns the exit status.
int ShowSettings(const CliOptions& options, const api_internal::RuleSettings& cli);

}  // namespace hlolint
