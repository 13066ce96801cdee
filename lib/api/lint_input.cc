#include "api/lint_input.h"

#include <exception>
#include <memory>

#include "source/source_file.h"

namespace hlolint::api_internal {
namespace {

FileResult LintWith(const InputToLint& input, const LintOptions& options, ReadBuffer* buffer) {
  if (input.text) {
    std::unique_ptr<SourceFile> file = SourceFile::FromString(input.display_path, *input.text);
    return LintSource(*file, options);
  }
  return LintFile(input.path, input.display_path, options, buffer);
}

FileResult LintUnguarded(const InputToLint& input, int module_threads, ReadBuffer* buffer) {
  const LintOptions& options = *input.options;
  if (!input.dump && options.module_threads == module_threads) {
    return LintWith(input, options, buffer);
  }
  LintOptions adjusted = options;  // small: rule pointers and options
  if (input.dump) adjusted.dump = &*input.dump;
  adjusted.module_threads = module_threads;
  return LintWith(input, adjusted, buffer);
}

}  // namespace

FileResult LintInput(const InputToLint& input, int module_threads, ReadBuffer* buffer) {
  try {
    return LintUnguarded(input, module_threads, buffer);
  } catch (const std::exception& e) {
    FileResult failed;
    failed.path = input.display_path;
    failed.io_error = true;
    failed.io_error_message = std::string("internal error while linting: ") + e.what();
    return failed;
  }
}

}  // namespace hlolint::api_internal
