// The exit status contract (docs/cli.md): never a count.
#pragma once

#include <vector>

#include "diag/diagnostic.h"
#include "engine/lint.h"

namespace hlolint {

enum ExitStatus : int {
  kExitClean = 0,     // nothing at or above the --fail-on level
  kExitFindings = 1,  // at least one finding at or above it
  kExitError = 2,     // usage, configuration, I/O or internal error
};

// `fail_on` holds each file's threshold (same order as `files`).
ExitStatus StatusFor(const std::vector<FileResult>& files, const std::vector<Severity>& fail_on,
                     bool had_error, bool exit_zero);

}  // namespace hlolint
