// Reading this process's /proc/self/smaps in tests: the mapping that holds
// an address, and one of its fields.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace hlolint {

// The line starting with `field` (e.g. "Rss:", "VmFlags:") in the smaps
// entry of the mapping holding `address`, or "" (no such mapping or field).
inline std::string SmapsField(const void* address, std::string_view field) {
  const auto target = reinterpret_cast<uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= target && target < end;
    } else if (inside && line.rfind(field, 0) == 0) {
      return line;
    }
  }
  return "";
}

// Resident KB of every mapping that overlaps [begin, end) (a large file's
// text is several: memory read in, and the file mapped over what was
// released), or -1 when /proc/self/smaps has none.
inline long ResidentKbInRange(const void* begin, const void* end) {
  const auto lo = reinterpret_cast<uintptr_t>(begin);
  const auto hi = reinterpret_cast<uintptr_t>(end);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  long total = -1;
  while (std::getline(smaps, line)) {
    uintptr_t first = 0, last = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> first >> dash >> last && dash == '-') {
      inside = first < hi && lo < last;
    } else if (inside && line.rfind("Rss:", 0) == 0) {
      total = std::max(total, 0L) + std::stol(line.substr(4));
    }
  }
  return total;
}

// The /proc/self/maps line of the mapping holding `address` ("" when
// nothing is mapped there).
inline std::string MapsLineAt(const void* address) {
  const auto target = reinterpret_cast<uintptr_t>(address);
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream fields(line);
    if ((fields >> std::hex >> begin >> dash >> end) && begin <= target && target < end) {
      return line;
    }
  }
  return "";
}

// The path of the file mapped at `address` (/proc/self/maps), or "" when
// the memory there is anonymous or unmapped.
inline std::string MappedPathAt(const void* address) {
  const std::string line = MapsLineAt(address);
  const size_t slash = line.find('/');
  return slash == std::string::npos ? "" : line.substr(slash);
}

// Whether the page holding `address` is in this process's page tables
// (bit 63 of its /proc/self/pagemap entry, readable without privileges):
// 1 or 0, or -1 when pagemap cannot be read.
// (pread: the kernel takes reads of whole 8-byte entries only.)
inline int PagePresent(const void* address) {
  const int fd = ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  uint64_t entry = 0;
  const ssize_t got = ::pread(fd, &entry, sizeof entry,
                              static_cast<off_t>(reinterpret_cast<uintptr_t>(address) / page * 8));
  ::close(fd);
  return got == static_cast<ssize_t>(sizeof entry) ? static_cast<int>(entry >> 63) : -1;
}

}  // namespace hlolint
