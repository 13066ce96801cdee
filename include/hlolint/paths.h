// Which files a list of paths names, as the command line expands its
// arguments (docs/cli.md).
#pragma once

#include <string>
#include <vector>

namespace hlolint::api {

// A path that could not be expanded: missing, an unreadable directory, ...
struct PathError {
  std::string path;
  std::string message;  // without the path

  std::string ToString() const { return path + ": " + message; }
};

// Expands the paths in order: `-` (standard input) is kept as it is, once; a
// directory contributes its `*.hlo` files and those of its `*.txt` files
// that are named as XLA names its HLO dumps or start like HLO text (after
// comments: `HloModule`, `ENTRY` or a computation; one read of the first
// 4 KiB), recursively, sorted by name,
// skipping hidden entries, build folders (build, build-*, bazel-*, ...)
// and the text files XLA dumps next to HLO that are not HLO (buffer
// assignments, ...), following links to files but not links to directories
// (so link loops cannot trap it); any other existing path is taken as it is,
// whatever its extension. A path found twice is listed once. Problems
// (missing paths, unreadable directories) are appended to `errors`; the
// other paths are still returned. The `*.txt` files a scan
// left out as not HLO are appended to `skipped` when it is given (a file
// also named on the command line is linted, not skipped).
std::vector<std::string> ExpandPaths(const std::vector<std::string>& paths,
                                     std::vector<PathError>* errors,
                                     std::vector<std::string>* skipped = nullptr);

}  // namespace hlolint::api
