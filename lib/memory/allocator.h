// Memory policy of hlolint's executables: how long freed memory stays
// resident (glibc malloc settings) and which blocks get huge pages
// (huge_page_new.cc, linked into each executable).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hlolint {

// Inputs up to this size are "small": keeping the freed memory of one file
// for the next costs at most a few times this much.
inline constexpr uint64_t kSmallInputBytes = uint64_t{16} << 20;

// At start-up: big blocks (IR arrays, analyses, scratch) come from mmap and
// go back to the system when freed, so freed scratch of a large file never
// adds to the peak. glibc's default raises this threshold after the first
// big free, and freed scratch would then stay resident. Also resolves the
// huge-page policy (HugePagesPayOff).
void ReturnBigFreedBlocks();

// Before linting: the memory policy for these inputs (a huge-page heap, see
// UseHugePageHeap). `sizes` are the input sizes in bytes; unknown (streams)
// counts as large.
//  * No input larger than kSmallInputBytes: freed memory stays in the heap,
//    so each file's IR arrays are carved from pages the previous file
//    already touched, rather than mapped, zero-filled and unmapped again
//    (with --jobs > 1 every munmap also flushes the other threads' TLBs).
//    Each file worker keeps a heap of its own (no lock shared per malloc).
//  * Otherwise every thread allocates from the one huge-page heap: the
//    threads that parse and check one large module share it.
void ConfigureMemoryForInputs(const std::vector<uint64_t>& sizes);

// Every block below 32 MB comes from the heap, which grows in 64 MB steps
// and (where HugePagesPayOff) is advised to use transparent huge pages as it
// grows (the main arena; with `one_arena`, every thread's); bigger blocks
// are mapped 2 MB-aligned and advised too. Where a fresh 4 KB page costs a
// page fault (dear on virtual machines with shadow page tables), memory then
// costs a fault per 2 MB instead. Call before starting threads.
void UseHugePageHeap(bool one_arena);
// True once UseHugePageHeap was called (operator new then advises the
// heap's growth).
bool HugePageHeapInUse();
// The heap has grown since the last call: advise its new part to use huge
// pages (called by operator new after each allocation in that mode).
void AdviseHeapGrowth();

// Blocks at least this big are advised to use transparent huge pages: one
// allocation of 4 MB holds at least one whole aligned 2 MB page.
inline constexpr std::size_t kHugePageAdviceBytes = std::size_t{4} << 20;

// Asks the kernel for transparent huge pages on the whole pages of
// [block, block + size), where HugePagesPayOff. Only advice: ignored where
// THP is off.
void AdviseHugePages(void* block, std::size_t size);

// Whether fresh anonymous memory is asked for in huge pages.
enum class HugePages { kAuto, kOn, kOff };

// kAuto: on, unless the environment variable HLOLINT_HUGE_PAGES says `on` or
// `off`, or the kernel gives free memory back to its hypervisor
// (HypervisorTakesFreePages). There a fresh 2 MB page is most often one the
// host has taken back, and the host backs it anew 4 KB at a time on first
// touch: several times the cost of 4 KB pages, which the kernel carves from
// free memory the host still backs (docs/performance.md).
// ReturnBigFreedBlocks and ConfigureMemoryForInputs resolve it, outside
// operator new (resolving allocates); until then it counts as on.
bool HugePagesPayOff();
void ResolveHugePages();  // kAuto decided, unless already resolved or set
void SetHugePages(HugePages choice);

// True if a virtio balloon device under `sysfs` (normally "/sys") offers
// free page reporting (VIRTIO_BALLOON_F_REPORTING, feature bit 5): the
// kernel then reports free blocks of 2 MB or more to the host, which
// unbacks them.
bool HypervisorTakesFreePages(const std::string& sysfs);

// The size of `path` if it is a regular file, else UINT64_MAX.
uint64_t RegularFileSize(const std::string& path);

}  // namespace hlolint
