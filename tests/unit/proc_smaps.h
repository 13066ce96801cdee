// Reading this process's /proc/self/smaps in tests: the mapping that holds
// an address, and one of its fields.
#pragma once

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

}  // namespace hlolint
