// Positions of the few ids of a dense range that have an entry (fusions with
// pairs, calls with attributes), without a table per id: a bit per id and a
// running count per 64 ids, 1.1 bits per id in all where an array of
// 8-byte ranges costs 64. A lookup is a bit test and a population count.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hlolint {

class SparseIdIndex {
 public:
  static constexpr uint32_t kNone = 0xffffffffu;

  SparseIdIndex() = default;
  explicit SparseIdIndex(size_t ids) : bits_((ids + 63) / 64, 0), before_(bits_.size(), 0) {}

  // Gives `id` the next position (0, 1, ...). Ids come in increasing order.
  void Add(uint32_t id) {
    const size_t word = id / 64;
    // Words after the last one with an id hold none yet: every id added so
    // far comes before them.
    for (size_t w = last_word_ + 1; w <= word; ++w) before_[w] = added_;
    last_word_ = word;
    bits_[word] |= uint64_t{1} << (id % 64);
    ++added_;
  }

  // The position Add gave `id`, or kNone.
  uint32_t Find(uint32_t id) const {
    const size_t word = id / 64;
    if (word >= bits_.size()) return kNone;
    const uint64_t bit = uint64_t{1} << (id % 64);
    if (!(bits_[word] & bit)) return kNone;
    return before_[word] + static_cast<uint32_t>(std::popcount(bits_[word] & (bit - 1)));
  }

  size_t size() const { return added_; }

 private:
  std::vector<uint64_t> bits_;
  std::vector<uint32_t> before_;  // ids added in the words before this one
  size_t last_word_ = 0;          // the word of the last id added
  uint32_t added_ = 0;
};

}  // namespace hlolint
