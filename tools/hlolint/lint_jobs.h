// Lints many files on a pool of threads. Results come back in task order
// whatever the parallelism, and a worker holds one file's IR at a time, so
// at most `jobs` modules' IR are alive at once (fewer files than jobs: the
// idle cores run the rules of the files' large modules).
#pragma once

#include <vector>

#include "api/lint_input.h"
#include "engine/lint.h"

namespace hlolint {

// One file, linted through the library's entry point (lib/api/lint_input.h).
using LintTask = api_internal::InputToLint;

// Lints the files on min(jobs, files) workers. The cores the workers leave
// idle go to the files' modules: each may run its rules on
// ModuleThreads(jobs, files) threads (LintOptions::module_threads; one
// 1 GB file with --jobs 2 gets 2, 200 files get 1 each).
std::vector<FileResult> LintAll(const std::vector<LintTask>& tasks, int jobs);
// jobs / workers, at least 1.
int ModuleThreads(int jobs, size_t files);

}  // namespace hlolint
