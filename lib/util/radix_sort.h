// In-place sort of 64-bit keys (hashes with a payload in their low bits).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace hlolint {

// Sorts 64-bit keys in place, without scratch the size of the input: one
// in-place pass (American flag sort) by the top 16 bits, then each bucket
// with std::sort. Keys spread evenly in their top bits (hashes) leave
// buckets of a few dozen keys, so this is linear in practice. Not stable.
inline void SortKeysInPlace(std::span<uint64_t> keys) {
  if (keys.size() <= 4096) {
    std::sort(keys.begin(), keys.end());
    return;
  }
  constexpr int kShift = 48;
  constexpr size_t kBuckets = size_t{1} << (64 - kShift);
  std::vector<size_t> end(kBuckets, 0);
  for (uint64_t k : keys) ++end[k >> kShift];
  std::vector<size_t> next(kBuckets);
  size_t sum = 0;
  for (size_t b = 0; b < kBuckets; ++b) {
    next[b] = sum;
    sum += end[b];
    end[b] = sum;
  }
  for (size_t b = 0; b < kBuckets; ++b) {
    while (next[b] < end[b]) {
      uint64_t k = keys[next[b]];
      for (size_t d = k >> kShift; d != b; d = k >> kShift) std::swap(k, keys[next[d]++]);
      keys[next[b]++] = k;
    }
  }
  size_t begin = 0;
  for (size_t b = 0; b < kBuckets; ++b) {
    std::sort(keys.begin() + static_cast<std::ptrdiff_t>(begin),
              keys.begin() + static_cast<std::ptrdiff_t>(end[b]));
    begin = end[b];
  }
}

}  // namespace hlolint
