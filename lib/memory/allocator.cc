#include "memory/allocator.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <limits>

namespace hlolint {

void ReturnBigFreedBlocks() { mallopt(M_MMAP_THRESHOLD, 256 * 1024); }

void KeepFreedMemoryIfInputsAreSmall(const std::vector<uint64_t>& sizes) {
  if (sizes.empty()) return;
  if (*std::max_element(sizes.begin(), sizes.end()) > kSmallInputBytes) return;
  // The largest threshold glibc accepts (its own ceiling for the dynamic
  // one): a 16 MB file's biggest array (~10 MB of instructions) fits.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  // Free memory at the top of a heap is given back only past this much.
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
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
