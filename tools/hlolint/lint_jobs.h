// Lints many files on a pool of threads. Results come back in task order
// whatever the parallelism, and a worker holds one file's IR at a time, so
// at most `jobs` modules' IR are alive at once (fewer files than jobs: the
// idle cores run the rules of the files' large modules).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/dump_context.h"
#include "engine/lint.h"

namespace hlolint {

struct LintTask {
  std::string path;                     // file to open (unused for stdin)
  std::string display_path;             // as shown in diagnostics
  const std::string* text = nullptr;    // contents already read (stdin); null: open `path`
  const LintOptions* options = nullptr;
  // What the file's XLA dump name (and its dump sequence, or --assume-pass)
  // says: module, pass. See engine/dump_sequence.h.
  std::optional<DumpContext> dump;
};

// Lints the files on min(jobs, files) workers. The cores the workers leave
// idle go to the files' modules: each may run its rules on
// ModuleThreads(jobs, files) threads (LintOptions::module_threads; one
// 1 GB file with --jobs 2 gets 2, 200 files get 1 each).
std::vector<FileResult> LintAll(const std::vector<LintTask>& tasks, int jobs);
// jobs / workers, at least 1.
int ModuleThreads(int jobs, size_t files);

}  // namespace hlolint
