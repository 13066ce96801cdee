// Turning command-line paths into the list of files to lint.
#pragma once

#include <string>
#include <vector>

namespace hlolint {

struct Input {
  std::string path;  // as shown in diagnostics: the argument, or argument/relative/path
  bool is_stdin = false;
};

// Expands the arguments in order: `-` is stdin; a directory contributes its
// `*.hlo` and `*.txt` files recursively, sorted by name, skipping hidden
// entries, build folders (build, build-*, bazel-*, ...) and the text files
// XLA dumps next to HLO that are not HLO (buffer assignments, ...), following
// links to files but not links to directories (so link loops cannot trap it);
// any other existing path is taken as it is, whatever its extension.
// Problems (missing paths, unreadable directories) are appended to `errors`
// as messages; the other inputs are still returned.
std::vector<Input> ExpandInputs(const std::vector<std::string>& arguments,
                                std::vector<std::string>* errors);

// True for directory names that directory scans skip.
bool IsSkippedDirectoryName(const std::string& name);

}  // namespace hlolint
