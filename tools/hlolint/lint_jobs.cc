#include "lint_jobs.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "source/source_file.h"

namespace hlolint {
namespace {

FileResult LintWith(const LintTask& task, const LintOptions& options, ReadBuffer* buffer) {
  if (task.text != nullptr) {
    std::unique_ptr<SourceFile> file = SourceFile::FromString(task.display_path, *task.text);
    return LintSource(*file, options);
  }
  return LintFile(task.path, task.display_path, options, buffer);
}

FileResult LintOneUnguarded(const LintTask& task, int module_threads, ReadBuffer* buffer) {
  if (!task.dump && task.options->module_threads == module_threads) {
    return LintWith(task, *task.options, buffer);
  }
  LintOptions options = *task.options;  // small: rule pointers and options
  if (task.dump) options.dump = &*task.dump;
  options.module_threads = module_threads;
  return LintWith(task, options, buffer);
}

// An exception escaping a worker thread would end the process; report it as
// this file's failure instead (exit status 2), and go on with the others.
FileResult LintOne(const LintTask& task, int module_threads, ReadBuffer* buffer) {
  try {
    return LintOneUnguarded(task, module_threads, buffer);
  } catch (const std::exception& e) {
    FileResult failed;
    failed.path = task.display_path;
    failed.io_error = true;
    failed.io_error_message = std::string("internal error while linting: ") + e.what();
    return failed;
  }
}

}  // namespace

int ModuleThreads(int jobs, size_t files) {
  const size_t workers = std::min<size_t>(std::max(jobs, 1), std::max<size_t>(files, 1));
  return std::max(1, static_cast<int>(static_cast<size_t>(std::max(jobs, 1)) / workers));
}

std::vector<FileResult> LintAll(const std::vector<LintTask>& tasks, int jobs) {
  std::vector<FileResult> results(tasks.size());
  const size_t workers = std::min<size_t>(std::max(jobs, 1), tasks.size());
  const int module_threads = ModuleThreads(jobs, tasks.size());
  if (workers <= 1) {
    ReadBuffer buffer;
    for (size_t i = 0; i < tasks.size(); ++i) {
      results[i] = LintOne(tasks[i], module_threads, &buffer);
    }
    return results;
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    ReadBuffer buffer;  // this worker's: small files are read, not mapped
    for (size_t i = next++; i < tasks.size(); i = next++) {
      results[i] = LintOne(tasks[i], module_threads, &buffer);
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(workers - 1);
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (std::thread& thread : threads) thread.join();
  return results;
}

}  // namespace hlolint
