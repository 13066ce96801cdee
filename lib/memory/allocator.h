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
// big free, and freed scratch would then stay resident.
void ReturnBigFreedBlocks();

// Before linting: when no input is larger than kSmallInputBytes, keep freed
// memory in the heap instead. Each file's IR arrays are then carved from
// pages the previous file already touched, rather than mmap'd, zero-filled
// page by page and unmapped again (with --jobs > 1 every munmap also flushes
// the other threads' TLBs). A heap keeps about what one file needed at
// once. `sizes` are the input sizes in bytes; unknown (streams) counts as
// large.
void KeepFreedMemoryIfInputsAreSmall(const std::vector<uint64_t>& sizes);

// Blocks at least this big are advised to use transparent huge pages: one
// allocation of 4 MB holds at least one whole aligned 2 MB page.
inline constexpr std::size_t kHugePageAdviceBytes = std::size_t{4} << 20;

// Asks the kernel for transparent huge pages on the whole pages of
// [block, block + size). Only advice: ignored where THP is off.
void AdviseHugePages(void* block, std::size_t size);

// The size of `path` if it is a regular file, else UINT64_MAX.
uint64_t RegularFileSize(const std::string& path);

}  // namespace hlolint
