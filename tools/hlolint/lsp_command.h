// The language server on stdin and stdout (hlolint-lsp, which `hlolint lsp`
// starts).
#pragma once

namespace hlolint {

// argv[0] is the program, the rest its options; returns the exit status.
int RunLanguageServer(int argc, char** argv);

}  // namespace hlolint
