// Instruction-name lookup for one computation scope: open addressing with
// linear probing over a power-of-two array, clearable in O(1) by bumping a
// generation counter, so one table serves thousands of computations without
// reallocating.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/hash.h"
#include "util/prefetch.h"

namespace hlolint {

class NameTable {
 public:
  static constexpr uint32_t kNotFound = 0xffffffffu;
  static constexpr size_t kKeptSlots = 4096;

  NameTable() { slots_.resize(64); }

  void Clear() {
    size_ = 0;
    if (++generation_ == 0) {  // wrapped: really wipe
      for (Slot& s : slots_) s.generation = 0;
      generation_ = 1;
    }
  }

  static uint32_t HashOf(std::string_view name) {
    return static_cast<uint32_t>(StringViewHash()(name));
  }

  // Starts loading the slot where a name with this hash goes: in a table of
  // a big computation that is a cache miss, hidden if the insert comes later.
  // Two lines: a 24-byte slot may straddle them, and an insert probes on
  // past the slots taken.
  void Prefetch(uint32_t hash) const {
    const char* slot = reinterpret_cast<const char*>(&slots_[hash & (slots_.size() - 1)]);
    PrefetchForRead(slot);
    PrefetchForRead(slot + 64);
  }

  uint32_t Find(std::string_view name) const { return FindHashed(name, HashOf(name)); }
  // Find with `hash` == HashOf(name) already computed.
  uint32_t FindHashed(std::string_view name, uint32_t hash) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.generation != generation_) return kNotFound;
      if (s.hash == hash && s.size == name.size() &&
          BytesEqual(s.data, name.data(), name.size())) {
        return s.value;
      }
    }
  }

  // Clears, and gives back the memory of a table grown large (the parser
  // calls it before rules run, so a big computation's table does not stay).
  void Release() {
    if (slots_.size() <= kKeptSlots) {
      Clear();
      return;
    }
    std::vector<Slot>(64).swap(slots_);
    size_ = 0;
    generation_ = 1;
  }

  // Inserts unless present; returns the value now stored under `name`.
  uint32_t Insert(std::string_view name, uint32_t value) {
    return InsertHashed(name, HashOf(name), value);
  }
  // Insert with `hash` == HashOf(name) already computed.
  uint32_t InsertHashed(std::string_view name, uint32_t hash, uint32_t value) {
    if ((size_ + 1) * 4 > slots_.size() * 3) Grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.generation != generation_) {
        s = Slot{name.data(), static_cast<uint32_t>(name.size()), value, hash, generation_};
        ++size_;
        return value;
      }
      if (s.hash == hash && s.size == name.size() &&
          BytesEqual(s.data, name.data(), name.size())) {
        return s.value;
      }
    }
  }

 private:
  // 24 bytes: the table of a computation with millions of instructions is
  // among the largest blocks the parser holds. 32 hash bits index and
  // pre-filter (tables stay far below 2^32 slots).
  struct Slot {
    const char* data = nullptr;
    uint32_t size = 0;
    uint32_t value = 0;
    uint32_t hash = 0;
    uint32_t generation = 0;
  };

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    const uint32_t live = generation_;
    generation_ = 1;
    size_ = 0;
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.generation != live) continue;
      for (size_t i = s.hash & mask;; i = (i + 1) & mask) {
        if (slots_[i].generation != generation_) {
          slots_[i] = s;
          slots_[i].generation = generation_;
          ++size_;
          break;
        }
      }
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  uint32_t generation_ = 1;
};

// A NameTable that keeps its own copy of every name it holds, so lookups
// compare against the copy instead of the source text. For computation
// names: the entry computation refers to computations defined all over the
// text before it, and comparing against their definitions would map that
// text back in while the parser releases it (SourceFile::ReleasePages).
class CopyingNameTable {
 public:
  static constexpr uint32_t kNotFound = NameTable::kNotFound;

  // Dumps print computations in about the order the entry calls them: the
  // name found last and the two inserted after it are tried first (their
  // copies lie side by side), before the table, whose slots in a module of
  // 100,000s of computations are each a cache miss.
  uint32_t Find(std::string_view name) const { return FindHashed(name, NameTable::HashOf(name)); }
  // Find with `hash` == NameTable::HashOf(name) already computed.
  uint32_t FindHashed(std::string_view name, uint32_t hash) const {
    const uint32_t recent = FindRecent(name);
    return recent != kNotFound ? recent : FindInTable(name, hash);
  }
  // Starts loading the table slot of a name to be inserted later.
  void Prefetch(std::string_view name) const { table_.Prefetch(NameTable::HashOf(name)); }
  // Inserts unless present; returns the value now stored under `name`. The
  // name is hashed once, for the search and the insert.
  uint32_t Insert(std::string_view name, uint32_t value) {
    const uint32_t recent = FindRecent(name);
    if (recent != kNotFound) return recent;
    const uint32_t hash = NameTable::HashOf(name);
    const uint32_t found = FindInTable(name, hash);
    if (found != kNotFound) return found;
    const std::string_view copy = Copy(name);
    table_.InsertHashed(copy, hash, static_cast<uint32_t>(order_.size()));
    order_.push_back(Entry{copy.data(), static_cast<uint32_t>(copy.size()), value});
    return value;
  }
  // The names in the order they were inserted, with their values.
  size_t size() const { return order_.size(); }
  std::string_view name(size_t index) const { return {order_[index].data, order_[index].size}; }
  uint32_t value(size_t index) const { return order_[index].value; }
  void Clear() {
    table_.Clear();
    ResetArena(kChunkBytes * 4);
    ResetOrder(NameTable::kKeptSlots);
  }
  void Release() {
    table_.Release();
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
    const uint32_t index = table_.FindHashed(name, hash);
    if (index == kNotFound) return kNotFound;
    last_found_ = index;
    return order_[index].value;
  }
  void ResetOrder(size_t keep) {
    if (order_.capacity() > keep) std::vector<Entry>().swap(order_);
    order_.clear();
    last_found_ = 0;
  }

  static constexpr size_t kChunkBytes = 64 << 10;

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

  NameTable table_;  // name -> index in order_
  std::vector<Entry> order_;  // in insertion order
  mutable size_t last_found_ = 0;
  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t kept_bytes_ = 0;
  size_t used_ = kChunkBytes;  // no chunk yet
};

// A set of names by one bit of their hash (NameTable::HashOf) in 16 KB: no
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
// resolves (ModuleParser::LookupComputation). Not a CopyingNameTable: an
// entry computation calls a different computation on nearly every line,
// and looking each new name up in a table of 100,000s would be a cache miss
// per call. A small direct-mapped cache finds the names called again and
// again (a reducer); a name it has lost is entered again, under an id of its
// own, which the merge resolves like any other.
class ExternalNames {
 public:
  // The index of the entry for `name`, added unless the cache has it.
  uint32_t Refer(std::string_view name) { return ReferHashed(name, NameTable::HashOf(name)); }
  // Refer with `hash` == NameTable::HashOf(name) already computed.
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
