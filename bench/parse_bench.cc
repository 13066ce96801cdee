// Parse-only throughput: loads the given files, then times ParseModules over
// all of them (best of N runs) next to a newline count of the same bytes.
//   parse_bench [--runs N] FILE...
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "parse/parser.h"

using namespace hlolint;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  int runs = 5;
  std::vector<std::unique_ptr<SourceFile>> files;
  uint64_t bytes = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
      continue;
    }
    auto file = SourceFile::Open(argv[i], argv[i]);
    if (!file.ok()) {
      std::cerr << file.status().message() << "\n";
      return 2;
    }
    bytes += (*file)->size();
    files.push_back(std::move(*file));
  }
  if (files.empty()) {
    std::cerr << "usage: parse_bench [--runs N] FILE...\n";
    return 2;
  }
  double best_parse = 1e9, best_newlines = 1e9;
  uint64_t instructions = 0, newlines = 0;
  for (int run = 0; run < runs; ++run) {
    auto start = Clock::now();
    newlines = 0;
    for (const auto& f : files) {
      const char* p = f->data();
      const char* end = p + f->size();
      while ((p = static_cast<const char*>(std::memchr(p, '\n', end - p))) != nullptr) {
        ++newlines;
        ++p;
      }
    }
    best_newlines = std::min(best_newlines, std::chrono::duration<double>(Clock::now() - start).count());
    start = Clock::now();
    instructions = 0;
    for (const auto& f : files) {
      ParseModules(*f, [&](ParsedModule&& m) { instructions += m.instruction_count; });
    }
    best_parse = std::min(best_parse, std::chrono::duration<double>(Clock::now() - start).count());
  }
  const double mb = static_cast<double>(bytes) / 1e6;
  fmt::print("files {}  bytes {}  instructions {}  lines {}\n", files.size(), bytes, instructions,
             newlines);
  fmt::print("parse     {:8.3f} s  {:8.1f} MB/s  {:8.2f} M instr/s\n", best_parse, mb / best_parse,
             instructions / best_parse / 1e6);
  fmt::print("newlines  {:8.3f} s  {:8.1f} MB/s  (parse is {:.1f}x slower)\n", best_newlines,
             mb / best_newlines, best_parse / best_newlines);
  return 0;
}
