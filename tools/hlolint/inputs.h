// Turning command-line paths into the list of files to lint.
#pragma once

#include <string>
#include <vector>

namespace hlolint {

struct Input {
  std::string path;  // as shown in diagnostics: the argument, or argument/relative/path
  bool is_stdin = false;
};

// A path that could not be expanded (missing, unreadable directory, ...):
// reported like a file that could not be read.
struct InputError {
  std::string path;
  std::string message;  // without the path

  std::string ToString() const { return path.empty() ? message : path + ": " + message; }
};

// api::ExpandPaths (include/hlolint/paths.h), with `-` as stdin.
std::vector<Input> ExpandInputs(const std::vector<std::string>& arguments,
                                std::vector<InputError>* errors);

}  // namespace hlolint
