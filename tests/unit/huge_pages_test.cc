// The executables' operator new (lib/memory/huge_page_new.cc, linked into
// the unit tests too) asks for transparent huge pages on big blocks only.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "memory/allocator.h"
#include "proc_smaps.h"

namespace {

std::string VmFlagsOf(const void* address) { return hlolint::SmapsField(address, "VmFlags:"); }

bool HugePagesAvailable() {
  struct stat st;
  return ::stat("/sys/kernel/mm/transparent_hugepage", &st) == 0 &&
         ::stat("/proc/self/smaps", &st) == 0;
}

}  // namespace

TEST_CASE("big blocks are advised to use huge pages, small ones are not", "[memory]") {
#ifndef HLOLINT_HUGE_PAGE_NEW
  WARN("skipped: this build keeps the sanitizer's operator new");
  return;
#endif
  if (!HugePagesAvailable()) {
    WARN("skipped: this kernel has no transparent huge pages or no /proc/self/smaps");
    return;
  }
  // malloc's fixed threshold, as in hlolint: blocks above 256 KB are mapped
  // on their own, whatever the tests before this one freed.
  hlolint::ReturnBigFreedBlocks();
  auto big = std::make_unique<char[]>(hlolint::kHugePageAdviceBytes * 2);
  CHECK(VmFlagsOf(big.get() + hlolint::kHugePageAdviceBytes).find(" hg") != std::string::npos);
  // Below the threshold but above malloc's mmap threshold: its own mapping,
  // left alone. (malloc maps a block of its own only when its heap has no
  // room: tests run before this one in the same process can leave a heap,
  // advised by them, with room enough.)
  auto middle = std::make_unique<char[]>(hlolint::kHugePageAdviceBytes / 2);
  if (hlolint::MapsLineAt(middle.get()).find("[heap]") != std::string::npos) {
    WARN("skipped the small block: malloc served it from a heap earlier tests left");
    return;
  }
  const std::string flags = VmFlagsOf(middle.get());
  REQUIRE(!flags.empty());
  CHECK(flags.find(" hg") == std::string::npos);
}

TEST_CASE("the huge-page heap of large inputs: heap growth and big blocks use huge pages",
          "[memory]") {
#ifndef HLOLINT_HUGE_PAGE_NEW
  WARN("skipped: this build keeps the sanitizer's operator new");
  return;
#endif
  if (!HugePagesAvailable()) {
    WARN("skipped: this kernel has no transparent huge pages or no /proc/self/smaps");
    return;
  }
  // What hlolint chooses when an input is larger than kSmallInputBytes.
  hlolint::ConfigureMemoryForInputs({hlolint::kSmallInputBytes + 1});
  REQUIRE(hlolint::HugePageHeapInUse());
  // Middle-sized blocks now come from the heap, which grows in 64 MB steps:
  // enough of them make it grow at least once after the change, and the
  // grown part is advised.
  std::vector<std::unique_ptr<char[]>> blocks;
  for (int i = 0; i < 96; ++i) blocks.push_back(std::make_unique<char[]>(size_t{1} << 20));
  CHECK(VmFlagsOf(blocks.back().get()).find(" hg") != std::string::npos);
  // A block malloc maps on its own starts on a huge page and is advised.
  auto big = std::make_unique<char[]>(size_t{40} << 20);
  CHECK(reinterpret_cast<uintptr_t>(big.get()) % (uintptr_t{2} << 20) == 0);
  CHECK(VmFlagsOf(big.get()).find(" hg") != std::string::npos);
}
