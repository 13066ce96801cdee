#include "lint_jobs.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "source/source_file.h"

namespace hlolint {
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
      results[i] = api_internal::LintInput(tasks[i], module_threads, &buffer);
    }
    return results;
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    ReadBuffer buffer;  // this worker's: small files are read, not mapped
    for (size_t i = next++; i < tasks.size(); i = next++) {
      results[i] = api_internal::LintInput(tasks[i], module_threads, &buffer);
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
