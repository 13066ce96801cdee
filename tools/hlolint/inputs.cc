#include "inputs.h"

#include "hlolint/paths.h"

namespace hlolint {

std::vector<Input> ExpandInputs(const std::vector<std::string>& arguments,
                                std::vector<std::string>* errors) {
  std::vector<Input> inputs;
  for (std::string& path : api::ExpandPaths(arguments, errors)) {
    const bool is_stdin = path == "-";
    inputs.push_back({std::move(path), is_stdin});
  }
  return inputs;
}

}  // namespace hlolint
