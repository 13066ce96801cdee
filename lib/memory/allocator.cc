#include "memory/allocator.h"
#include "memory/random_access_allocator.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <limits>

namespace hlolint {

void ReturnBigFreedBlocks() {
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  ResolveHugePages();
}

namespace {

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
std::atomic<bool> huge_page_heap{false};
std::atomic<uintptr_t> heap_advised_to{0};

// kAuto until resolved; then kOn or kOff.
std::atomic<HugePages> huge_pages{HugePages::kAuto};

HugePages FromEnvironment() {
  switch (HugePagesFromEnvironment()) {
    case 1: return HugePages::kOn;
    case 0: return HugePages::kOff;
    default: return HugePages::kAuto;  // unset or anything else: decided here
  }
}

HugePages Resolve(HugePages choice) {
  if (choice == HugePages::kAuto) choice = FromEnvironment();
  if (choice == HugePages::kAuto) {
    choice = HypervisorTakesFreePages("/sys") ? HugePages::kOff : HugePages::kOn;
  }
  return choice;
}

}  // namespace

bool HypervisorTakesFreePages(const std::string& sysfs) {
  constexpr size_t kReportingBit = 5;  // VIRTIO_BALLOON_F_REPORTING
  std::error_code error;
  const std::filesystem::path driver =
      std::filesystem::path(sysfs) / "bus/virtio/drivers/virtio_balloon";
  for (std::filesystem::directory_iterator it(driver, error), end; !error && it != end;
       it.increment(error)) {
    if (it->path().filename().string().rfind("virtio", 0) != 0) continue;
    // One character per feature bit, '0' or '1', lowest bit first.
    std::ifstream features(it->path() / "features");
    std::string bits;
    if (features >> bits && bits.size() > kReportingBit && bits[kReportingBit] == '1') {
      return true;
    }
  }
  return false;
}

// Not resolved yet counts as on: operator new asks before the policy is
// resolved only in programs that never set it (the unit tests).
bool HugePagesPayOff() { return huge_pages.load(std::memory_order_relaxed) != HugePages::kOff; }

void ResolveHugePages() {
  if (huge_pages.load(std::memory_order_relaxed) == HugePages::kAuto) SetHugePages(HugePages::kAuto);
}

void SetHugePages(HugePages choice) {
  huge_pages.store(Resolve(choice), std::memory_order_relaxed);
}

void ConfigureMemoryForInputs(const std::vector<uint64_t>& sizes) {
  ResolveHugePages();
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
  if (!HugePagesPayOff()) return;
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
  if (!HugePagesPayOff()) return;
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
