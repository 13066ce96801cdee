// Allocator for big tables probed at random, such as the name table of a
// computation of millions of instructions: a block of 16 MB or more is
// 2 MB-aligned and asked for transparent huge pages.
//
// hlolint otherwise leaves fresh memory in 4 KB pages on virtual machines
// whose host takes free memory back (memory/allocator.h: a fresh huge page
// costs more there). A table probed at random is the exception: in 4 KB
// pages each probe of a 32 MB table also misses the TLB, and the page walk
// (two-dimensional under a hypervisor) stalls even the prefetch meant to
// hide the miss. Smaller tables stay in 4 KB pages, whose TLB misses cost
// less than the fresh huge pages would (docs/performance.md, "Huge pages
// only where they pay").
#pragma once

#include <cstddef>
#include <new>

namespace hlolint {

// HLOLINT_HUGE_PAGES as set: 1 for `on` (or `1`), 0 for `off` (or `0`),
// -1 for anything else or unset (memory/allocator.h decides then).
int HugePagesFromEnvironment();

// Whether big random-access blocks are asked for in huge pages: unless
// HLOLINT_HUGE_PAGES says `off`.
bool RandomAccessHugePages();

// A block of `bytes` (at least kRandomAccessHugeBytes), and its release.
void* AllocateRandomAccessBlock(std::size_t bytes);
void FreeRandomAccessBlock(void* block);

// A table from this size on gets huge pages.
inline constexpr std::size_t kRandomAccessHugeBytes = std::size_t{16} << 20;

template <typename T>
struct RandomAccessAllocator {
  using value_type = T;
  RandomAccessAllocator() = default;
  template <typename U>
  RandomAccessAllocator(const RandomAccessAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kRandomAccessHugeBytes) return static_cast<T*>(AllocateRandomAccessBlock(bytes));
    return static_cast<T*>(::operator new(bytes));
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) >= kRandomAccessHugeBytes) {
      FreeRandomAccessBlock(p);
    } else {
      ::operator delete(p);
    }
  }
  template <typename U>
  bool operator==(const RandomAccessAllocator<U>&) const {
    return true;
  }
};

}  // namespace hlolint
