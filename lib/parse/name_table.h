// Name tables of the parser that keep their own copies of names (computation
// names, attribute values, shapes), a filter in front of one, and the
// computations a fragment refers to but does not define.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parse/scope_name_table.h"
#include "util/hash.h"

namespace hlolint {

// The hash the parser's name tables index by: 32 bits of the name's
// 64-bit StringViewHash.
inline uint32_t NameHashOf(std::string_view name) {
  return static_cast<uint32_t>(StringViewHash()(name));
}

// A name table that keeps its own copy of every name it holds, so lookups
// compare against the copy instead of the source text. For computation
// names: the entry computation refers to computations defined all over the
// text before it, and comparing against their definitions would map that
// text back in while the parser releases it (SourceFile::ReleasePages).
// Its index is a ScopeNameTable, 8 bytes a slot (the entry's position and
// 32 hash bits; the name is compared in the entry list): small slots fault
// in less fresh memory for a module of many computations.
class CopyingNameTable {
  // Whether the entry with table id `id` is named `name`.
  struct NamedAs {
    const CopyingNameTable* table;
    std::string_view name;
    [[gnu::always_inline]] bool operator()(uint32_t id) const {
      const Entry& e = table->order_[id - table->first_id_];
      return e.size == name.size() && BytesEqual(e.data, name.data(), name.size());
    }
  };

 public:
  static constexpr uint32_t kNotFound = ScopeNameTable::kNotFound;

  // Dumps print computations in about the order the entry calls them: the
  // name found last and the two inserted after it are tried first (their
  // copies lie side by side), before the table, whose slots in a module of
  // 100,000s of computations are each a cache miss.
  uint32_t Find(std::string_view name) const { return FindHashed(name, NameHashOf(name)); }
  // Find with `hash` == NameHashOf(name) already computed.
  uint32_t FindHashed(std::string_view name, uint32_t hash) const {
    const uint32_t recent = FindRecent(name);
    return recent != kNotFound ? recent : FindInTable(name, hash);
  }
  // Starts loading the table slot of a name to be inserted later.
  void Prefetch(std::string_view name) const { table_.Prefetch(NameHashOf(name)); }
  // Inserts unless present; returns the value now stored under `name`. The
  // name is hashed once, and the table probed once, for the search and the
  // insert.
  uint32_t Insert(std::string_view name, uint32_t value) {
    const uint32_t recent = FindRecent(name);
    if (recent != kNotFound) return recent;
    const uint32_t hash = NameHashOf(name);
    const uint32_t id = first_id_ + static_cast<uint32_t>(order_.size());
    const uint32_t stored = table_.InsertHashedIf(hash, id, NamedAs{this, name});
    if (stored != id) {
      last_found_ = stored - first_id_;
      return order_[last_found_].value;
    }
    const std::string_view copy = Copy(name);
    // Field by field: an Entry built on the stack is stored in two halves
    // and copied in one 16-byte load, which stalls on store forwarding.
    Entry& entry = order_.emplace_back();
    entry.data = copy.data();
    entry.size = static_cast<uint32_t>(copy.size());
    entry.value = value;
    return value;
  }
  // The names in the order they were inserted, with their values.
  size_t size() const { return order_.size(); }
  std::string_view name(size_t index) const { return {order_[index].data, order_[index].size}; }
  uint32_t value(size_t index) const { return order_[index].value; }
  // Empties the table in O(1): the next entries get ids after this
  // generation's, and the index takes smaller ids for empty slots.
  void Clear() {
    StartGeneration();
    ResetArena(kChunkBytes * 4);
    ResetOrder(ScopeNameTable::kKeptSlots);
  }
  void Release() {
    table_.Release();
    first_id_ = 0;
    ResetArena(0);
    ResetOrder(0);
  }

 private:
  struct Entry {
    const char* data;
    uint32_t size;
    uint32_t value;
  };
  // The name found last and the two inserted after it.
  uint32_t FindRecent(std::string_view name) const {
    const size_t stop = std::min(order_.size(), last_found_ + 3);
    for (size_t i = last_found_; i < stop; ++i) {
      const Entry& e = order_[i];
      if (e.size == name.size() && BytesEqual(e.data, name.data(), name.size())) {
        last_found_ = i;
        return e.value;
      }
    }
    return kNotFound;
  }
  uint32_t FindInTable(std::string_view name, uint32_t hash) const {
    const uint32_t id = table_.FindHashedIf(hash, NamedAs{this, name});
    if (id == kNotFound) return kNotFound;
    last_found_ = id - first_id_;
    return order_[last_found_].value;
  }
  void StartGeneration() {
    // Ids run on across generations; near the top they start again at 0,
    // and the index, given a first id below its last, wipes its slots.
    const uint64_t next = uint64_t{first_id_} + order_.size();
    first_id_ = next >= kIdLimit ? 0 : static_cast<uint32_t>(next);
    table_.Begin(first_id_);
  }
  void ResetOrder(size_t keep) {
    if (order_.capacity() > keep) std::vector<Entry>().swap(order_);
    order_.clear();
    last_found_ = 0;
  }

