// PrefaultForWrite: the pages of a range become resident without a byte
// changing, and a cancelled call leaves them alone. PopulateAhead: the pages
// a growing array is about to write are made resident a batch at a time.
#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "memory/prefault.h"

namespace hlolint {
namespace {

// How many of the pages of [block, block + size) are resident.
size_t ResidentPages(char* block, size_t size) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core((size + page - 1) / page);
  REQUIRE(::mincore(block, size, in_core.data()) == 0);
  size_t resident = 0;
  for (unsigned char c : in_core) resident += c & 1;
  return resident;
}

TEST_CASE("PrefaultForWrite makes a range resident and changes nothing", "[memory]") {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t size = 64 * page;
  auto* block = static_cast<char*>(
      ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  REQUIRE(block != MAP_FAILED);
  std::memset(block, 7, 100);  // the first page is in use
  CHECK(ResidentPages(block, size) == 1);

  std::atomic<bool> cancel{true};
  PrefaultForWrite(block + 100, size - 100, &cancel);
  CHECK(ResidentPages(block, size) == 1);

  cancel = false;
  const bool populated = PrefaultForWrite(block + 100, size - 100, &cancel);
  // Every page of the range (whole pages, and the first one holds data). A
  // kernel before 5.14 refuses MADV_POPULATE_WRITE (23): then none.
  const bool supported = ::madvise(block, page, 23) == 0;
  CHECK(ResidentPages(block, size) == (supported ? 64 : 1));
  CHECK(populated == supported);
  CHECK(block[0] == 7);
  CHECK(block[99] == 7);
  CHECK(block[100] == 0);
  CHECK(block[size - 1] == 0);
  ::munmap(block, size);
}

TEST_CASE("PopulateAhead keeps the pages ahead of a growing array resident", "[memory]") {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  constexpr size_t kKB = 1024;
  const size_t size = 4096 * kKB;
  auto* block = static_cast<char*>(
      ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  REQUIRE(block != MAP_FAILED);
  ::madvise(block, size, MADV_NOHUGEPAGE);  // pages counted in 4 KB
  const bool supported = ::madvise(block, page, 23) == 0;  // MADV_POPULATE_WRITE
  if (!supported) {
    WARN("skipped: this kernel has no MADV_POPULATE_WRITE (Linux 5.14)");
    ::munmap(block, size);
    return;
  }
  std::memset(block, 7, 100);
  const size_t batch = 512 * kKB / page;  // pages per call

  PopulateAhead ahead;
  ahead.Grow(block, 100, size);  // the first batch, from the page in use
  CHECK(ResidentPages(block, size) == batch);
  ahead.Grow(block, 300 * kKB, size);  // still 212 KB ahead: nothing more
  CHECK(ResidentPages(block, size) == batch);
  ahead.Grow(block, 400 * kKB, size);  // 112 KB ahead: the next batch
  CHECK(ResidentPages(block, size) == 2 * batch);
  CHECK(ResidentPages(block + 1024 * kKB, page) == 0);
  // Past what was populated (elements written meanwhile): from the end on,
  // up to the block's end at most.
  ahead.Grow(block, size - 100 * kKB, size);
  CHECK(ResidentPages(block + size - 100 * kKB, 100 * kKB) == 100 * kKB / page);
  CHECK(ResidentPages(block + 2048 * kKB, page) == 0);  // skipped: never populated
  ahead.Grow(block, size - kKB, size);  // nothing left: no call, no error
  CHECK(block[0] == 7);
  CHECK(block[99] == 7);
  CHECK(block[100] == 0);

  // The array moved to another block: populated from its end there.
  auto* moved = static_cast<char*>(
      ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  REQUIRE(moved != MAP_FAILED);
  ::madvise(moved, size, MADV_NOHUGEPAGE);
  ahead.Grow(moved, 0, size);
  CHECK(ResidentPages(moved, size) == batch);
  ::munmap(moved, size);
  ::munmap(block, size);
}

}  // namespace
}  // namespace hlolint
