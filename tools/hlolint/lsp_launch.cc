#include "lsp_launch.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "exit_status.h"

namespace hlolint {

// The language server is its own executable so that the linter's processes
// do not load what only the server uses (simdjson, a shared library in
// Debian) before main. It is found beside the running binary, not on PATH:
// the two are built and installed together.
int StartLanguageServer(int argc, char** argv) {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    std::cerr << "hlolint lsp: error: cannot find the hlolint executable: " << error.message()
              << "\n";
    return kExitError;
  }
  const std::string server = (self.parent_path() / kLanguageServerExecutable).string();
  std::vector<char*> args;
  args.push_back(const_cast<char*>(server.c_str()));
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(server.c_str(), args.data());
  std::cerr << "hlolint lsp: error: cannot start the language server " << server << ": "
            << std::strerror(errno) << "\n";
  return kExitError;
}

}  // namespace hlolint
