// `hlolint lsp`: starts the language server, a separate executable
// (hlolint-lsp) installed beside hlolint.
#pragma once

namespace hlolint {

// The server's file name, in the directory of the running hlolint.
inline constexpr const char* kLanguageServerExecutable = "hlolint-lsp";

// argv[1] is "lsp". Replaces this process with hlolint-lsp and the options
// after "lsp"; returns the exit status only if it cannot be started.
int StartLanguageServer(int argc, char** argv);

}  // namespace hlolint
