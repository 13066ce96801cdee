// PrefaultForWrite: the pages of a range become resident without a byte
// changing, and a cancelled call leaves them alone.
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
  PrefaultForWrite(block + 100, size - 100, &cancel);
  // Every page of the range (whole pages, and the first one holds data). A
  // kernel before 5.14 refuses MADV_POPULATE_WRITE (23): then none.
  const bool supported = ::madvise(block, page, 23) == 0;
  CHECK(ResidentPages(block, size) == (supported ? 64 : 1));
  CHECK(block[0] == 7);
  CHECK(block[99] == 7);
  CHECK(block[100] == 0);
  CHECK(block[size - 1] == 0);
  ::munmap(block, size);
}

}  // namespace
}  // namespace hlolint
