// Linear-time sort of 64-bit keys by their upper 32 bits (LSD radix, three
// passes of 11 bits). Stable: keys with equal upper halves keep their input
// order. Used where a hash table over a million entries would miss the cache
// on every probe, while three sequential passes do not.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace hlolint {

inline void RadixSortByHigh32(std::vector<uint64_t>& keys) {
  if (keys.size() <= 64) {  // small inputs: the counters would cost more
    std::stable_sort(keys.begin(), keys.end(),
                     [](uint64_t a, uint64_t b) { return (a >> 32) < (b >> 32); });
    return;
  }
  std::vector<uint64_t> scratch(keys.size());
  constexpr int kBits = 11;
  constexpr size_t kBuckets = size_t{1} << kBits;
  for (int shift = 32; shift < 64; shift += kBits) {
    std::array<uint32_t, kBuckets> count{};
    for (uint64_t k : keys) ++count[(k >> shift) & (kBuckets - 1)];
    uint32_t sum = 0;
    for (uint32_t& c : count) {
      const uint32_t n = c;
      c = sum;
      sum += n;
    }
    for (uint64_t k : keys) scratch[count[(k >> shift) & (kBuckets - 1)]++] = k;
    keys.swap(scratch);
  }
}

}  // namespace hlolint
