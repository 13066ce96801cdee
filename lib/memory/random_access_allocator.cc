#include "memory/random_access_allocator.h"

#include <sys/mman.h>

#include <cstdlib>
#include <string_view>

namespace hlolint {

int HugePagesFromEnvironment() {
  const char* value = std::getenv("HLOLINT_HUGE_PAGES");
  if (value == nullptr) return -1;
  const std::string_view v(value);
  if (v == "on" || v == "1") return 1;
  if (v == "off" || v == "0") return 0;
  return -1;
}

bool RandomAccessHugePages() {
  static const bool enabled = HugePagesFromEnvironment() != 0;
  return enabled;
}

void* AllocateRandomAccessBlock(std::size_t bytes) {
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  // Whole huge pages, so that no end of the block is left to 4 KB pages.
  const std::size_t rounded = (bytes + kHugePage - 1) & ~(kHugePage - 1);
  void* block = std::aligned_alloc(kHugePage, rounded);
  if (block == nullptr) throw std::bad_alloc();
  if (RandomAccessHugePages()) ::madvise(block, rounded, MADV_HUGEPAGE);
  return block;
}

void FreeRandomAccessBlock(void* block) { std::free(block); }

}  // namespace hlolint
