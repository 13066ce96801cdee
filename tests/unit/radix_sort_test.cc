#include <algorithm>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "util/radix_sort.h"

namespace hlolint {
namespace {

std::vector<uint64_t> StableSortedByHigh32(std::vector<uint64_t> keys) {
  std::stable_sort(keys.begin(), keys.end(),
                   [](uint64_t a, uint64_t b) { return (a >> 32) < (b >> 32); });
  return keys;
}

TEST_CASE("RadixSortByHigh32 sorts by the upper half and keeps input order on ties",
          "[util]") {
  std::mt19937_64 random(7);
  for (size_t size : {0, 1, 5, 64, 65, 1000, 100000}) {
    for (uint64_t high_range : {uint64_t{3}, uint64_t{1} << 32}) {
      std::vector<uint64_t> keys(size);
      for (size_t i = 0; i < size; ++i) keys[i] = ((random() % high_range) << 32) | i;
      const std::vector<uint64_t> expected = StableSortedByHigh32(keys);
      RadixSortByHigh32(keys);
      INFO("size " << size << ", high range " << high_range);
      CHECK(keys == expected);
    }
  }
}

}  // namespace
}  // namespace hlolint
