#include "inputs.h"

#include "hlolint/paths.h"

namespace hlolint {
namespace {

// ExpandPaths says "PATH: message", where PATH is an argument or a folder
// under one: the path ends at the first ": " after the longest argument the
// text starts with (so a ": " inside an argument stays in the path).
InputError SplitError(const std::string& text, const std::vector<std::string>& arguments) {
  size_t from = 0;
  for (const std::string& argument : arguments) {
    if (argument.size() > from && text.compare(0, argument.size(), argument) == 0) {
      from = argument.size();
    }
  }
  const size_t colon = text.find(": ", from);
  if (colon == std::string::npos) return {"", text};
  return {text.substr(0, colon), text.substr(colon + 2)};
}

}  // namespace

ExpandedInputs ExpandInputs(const std::vector<std::string>& arguments,
                            std::vector<InputError>* errors) {
  std::vector<std::string> messages;
  ExpandedInputs inputs;
  for (std::string& path : api::ExpandPaths(arguments, &messages, &inputs.skipped)) {
    const bool is_stdin = path == "-";
    inputs.files.push_back({std::move(path), is_stdin});
  }
  for (const std::string& message : messages) errors->push_back(SplitError(message, arguments));
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
