// hlolint-lsp: the language server, started by `hlolint lsp` (lsp_launch.h)
// with the options that followed "lsp".
#include <exception>
#include <iostream>

#include "exit_status.h"
#include "lsp_command.h"
#include "memory/allocator.h"

int main(int argc, char** argv) {
  hlolint::ReturnBigFreedBlocks();
  try {
    return hlolint::RunLanguageServer(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "hlolint lsp: internal error: " << e.what() << "\n";
    return hlolint::kExitError;
  } catch (...) {
    std::cerr << "hlolint lsp: internal error\n";
    return hlolint::kExitError;
  }
}
