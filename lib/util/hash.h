// A fast hash and equality for short strings (names, keywords). Debian's
// Abseil hashes std::string_view through std::hash, several times slower.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace hlolint {

// a[0, n) == b[0, n), inline: names and keywords are short, and a call to
// memcmp with a variable size costs more than comparing them. Forced: with
// enough callers in one file GCC 12 stops inlining it, and the call costs
// more than the compare.
[[gnu::always_inline]] inline bool BytesEqual(const char* a, const char* b, size_t n) noexcept {
  const auto load64 = [](const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  };
  const auto load32 = [](const char* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  };
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      if (load64(a + i) != load64(b + i)) return false;
    }
    return load64(a + n - 8) == load64(b + n - 8);
  }
  if (n >= 4) return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
  if (n == 0) return true;
  return a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1];
}

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
