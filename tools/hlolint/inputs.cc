#include "inputs.h"

#include "hlolint/paths.h"

namespace hlolint {

ExpandedInputs ExpandInputs(const std::vector<std::string>& arguments,
                            std::vector<InputError>* errors) {
  ExpandedInputs inputs;
  for (std::string& path : api::ExpandPaths(arguments, errors, &inputs.skipped)) {
    const bool is_stdin = path == "-";
    inputs.files.push_back({std::move(path), is_stdin});
  }
  return inputs;
}

std::string NoHloFilesMessage(const std::vector<std::string>& arguments) {
  std::string message = "no HLO files found in: ";
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (i > 0) message += ", ";
    message += arguments[i];
  }
  return message + " (use --allow-empty to exit 0)";
}

}  // namespace hlolint
