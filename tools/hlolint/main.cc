// hlolint: the command line (docs/cli.md). Parsing options, running and the
// exit status live in small files next to this one.
#include <exception>
#include <iostream>

#include "memory/allocator.h"
#include "cli_options.h"
#include "exit_status.h"
#include "runner.h"

int main(int argc, char** argv) {
  hlolint::ReturnBigFreedBlocks();
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
