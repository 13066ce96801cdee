// A fast hash for short strings (names, keywords). Debian's Abseil hashes
// std::string_view through std::hash, which is several times slower.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace hlolint {

struct StringViewHash {
  // The n < 8 bytes at p as a little-endian integer (what a memcpy into a
  // zeroed uint64_t gives), read with at most two loads instead of a call
  // to memcpy with a variable size.
  static uint64_t LoadTail(const char* p, size_t n) noexcept {
    if (n >= 4) {
      uint32_t lo, hi;
      std::memcpy(&lo, p, 4);
      std::memcpy(&hi, p + n - 4, 4);
      return lo | (static_cast<uint64_t>(hi) << (8 * (n - 4)));
    }
    if (n == 0) return 0;
    const auto byte = [p](size_t i) { return static_cast<uint64_t>(static_cast<unsigned char>(p[i])); };
    return byte(0) | (byte(n / 2) << (8 * (n / 2))) | (byte(n - 1) << (8 * (n - 1)));
  }

  size_t operator()(std::string_view s) const noexcept {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (s.size() * 0xff51afd7ed558ccdull);
    const char* p = s.data();
    size_t n = s.size();
    while (n >= 8) {
      uint64_t v;
      std::memcpy(&v, p, 8);
      h = (h ^ v) * 0xbf58476d1ce4e5b9ull;
      h ^= h >> 31;
      p += 8;
      n -= 8;
    }
    h = (h ^ LoadTail(p, n)) * 0x94d049bb133111ebull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

}  // namespace hlolint
