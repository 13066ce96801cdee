#include "memory/allocator.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <limits>

namespace hlolint {

void ReturnBigFreedBlocks() { mallopt(M_MMAP_THRESHOLD, 256 * 1024); }

namespace {

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
std::atomic<bool> huge_page_heap{false};
std::atomic<uintptr_t> heap_advised_to{0};

}  // namespace

void ConfigureMemoryForInputs(const std::vector<uint64_t>& sizes) {
  if (sizes.empty()) return;
  const bool large = *std::max_element(sizes.begin(), sizes.end()) > kSmallInputBytes;
  UseHugePageHeap(/*one_arena=*/large);
  // Small inputs: free memory at the top of the heap is given back only
  // past this much, so the next file reuses it.
  if (!large) mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

void UseHugePageHeap(bool one_arena) {
  // The largest threshold glibc accepts (its own ceiling for the dynamic
  // one): a 16 MB file's biggest array (~10 MB of instructions) fits.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TOP_PAD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
  // Threads would otherwise get heaps of their own (mapped, 4 KB pages).
  if (one_arena) mallopt(M_ARENA_MAX, 1);
  heap_advised_to.store(reinterpret_cast<uintptr_t>(::sbrk(0)), std::memory_order_relaxed);
  huge_page_heap.store(true, std::memory_order_release);
}

bool HugePageHeapInUse() { return huge_page_heap.load(std::memory_order_relaxed); }

void AdviseHeapGrowth() {
  const uintptr_t top = reinterpret_cast<uintptr_t>(::sbrk(0));
  uintptr_t advised = heap_advised_to.load(std::memory_order_relaxed);
  if (top == advised || !heap_advised_to.compare_exchange_strong(advised, top)) return;
  if (top < advised) return;  // trimmed: what grows again is advised then
  // Whole huge pages of the new part; malloc has touched at most the page
  // holding the new top's header.
  const uintptr_t begin = (advised + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = top & ~(kHugePage - 1);
  if (begin < end) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

void AdviseHugePages(void* block, std::size_t size) {
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  // A big block is mmap'd by malloc: its first page starts just before it.
  const uintptr_t first = reinterpret_cast<uintptr_t>(block) / page * page;
  const uintptr_t end = reinterpret_cast<uintptr_t>(block) + size;
  ::madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);
}

uint64_t RegularFileSize(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return std::numeric_limits<uint64_t>::max();
  }
  return static_cast<uint64_t>(st.st_size);
}

}  // namespace hlolint
