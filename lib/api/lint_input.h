// The library's lint entry point at the engine's level, for callers inside
// the project that report through lib/report (the command line): it returns
// the engine's FileResult, whose diagnostics keep what the report formats
// need (source lines, dump histories) and that the API's plain structs
// leave out. api::Linter lints through it too, then converts.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/dump_context.h"
#include "engine/lint.h"

namespace hlolint {
class ReadBuffer;
}

namespace hlolint::api_internal {

// One input and how to lint it (the command line's unit of work).
struct InputToLint {
  std::string path;          // file to open (unused when `text` is set)
  std::string display_path;  // as shown in diagnostics
  // Contents already in memory (standard input, an editor's buffer); the
  // caller keeps them alive. None: open `path`.
  std::optional<std::string_view> text;
  const LintOptions* options = nullptr;
  // What the file's dump name (and its dump sequence, or an assumed pass)
  // says: module, pass. See engine/dump_sequence.h.
  std::optional<DumpContext> dump;
};

// Lints one input with its options, the rules' threads set to
// `module_threads` (LintOptions::module_threads). Never throws: an
// exception from the engine becomes the result's I/O error ("internal
// error while linting: ..."), and the caller goes on with other inputs.
// `buffer` (one per thread) is reused for small files (SourceFile::Open).
FileResult LintInput(const InputToLint& input, int module_threads, ReadBuffer* buffer);

}  // namespace hlolint::api_internal
