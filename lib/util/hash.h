// A fast hash for short strings (names, keywords). Debian's Abseil hashes
// std::string_view through std::hash, which is several times slower.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace hlolint {

struct StringViewHash {
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
    uint64_t v = 0;
    std::memcpy(&v, p, n);
    h = (h ^ v) * 0x94d049bb133111ebull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

}  // namespace hlolint
