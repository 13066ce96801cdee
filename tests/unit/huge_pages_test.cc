// The executables' operator new (lib/memory/huge_page_new.cc, linked into
// the unit tests too) asks for transparent huge pages on big blocks only.
#include <stdlib.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "memory/allocator.h"
#include "memory/random_access_allocator.h"
#include "proc_smaps.h"

namespace {

std::string VmFlagsOf(const void* address) { return hlolint::SmapsField(address, "VmFlags:"); }

bool HugePagesAvailable() {
  struct stat st;
  return ::stat("/sys/kernel/mm/transparent_hugepage", &st) == 0 &&
         ::stat("/proc/self/smaps", &st) == 0;
}

// Whether this build and kernel show the advice the tests look for; says why
// not when they do not.
bool AdviceIsVisible() {
#ifndef HLOLINT_HUGE_PAGE_NEW
  WARN("skipped: this build keeps the sanitizer's operator new");
  return false;
#endif
  if (!HugePagesAvailable()) {
    WARN("skipped: this kernel has no transparent huge pages or no /proc/self/smaps");
    return false;
  }
  return true;
}

}  // namespace

TEST_CASE("big blocks are advised to use huge pages, small ones are not", "[memory]") {
  if (!AdviceIsVisible()) return;
  // malloc's fixed threshold, as in hlolint: blocks above 256 KB are mapped
  // on their own, whatever the tests before this one freed.
  hlolint::ReturnBigFreedBlocks();
  hlolint::SetHugePages(hlolint::HugePages::kOn);  // whatever this machine's policy
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
  if (!AdviceIsVisible()) return;
  // What hlolint chooses when an input is larger than kSmallInputBytes.
  hlolint::ConfigureMemoryForInputs({hlolint::kSmallInputBytes + 1});
  hlolint::SetHugePages(hlolint::HugePages::kOn);
  REQUIRE(hlolint::HugePageHeapInUse());
  // Middle-sized blocks come from the heap, which grows in 64 MB steps:
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

TEST_CASE("with huge pages off, big blocks are left to 4 KB pages", "[memory]") {
  if (!AdviceIsVisible()) return;
  hlolint::ReturnBigFreedBlocks();
  hlolint::SetHugePages(hlolint::HugePages::kOff);
  // Bigger than any free room the heaps of earlier tests (advised) can hold,
  // so malloc maps it on its own; never touched, so it costs no memory.
  auto big = std::make_unique_for_overwrite<char[]>(size_t{256} << 20);
  const std::string flags = VmFlagsOf(big.get() + hlolint::kHugePageAdviceBytes);
  const bool in_heap = hlolint::MapsLineAt(big.get()).find("[heap]") != std::string::npos;
  hlolint::SetHugePages(hlolint::HugePages::kOn);
  if (in_heap) {
    WARN("skipped: malloc served the block from a heap earlier tests left");
    return;
  }
  REQUIRE(!flags.empty());
  CHECK(flags.find(" hg") == std::string::npos);
}

TEST_CASE("big tables probed at random get huge pages, also where other memory does not",
          "[memory]") {
  if (!HugePagesAvailable()) {
    WARN("skipped: this kernel has no transparent huge pages or no /proc/self/smaps");
    return;
  }
  if (!hlolint::RandomAccessHugePages()) {
    WARN("skipped: HLOLINT_HUGE_PAGES is off in this environment");
    return;
  }
  hlolint::SetHugePages(hlolint::HugePages::kOff);  // as on a VM whose host takes memory back
  using Table = std::vector<uint64_t, hlolint::RandomAccessAllocator<uint64_t>>;
  const Table table(hlolint::kRandomAccessHugeBytes / sizeof(uint64_t));
  hlolint::SetHugePages(hlolint::HugePages::kOn);
  CHECK(reinterpret_cast<uintptr_t>(table.data()) % (uintptr_t{2} << 20) == 0);
  CHECK(VmFlagsOf(table.data()).find(" hg") != std::string::npos);
  // Smaller tables come from operator new, like any other block.
  const Table small(1024, 7);
  CHECK(small[1023] == 7);
}

namespace {

// A sysfs tree with one virtio balloon device offering these feature bits.
struct FakeSysfs {
  std::filesystem::path root;
  explicit FakeSysfs(const std::string& name) {
    root = std::filesystem::temp_directory_path() /
           ("hlolint-sysfs-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root);
  }
  ~FakeSysfs() { std::filesystem::remove_all(root); }
  void AddDevice(const std::string& device, const std::string& features) {
    const auto dir = root / "bus/virtio/drivers/virtio_balloon" / device;
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "features") << features << "\n";
  }
};

}  // namespace

TEST_CASE("free page reporting is read from the balloon device's feature bits", "[memory]") {
  // Bit 5 is VIRTIO_BALLOON_F_REPORTING; sysfs prints bit 0 first.
  FakeSysfs reporting("reporting");
  reporting.AddDevice("virtio0", "0110010100000000000000000000000010000000");
  CHECK(hlolint::HypervisorTakesFreePages(reporting.root.string()));

  FakeSysfs no_reporting("plain");
  no_reporting.AddDevice("virtio3", "0110000100000000000000000000000010000000");
  CHECK_FALSE(hlolint::HypervisorTakesFreePages(no_reporting.root.string()));

  FakeSysfs not_a_device("other");  // only entries named virtio* are devices
  not_a_device.AddDevice("module", "1111111111");
  CHECK_FALSE(hlolint::HypervisorTakesFreePages(not_a_device.root.string()));

  FakeSysfs absent("absent");  // no balloon driver at all
  CHECK_FALSE(hlolint::HypervisorTakesFreePages(absent.root.string()));
}

TEST_CASE("HLOLINT_HUGE_PAGES overrides the machine's huge-page policy", "[memory]") {
  ::setenv("HLOLINT_HUGE_PAGES", "off", 1);
  hlolint::SetHugePages(hlolint::HugePages::kAuto);
  CHECK_FALSE(hlolint::HugePagesPayOff());
  ::setenv("HLOLINT_HUGE_PAGES", "on", 1);
  hlolint::SetHugePages(hlolint::HugePages::kAuto);
  CHECK(hlolint::HugePagesPayOff());
  // An explicit choice beats the environment.
  hlolint::SetHugePages(hlolint::HugePages::kOff);
  CHECK_FALSE(hlolint::HugePagesPayOff());
  ::unsetenv("HLOLINT_HUGE_PAGES");
  hlolint::SetHugePages(hlolint::HugePages::kOn);
}
