// One hlolint run: configuration, inputs, parallel linting, baseline,
// report and exit status.
#pragma once

#include "cli_options.h"

namespace hlolint {

// Runs hlolint as the options say and returns the exit status.
int Run(const CliOptions& options);

}  // namespace hlolint
