// The program-wide operator new of hlolint's executables: plain malloc, plus
// a request for transparent huge pages on big blocks.
//
// A large file's IR, name tables and analyses are a few big arrays (hundreds
// of MB for a 1 GB dump). With 4 KB pages each array is faulted in and
// zero-filled page by page, a fault per 4 KB, and random probes into name
// tables miss the TLB. Debian's kernels enable
// THP only where madvise asks for it ("madvise" mode), and glibc asks only
// under GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which a program cannot set for
// itself; so big blocks are advised here, where huge pages pay off
// (HugePagesPayOff: not where the host takes the guest's free memory back).
// Small blocks are left alone: they come from the heap and could not hold a
// 2 MB page anyway.
//
// Left out of sanitizer builds (lib/CMakeLists.txt): their runtimes replace
// operator new, and a second replacement mismatches their delete.
#include <cstdlib>
#include <new>

#include "memory/allocator.h"

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

// Blocks malloc maps on their own (at least its mmap threshold, which is
// 32 MB in the huge-page heap mode) start 2 MB-aligned and span whole huge
// pages, so none of them is left to 4 KB pages at either end.
void* AllocateBlock(std::size_t size) {
  if (size >= (std::size_t{32} << 20) && hlolint::HugePageHeapInUse()) {
    return std::aligned_alloc(kHugePage, (size + kHugePage - 1) & ~(kHugePage - 1));
  }
  return std::malloc(size);
}

void* AllocateOrThrow(std::size_t size) {
  if (size == 0) size = 1;
  while (true) {
    if (void* block = AllocateBlock(size)) {
      if (size >= hlolint::kHugePageAdviceBytes) {
        hlolint::AdviseHugePages(block, size);
      } else if (hlolint::HugePageHeapInUse()) {
        hlolint::AdviseHeapGrowth();
      }
      return block;
    }
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

// libstdc++'s nothrow and array forms call these two; delete stays free().
void* operator new(std::size_t size) { return AllocateOrThrow(size); }
void* operator new[](std::size_t size) { return AllocateOrThrow(size); }
