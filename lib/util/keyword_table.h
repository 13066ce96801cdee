// A fixed set of short strings (opcode and attribute names) looked up by a
// cheap hash of length and three characters in a small open-addressing
// table: the parser looks one up per instruction and per attribute, and a
// general hash map costs several times more per lookup. The table is built
// at compile time, so a lookup reads constant memory with no guard.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "util/hash.h"

namespace hlolint {

// Slots for `count` names: a power of two, at least 4 per name.
constexpr size_t KeywordSlotsFor(size_t count) {
  size_t slots = 64;
  while (slots < count * 4) slots *= 2;
  return slots;
}

template <typename Value, size_t kSlots>
class KeywordTable {
  static_assert((kSlots & (kSlots - 1)) == 0, "a power of two");

 public:
  // `names[i]` maps to Value(i); empty names are skipped.
  template <typename Names>
  constexpr KeywordTable(const Names& names, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const std::string_view name = names[i];
      if (name.empty()) continue;
      size_t k = Hash(name) & kMask;
      while (slots_[k].size != 0) k = (k + 1) & kMask;
      slots_[k] = Slot{name.data(), static_cast<uint32_t>(name.size()), static_cast<Value>(i)};
    }
  }

  // The value of `key`, or `missing`.
  Value Find(std::string_view key, Value missing) const {
    if (key.empty()) return missing;
    for (size_t k = Hash(key) & kMask;; k = (k + 1) & kMask) {
      const Slot& s = slots_[k];
      if (s.size == 0) return missing;
      if (s.size == key.size() && BytesEqual(s.data, key.data(), key.size())) return s.value;
    }
  }

 private:
  static constexpr size_t kMask = kSlots - 1;
  struct Slot {
    const char* data = nullptr;
    uint32_t size = 0;
    Value value{};
  };
  static constexpr size_t Hash(std::string_view n) {
    const auto c = [&](size_t i) { return static_cast<size_t>(static_cast<unsigned char>(n[i])); };
    return n.size() * 97 + c(0) * 7 + c(n.size() / 2) * 131 + c(n.size() - 1) * 1031;
  }
  std::array<Slot, kSlots> slots_{};
};

}  // namespace hlolint
