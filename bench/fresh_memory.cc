// What fresh memory costs on this machine, in 4 KB pages and in huge pages:
// the time to map a block and write to every cache line of it, the page
// faults (and the kernel's zeroing) included. On a virtual machine whose
// host takes freed memory back, a fresh huge page can cost several times
// what 512 fresh 4 KB pages do; docs/performance.md weighs the parser's
// huge-page name tables against that.
//
//   bench/fresh_memory [--mb N] [--rounds N] [--pause-ms N]
//
// Each round maps N MB (default 256) once per kind, after a pause (default
// 2500 ms) so that memory freed by the round before has been given back,
// as for a new process. Prints ms and ms per MB per kind and round.
#include <sys/mman.h>

#include <chrono>
#include <cstddef>
#include <thread>

#include "CLI/CLI.hpp"
#include "fmt/core.h"

namespace {

struct Kind {
  const char* name;
  int advice;
};

// Milliseconds to map `bytes` with `advice` and write a byte per cache line;
// negative when the mapping fails.
double TouchFresh(size_t bytes, int advice) {
  const auto start = std::chrono::steady_clock::now();
  void* block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED) return -1;
  madvise(block, bytes, advice);
  volatile char* bytes_of = static_cast<char*>(block);
  for (size_t i = 0; i < bytes; i += 64) bytes_of[i] = 1;
  const auto end = std::chrono::steady_clock::now();
  munmap(block, bytes);
  return std::chrono::duration<double, std::milli>(end - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Cost of fresh memory in 4 KB pages and in huge pages"};
  size_t megabytes = 256;
  int rounds = 3;
  int pause_ms = 2500;
  app.add_option("--mb", megabytes, "block size in MB")->check(CLI::Range(1, 65536));
  app.add_option("--rounds", rounds, "rounds")->check(CLI::Range(1, 1000));
  app.add_option("--pause-ms", pause_ms, "pause before each block")->check(CLI::Range(0, 600000));
  CLI11_PARSE(app, argc, argv);

  const Kind kinds[] = {{"4 KB pages", MADV_NOHUGEPAGE}, {"huge pages", MADV_HUGEPAGE}};
  const size_t bytes = megabytes << 20;
  for (int round = 1; round <= rounds; ++round) {
    for (const Kind& kind : kinds) {
      std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
      const double ms = TouchFresh(bytes, kind.advice);
      if (ms < 0) {
        fmt::print(stderr, "fresh_memory: cannot map {} MB\n", megabytes);
        return 1;
      }
      fmt::print("round {}  {:<10}  {:8.1f} ms  {:5.2f} ms/MB\n", round, kind.name, ms,
                 ms / static_cast<double>(megabytes));
    }
  }
  return 0;
}
