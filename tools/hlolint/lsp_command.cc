#include "lsp_command.h"

#include <csignal>
#include <iostream>
#include <string_view>

#include "hlolint/lint.h"
#include "lsp/server.h"

namespace hlolint {

int RunLanguageServer(int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << "Usage: hlolint lsp\n"
                   "Runs the language server (LSP 3.17) on stdin and stdout; logs to stderr.\n";
      return 0;
    }
    std::cerr << "hlolint lsp: unknown argument '" << arg << "'\n";
    return 2;
  }
  // The protocol's bytes are counted exactly; nothing may be buffered
  // behind C stdio's back.
  std::ios::sync_with_stdio(false);
  // An editor that goes away closes the pipe: the server sees a failed write
  // and exits instead of being killed by SIGPIPE mid-message.
  std::signal(SIGPIPE, SIG_IGN);
  api::LintOptions options;
  options.config = api::ConfigSource::kDiscover;  // the .hlolint.json above each file, as the CLI
  lsp::Server server(std::cin, std::cout, std::cerr, options);
  return server.Run();
}

}  // namespace hlolint
