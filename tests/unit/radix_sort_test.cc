#include <algorithm>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "util/radix_sort.h"

namespace hlolint {
namespace {

TEST_CASE("SortKeysInPlace sorts like std::sort, with skewed and spread top bits", "[util]") {
  std::mt19937_64 random(7);
  for (size_t size : {0, 1, 5, 4096, 4097, 100000}) {
    // Top bits from a few values (big buckets), or spread like hashes.
    for (int top_shift : {62, 0}) {
      std::vector<uint64_t> keys(size);
      for (size_t i = 0; i < size; ++i) {
        keys[i] = (random() >> top_shift << top_shift) | (random() & 0xffff);
      }
      std::vector<uint64_t> expected = keys;
      std::sort(expected.begin(), expected.end());
      SortKeysInPlace(keys);
      INFO("size " << size << ", top shift " << top_shift);
      CHECK(keys == expected);
    }
  }
}

}  // namespace
}  // namespace hlolint
