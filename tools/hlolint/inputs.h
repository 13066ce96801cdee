// Turning command-line paths into the list of files to lint.
#pragma once

#include <string>
#include <vector>

#include "hlolint/paths.h"

namespace hlolint {

struct Input {
  std::string path;  // as shown in diagnostics: the argument, or argument/relative/path
  bool is_stdin = false;
};

// A path that could not be expanded (missing, unreadable directory, ...):
// reported like a file that could not be read.
using InputError = api::PathError;

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
