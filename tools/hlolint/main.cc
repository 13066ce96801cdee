// hlolint: the command line (docs/cli.md). Parsing options, running and the
// exit status live in small files next to this one.
#include <malloc.h>

#include <exception>
#include <iostream>

#include "cli_options.h"
#include "exit_status.h"
#include "runner.h"

int main(int argc, char** argv) {
  // Large blocks (IR arrays, analyses, scratch) come from mmap and go back
  // to the system when freed; glibc's default raises this threshold after
  // the first big free, and freed scratch would then stay resident.
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  try {
    hlolint::CliOptions options;
    if (std::optional<int> status = hlolint::ParseCommandLine(argc, argv, &options)) {
      return *status;
    }
    return hlolint::Run(options);
  } catch (const std::exception& e) {
    std::cerr << "hlolint: internal error: " << e.what() << "\n";
    return hlolint::kExitError;
  } catch (...) {
    std::cerr << "hlolint: internal error\n";
    return hlolint::kExitError;
  }
}
