// Turning command-line paths into the list of files to lint.
#pragma once

#include <string>
#include <vector>

namespace hlolint {

struct Input {
  std::string path;  // as shown in diagnostics: the argument, or argument/relative/path
  bool is_stdin = false;
};

// api::ExpandPaths (include/hlolint/paths.h), with `-` as stdin.
std::vector<Input> ExpandInputs(const std::vector<std::string>& arguments,
                                std::vector<std::string>* errors);

}  // namespace hlolint
