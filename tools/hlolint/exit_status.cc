#include "exit_status.h"

namespace hlolint {

ExitStatus StatusFor(const std::vector<FileResult>& files, const std::vector<Severity>& fail_on,
                     bool had_error, bool exit_zero) {
  if (had_error) return kExitError;  // --exit-zero does not hide a failed run
  if (exit_zero) return kExitClean;
  for (size_t i = 0; i < files.size(); ++i) {
    const Severity threshold = i < fail_on.size() ? fail_on[i] : Severity::kError;
    for (const Diagnostic& d : files[i].diagnostics) {
      if (d.severity >= threshold) return kExitFindings;
    }
  }
  return kExitClean;
}

}  // namespace hlolint
