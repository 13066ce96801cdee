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

struct ExpandedInputs {
  std::vector<Input> files;
  // `.txt` files of directory scans that are not HLO (api::ExpandPaths).
  std::vector<std::string> skipped;
};

// api::ExpandPaths (include/hlolint/paths.h), with `-` as stdin.
ExpandedInputs ExpandInputs(const std::vector<std::string>& arguments,
                            std::vector<InputError>* errors);

// The error of a run that found nothing to lint (a CI gate must not pass on
// nothing): names the arguments, and the option that allows it.
std::string NoHloFilesMessage(const std::vector<std::string>& arguments);

}  // namespace hlolint