  static constexpr size_t kChunkBytes = 64 << 10;
  // Ids stay below this (ScopeNameTable stores id + 1 in 32 bits; one
  // generation holds fewer entries than a module has bytes, under 4 GiB).
  static constexpr uint64_t kIdLimit = uint64_t{1} << 31;

  std::string_view Copy(std::string_view name) {
    if (name.size() > kChunkBytes - used_) {
      // Not zeroed: only copied names are read back, and a module's first
      // chunk (64 KB) would cost more to clear than its names to copy.
      chunks_.push_back(std::make_unique_for_overwrite<char[]>(std::max(kChunkBytes, name.size())));
      kept_bytes_ += std::max(kChunkBytes, name.size());
      used_ = 0;
    }
    char* copy = chunks_.back().get() + used_;
    std::memcpy(copy, name.data(), name.size());
    used_ += name.size();
    return {copy, name.size()};
  }
  // Frees the chunks, or keeps the first when they total at most `keep`.
  void ResetArena(size_t keep) {
    if (kept_bytes_ > keep || (keep == 0 && !chunks_.empty())) {
      chunks_.clear();
      kept_bytes_ = 0;
      used_ = kChunkBytes;  // the next copy starts a chunk
    } else if (!chunks_.empty()) {
      chunks_.resize(1);
      kept_bytes_ = kChunkBytes;
      used_ = 0;
    }
  }

  ScopeNameTable table_;  // name -> first_id_ + index in order_
  uint32_t first_id_ = 0;  // the table id of order_[0]
  std::vector<Entry> order_;  // in insertion order
  mutable size_t last_found_ = 0;
  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t kept_bytes_ = 0;
  size_t used_ = kChunkBytes;  // no chunk yet
};

// A set of names by one bit of their hash (NameHashOf) in 16 KB: no
// false "no", about one false "maybe" in eight at 16,000 names. In front of
// a table of thousands of names that most lookups miss, where each probe
// would be a cache miss.
class NameFilter {
 public:
  void Add(uint32_t hash) {
    if (bits_.empty()) bits_.resize(kBits / 64);  // only parsers that use it pay for it
    bits_[Word(hash)] |= Bit(hash);
  }
  bool MayHold(uint32_t hash) const {
    return !bits_.empty() && (bits_[Word(hash)] & Bit(hash)) != 0;
  }

 private:
  static constexpr uint32_t kBits = 1u << 17;
  // The high bits: the tables index by the low ones.
  static uint32_t Index(uint32_t hash) { return (hash >> 15) & (kBits - 1); }
  static size_t Word(uint32_t hash) { return Index(hash) / 64; }
  static uint64_t Bit(uint32_t hash) { return uint64_t{1} << (Index(hash) % 64); }
  std::vector<uint64_t> bits_;
};

// The computations a fragment of a module calls but does not define, one
// entry per name in the order first met, each standing for an id the merge
// resolves (NameResolver::FindComputation). Not a CopyingNameTable: an
// entry computation calls a different computation on nearly every line,
// and looking each new name up in a table of 100,000s would be a cache miss
// per call. A small direct-mapped cache finds the names called again and
// again (a reducer); a name it has lost is entered again, under an id of its
// own, which the merge resolves like any other.
class ExternalNames {
 public:
  // The index of the entry for `name`, added unless the cache has it.
  uint32_t Refer(std::string_view name) { return ReferHashed(name, NameHashOf(name)); }
  // Refer with `hash` == NameHashOf(name) already computed.
  uint32_t ReferHashed(std::string_view name, uint32_t hash) {
    // The hash first: a slot holding another name is told without reading
    // that name's entry, a cache miss away.
    CacheSlot& slot = cache_[hash & (kCacheSlots - 1)];
    if (slot.hash == hash && slot.index != kEmpty) {
      const Entry& e = entries_[slot.index];
      if (e.size == name.size() && BytesEqual(text_.data() + e.offset, name.data(), name.size())) {
        return slot.index;
      }
    }
    slot = CacheSlot{static_cast<uint32_t>(entries_.size()), hash};
    entries_.push_back(Entry{static_cast<uint32_t>(text_.size()), static_cast<uint32_t>(name.size())});
    text_.append(name);
    return slot.index;
  }
  size_t size() const { return entries_.size(); }
  std::string_view name(size_t index) const {
    return {text_.data() + entries_[index].offset, entries_[index].size};
  }

 private:
  static constexpr size_t kCacheSlots = 1024;
  static constexpr uint32_t kEmpty = 0xffffffffu;
  struct Entry {
    uint32_t offset;
    uint32_t size;
  };
  std::string text_;
  std::vector<Entry> entries_;
  struct CacheSlot {
    uint32_t index = kEmpty;
    uint32_t hash = 0;
  };
  std::array<CacheSlot, kCacheSlots> cache_{};
};

}  // namespace hlolint
