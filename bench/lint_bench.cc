// Throughput of hlolint on given files, measured in one process so the
// ratios hold on a noisy machine:
//   newline count (memchr loop over the mapped bytes: the floor),
//   parse only (every module, no rules),
//   full lint (parse + every registered rule).
// Reports MB/s, instructions/s, best of --runs, and peak RSS.
//
//   lint_bench [--runs N] [--mode all|parse|lint] FILE...
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "engine/lint.h"
#include "fmt/format.h"
#include "parse/parser.h"
#include "rules/registry.h"

using namespace hlolint;
using Clock = std::chrono::steady_clock;

namespace {

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

uint64_t CountNewlines(const SourceFile& f) {
  uint64_t n = 0;
  const char* p = f.data();
  const char* end = p + f.size();
  while ((p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p))))) {
    ++n;
    ++p;
  }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3;
  std::string mode = "all";
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--mode") && i + 1 < argc) {
      mode = argv[++i];
    } else {
      paths.push_back(argv[i]);
    }
  }
  if (paths.empty()) {
    std::cerr << "usage: lint_bench [--runs N] [--mode all|parse|lint] FILE...\n";
    return 2;
  }
  std::vector<std::unique_ptr<SourceFile>> files;
  uint64_t bytes = 0;
  for (const auto& path : paths) {
    auto file = SourceFile::Open(path, path);
    if (!file.ok()) {
      std::cerr << file.status().message() << "\n";
      return 2;
    }
    bytes += (*file)->size();
    files.push_back(std::move(*file));
  }
  LintOptions options;
  options.rules = AllRules();

  double newline_time = 1e30, parse_time = 1e30, lint_time = 1e30;
  uint64_t newlines = 0, instructions = 0, diagnostics = 0;
  for (int run = 0; run < runs; ++run) {
    auto start = Clock::now();
    newlines = 0;
    for (const auto& f : files) newlines += CountNewlines(*f);
    newline_time = std::min(newline_time, Seconds(start));
    if (mode == "all" || mode == "parse") {
      start = Clock::now();
      instructions = 0;
      for (const auto& f : files) {
        ParseModules(*f, [&](ParsedModule&& m) { instructions += m.instruction_count; });
      }
      parse_time = std::min(parse_time, Seconds(start));
    }
    if (mode == "all" || mode == "lint") {
      start = Clock::now();
      diagnostics = 0;
      instructions = 0;
      for (const auto& f : files) {
        FileResult r = LintSource(*f, options);
        diagnostics += r.diagnostics.size();
        instructions += r.instructions;
      }
      lint_time = std::min(lint_time, Seconds(start));
    }
  }
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  const double mb = static_cast<double>(bytes) / 1e6;
  fmt::print("input     {} files, {:.1f} MB, {} lines, {} instructions, {} diagnostics\n",
             files.size(), mb, newlines, instructions, diagnostics);
  fmt::print("newlines  {:8.4f} s {:9.1f} MB/s\n", newline_time, mb / newline_time);
  if (parse_time < 1e30) {
    fmt::print("parse     {:8.4f} s {:9.1f} MB/s {:8.2f} M instr/s  {:5.1f}x newlines\n", parse_time,
               mb / parse_time, instructions / parse_time / 1e6, parse_time / newline_time);
  }
  if (lint_time < 1e30) {
    fmt::print("lint      {:8.4f} s {:9.1f} MB/s {:8.2f} M instr/s  {:5.1f}x newlines\n", lint_time,
               mb / lint_time, instructions / lint_time / 1e6, lint_time / newline_time);
  }
  fmt::print("peak RSS  {:.1f} MB ({:.2f}x input)\n", usage.ru_maxrss / 1024.0,
             usage.ru_maxrss * 1024.0 / static_cast<double>(bytes));
  return 0;
}
