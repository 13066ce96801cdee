// hlolint: the command line (docs/cli.md). Parsing options, running and the
// exit status live in small files next to this one.
#include <exception>
#include <iostream>
#include <string_view>

#include "memory/allocator.h"
#include "cli_options.h"
#include "exit_status.h"
#include "lsp_launch.h"
#include "runner.h"

int main(int argc, char** argv) {
  hlolint::ReturnBigFreedBlocks();
  try {
    // A subcommand, not a flag: `hlolint lsp` is what editors are told to start.
    // (A file named lsp is linted as ./lsp.)
    if (argc >= 2 && std::string_view(argv[1]) == "lsp") {
      return hlolint::StartLanguageServer(argc, argv);
    }
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
