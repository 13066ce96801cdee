// `hlolint lsp`: the language server on stdin and stdout.
#pragma once

namespace hlolint {

// argv[1] is "lsp"; returns the exit status.
int RunLanguageServer(int argc, char** argv);

}  // namespace hlolint
