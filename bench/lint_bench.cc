// Throughput of hlolint on given files, measured in one process so the
// ratios hold on a noisy machine:
//   newline count (memchr loop over the mapped bytes: the floor),
//   parse only (every module, no rules),
//   full lint (parse + every registered rule).
// Reports MB/s, instructions/s, best of --runs, and peak RSS.
// With --without CATEGORY (or a rule id) it also lints without those rules,
// alternating the two in every run, and reports what the category adds
// (best and median of the runs, and the per-run range).
//
// With --threads N, one module's parse and rules may use N threads
// (LintOptions::module_threads); the default, 1, is the one-thread figure.
// --rules-min-bytes B: the smallest module whose rules run on those threads
// (LintOptions::parallel_rules_min_bytes), to find where they pay.
// --versus-threads N: every run also lints on one thread and on N, back to
// back (alternating which goes first), and reports wall time and speedup
// (best, median, per-run range): pairs taken a second apart compare far
// better on a shared machine than separate processes (--mode none: only
// these). --versus-rules N: the same, but both sides have N threads and one
// runs its rules on one thread: what parallel rules add to a parallel parse.
// --pause-ms N: before each timed parse and lint of a large input (and each
// --versus-threads / --versus-rules lint), after giving the heap back, wait
// N ms. On a virtual machine whose host takes
// back the memory a guest frees (after a second or two), memory freed a
// moment before is backed still and costs far less to touch again
// than memory after a pause: without the pause, runs after the first
// reuse the previous run's pages cheaply, as a new hlolint process started
// seconds after the last one would not (see docs/performance.md).
//
//   lint_bench [--runs N] [--mode all|parse|lint|none] [--without CATEGORY] [--threads N]
//              [--rules-min-bytes B] [--versus-threads N | --versus-rules N]
//              [--pause-ms N] FILE...
#include <fcntl.h>
#include <malloc.h>
#include <unistd.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../tests/unit/proc_smaps.h"  // SmapsField, shared with the tests
#include "engine/lint.h"
#include "engine/suppressions.h"
#include "memory/allocator.h"
#include "fmt/format.h"
#include "parse/parser.h"
#include "rules/registry.h"

using namespace hlolint;
using Clock = std::chrono::steady_clock;

namespace {

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The floor any reader of the bytes pays: the file read from the page cache
// a megabyte at a time into one buffer, and its newlines counted (what
// `wc -l` does).
uint64_t CountNewlines(const std::string& path, std::vector<char>& buffer) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  uint64_t n = 0;
  while (true) {
    const ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got <= 0) break;
    const char* p = buffer.data();
    const char* end = p + got;
    while ((p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p))))) {
      ++n;
      ++p;
    }
  }
  ::close(fd);
  return n;
}

// Calls `use` with each file as a hlolint worker reads it, once per run:
// reading is part of parsing and linting. Like a worker, a run reads the
// files one at a time into one reused buffer (a first file over 8 MB is
// mapped, see ReadBuffer), so each file's text goes once it is linted.
template <typename Use>
void ForEachFile(const std::vector<std::string>& paths, const Use& use) {
  ReadBuffer buffer;
  for (const auto& path : paths) {
    auto file = SourceFile::Open(path, path, &buffer);
    if (file.ok()) use(**file);
  }
}

// The kB of the mapping that holds `address` (/proc/self/smaps "Size:")
// and of those mapped in 2 MB pages ("FilePmdMapped:"): a large file's text
// is mapped from the page cache, which holds a file written in large pieces
// (as XLA writes a dump) in 2 MB folios, a file written in small ones in
// 4 KB folios; the figures depend on which.
std::pair<uint64_t, uint64_t> MappedAndHugeKb(const void* address) {
  auto kb = [address](std::string_view field) -> uint64_t {
    const std::string line = SmapsField(address, field);
    return line.empty() ? 0 : std::strtoull(line.c_str() + field.size(), nullptr, 10);
  };
  return {kb("Size:"), kb("FilePmdMapped:")};
}

}  // namespace

int main(int argc, char** argv) {
  // hlolint's own memory policy (lib/memory/allocator.h).
  hlolint::ReturnBigFreedBlocks();
  int runs = 3;
  std::string mode = "all";
  std::string without;
  int threads = 1;
  uint32_t rules_min_bytes = LintOptions::kParallelRulesMinBytes;
  int versus_threads = 0;
  bool versus_rules_only = false;
  int pause_ms = 0;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--mode") && i + 1 < argc) {
      mode = argv[++i];
    } else if (!std::strcmp(argv[i], "--without") && i + 1 < argc) {
      without = argv[++i];
    } else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = std::max(1, std::atoi(argv[++i]));
    } else if ((!std::strcmp(argv[i], "--versus-threads") ||
                !std::strcmp(argv[i], "--versus-rules")) &&
               i + 1 < argc) {
      versus_rules_only = !std::strcmp(argv[i], "--versus-rules");
      versus_threads = std::max(2, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--pause-ms") && i + 1 < argc) {
      pause_ms = std::max(0, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--rules-min-bytes") && i + 1 < argc) {
      rules_min_bytes = static_cast<uint32_t>(std::strtoul(argv[++i], nullptr, 10));
    } else {
      paths.push_back(argv[i]);
    }
  }
  if (paths.empty()) {
    std::cerr << "usage: lint_bench [--runs N] [--mode all|parse|lint] [--without CATEGORY] "
                 "[--threads N] [--rules-min-bytes B] [--versus-threads N | --versus-rules N] "
                 "[--pause-ms N] FILE...\n";
    return 2;
  }
  uint64_t bytes = 0, mapped_text_kb = 0, huge_text_kb = 0;
  std::vector<uint64_t> sizes;
  for (const auto& path : paths) {
    auto file = SourceFile::Open(path, path);
    if (!file.ok()) {
      std::cerr << file.status().message() << "\n";
      return 2;
    }
    sizes.push_back((*file)->size());
    bytes += (*file)->size();
    const auto [mapped_kb, huge_kb] = MappedAndHugeKb((*file)->data());
    mapped_text_kb += mapped_kb;
    huge_text_kb += huge_kb;
  }
  // hlolint's memory policy for these inputs (lib/memory/allocator.h).
  hlolint::ConfigureMemoryForInputs(sizes);
  const bool large =
      *std::max_element(sizes.begin(), sizes.end()) > hlolint::kSmallInputBytes;
  LintOptions options;
  options.rules = AllRules();
  options.module_threads = threads;
  options.parallel_rules_min_bytes = rules_min_bytes;
  ParseLimits parse_limits;
  parse_limits.threads = threads;
  LintOptions reduced;
  reduced.module_threads = threads;
  reduced.parallel_rules_min_bytes = rules_min_bytes;
  for (const Rule* rule : AllRules()) {
    if (CategoryName(rule->info().category) != without && rule->info().id != without) {
      reduced.rules.push_back(rule);
    }
  }
  reduced.known_rules = AllRules();
  // CPU time of this thread: on a shared machine it moves far less than wall
  // time when other processes compete for the cores.
  auto cpu_seconds = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
  };
  auto lint_all = [&](const LintOptions& o) {
    const double start = cpu_seconds();
    ForEachFile(paths, [&](SourceFile& f) { LintSource(f, o); });
    return cpu_seconds() - start;
  };
  std::vector<double> with_times, without_times;
  LintOptions one_thread = options, many_threads = options;
  many_threads.module_threads = versus_threads;
  if (versus_rules_only) {
    one_thread.module_threads = versus_threads;
    one_thread.parallel_rules_min_bytes = UINT32_MAX;  // its rules on one thread
  } else {
    one_thread.module_threads = 1;
  }
  // A timed run on a large input starts as a fresh hlolint process would:
  // the memory the last one freed goes back to the system, and this run
  // pays for fresh pages (at the price of pages freed a moment ago, unless
  // --pause-ms lets the host take them back). Small inputs reuse the heap,
  // as hlolint does from one file to the next.
  auto give_back_memory = [&] {
    if (!large) return;
    malloc_trim(0);
    if (pause_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
  };
  auto lint_wall = [&](const LintOptions& o) {  // as the lint mode measures it
    give_back_memory();
    const auto start = Clock::now();
    ForEachFile(paths, [&](SourceFile& f) { LintSource(f, o); });
    return Seconds(start);
  };
  std::vector<double> one_thread_times, many_threads_times;

  std::vector<char> newline_buffer(size_t{1} << 20);
  double newline_time = 1e30, parse_time = 1e30, lint_time = 1e30;
  uint64_t newlines = 0, instructions = 0, diagnostics = 0;
  for (int run = 0; run < runs; ++run) {
    if (large) malloc_trim(0);
    auto start = Clock::now();
    newlines = 0;
    for (const auto& path : paths) newlines += CountNewlines(path, newline_buffer);
    newline_time = std::min(newline_time, Seconds(start));
    if (mode == "all" || mode == "parse") {
      give_back_memory();
      start = Clock::now();
      instructions = 0;
      ForEachFile(paths, [&](SourceFile& f) {
        // Parsed as a lint parses it: finding the suppression markers too.
        WatchForSuppressions(f);
        ParseModules(
            f, [&](ParsedModule&& m) { instructions += m.instruction_count; }, parse_limits);
      });
      parse_time = std::min(parse_time, Seconds(start));
    }
    if (mode == "all" || mode == "lint") {
      give_back_memory();
      start = Clock::now();
      diagnostics = 0;
      instructions = 0;
      ForEachFile(paths, [&](SourceFile& f) {
        FileResult r = LintSource(f, options);
        diagnostics += r.diagnostics.size();
        instructions += r.instructions;
      });
      lint_time = std::min(lint_time, Seconds(start));
    }
    if (versus_threads > 0) {
      const bool one_first = run % 2 == 0;  // drift on a shared machine hits both
      if (one_first) one_thread_times.push_back(lint_wall(one_thread));
      many_threads_times.push_back(lint_wall(many_threads));
      if (!one_first) one_thread_times.push_back(lint_wall(one_thread));
    }
    if (!without.empty()) {
      // Alternate which goes first, so drift on a shared machine hits both.
      if (run % 2) {
        without_times.push_back(lint_all(reduced));
        with_times.push_back(lint_all(options));
      } else {
        with_times.push_back(lint_all(options));
        without_times.push_back(lint_all(reduced));
      }
    }
  }
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  const double mb = static_cast<double>(bytes) / 1e6;
  fmt::print("input     {} files, {:.1f} MB, {} lines, {} instructions, {} diagnostics, {} thread{}\n",
             paths.size(), mb, newlines, instructions, diagnostics, threads,
             threads == 1 ? "" : "s");
  if (huge_text_kb > 0) {
    fmt::print("text      mapped in 2 MB pages: {:.0f}% of {:.1f} MB mapped\n",
               100.0 * huge_text_kb / mapped_text_kb, mapped_text_kb / 1024.0);
  } else {
    fmt::print("text      in 4 KB pages (read into memory, or a page cache of small folios)\n");
  }
  fmt::print("memory    anonymous huge pages {} (HLOLINT_HUGE_PAGES, lib/memory/allocator.h)\n",
             hlolint::HugePagesPayOff() ? "on" : "off: the host takes free memory back");
  fmt::print("newlines  {:10.6f} s {:9.1f} MB/s\n", newline_time, mb / newline_time);
  if (parse_time < 1e30) {
    fmt::print("parse     {:10.6f} s {:9.1f} MB/s {:8.2f} M instr/s  {:5.1f}x newlines\n", parse_time,
               mb / parse_time, instructions / parse_time / 1e6, parse_time / newline_time);
  }
  if (lint_time < 1e30) {
    fmt::print("lint      {:10.6f} s {:9.1f} MB/s {:8.2f} M instr/s  {:5.1f}x newlines\n", lint_time,
               mb / lint_time, instructions / lint_time / 1e6, lint_time / newline_time);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  };
  if (versus_threads > 0) {
    std::vector<double> speedups;
    for (size_t i = 0; i < one_thread_times.size(); ++i) {
      speedups.push_back(one_thread_times[i] / many_threads_times[i]);
    }
    const double one_best = *std::min_element(one_thread_times.begin(), one_thread_times.end());
    const double many_best =
        *std::min_element(many_threads_times.begin(), many_threads_times.end());
    fmt::print("lint, 1 thread{}:   best {:10.6f} s {:7.1f} MB/s  median {:10.6f} s {:7.1f} MB/s\n",
               versus_rules_only ? " for the rules" : "", one_best, mb / one_best,
               median(one_thread_times), mb / median(one_thread_times));
    fmt::print("lint, {} threads:  best {:10.6f} s {:7.1f} MB/s  median {:10.6f} s {:7.1f} MB/s\n",
               versus_threads, many_best, mb / many_best, median(many_threads_times),
               mb / median(many_threads_times));
    fmt::print("speedup: best/best {:.2f}x  per run median {:.2f}x, {:.2f}x..{:.2f}x\n",
               one_best / many_best, median(speedups),
               *std::min_element(speedups.begin(), speedups.end()),
               *std::max_element(speedups.begin(), speedups.end()));
  }
  if (!without.empty()) {
    double lo = 1e30, hi = -1e30;
    for (size_t i = 0; i < with_times.size(); ++i) {
      const double added = (with_times[i] - without_times[i]) / with_times[i];
      lo = std::min(lo, added);
      hi = std::max(hi, added);
    }
    const double with_best = *std::min_element(with_times.begin(), with_times.end());
    const double without_best = *std::min_element(without_times.begin(), without_times.end());
    const double with_median = median(with_times), without_median = median(without_times);
    fmt::print("lint CPU, all rules  best {:10.6f} s  median {:10.6f} s\n", with_best, with_median);
    fmt::print("lint CPU, without {}: best {:10.6f} s  median {:10.6f} s\n", without, without_best,
               without_median);
    fmt::print("{} share of full lint: best {:.1f}%  median {:.1f}%  per run {:.1f}%..{:.1f}%\n",
               without, 100 * (with_best - without_best) / with_best,
               100 * (with_median - without_median) / with_median, 100 * lo, 100 * hi);
    fmt::print("{} adds to the lint without it: median {:.1f}%\n", without,
               100 * (with_median - without_median) / without_median);
  }
  fmt::print("peak RSS  {:.1f} MB ({:.2f}x input)\n", usage.ru_maxrss / 1024.0,
             usage.ru_maxrss * 1024.0 / static_cast<double>(bytes));
  return 0;
}
