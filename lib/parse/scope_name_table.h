// Instruction-name lookup for one computation scope, 8 bytes a slot: an
// instruction's id and 32 bits of its name's hash. Whether a candidate id
// has the name sought is the caller's `has_name(id)`, asked only on a hash
// match (the parser's compares the 64-bit hashes it keeps per instruction
// before the text; see ModuleParser::NamedAs). A module's largest
// computation (a scheduled entry of millions of instructions) makes its
// table one of the biggest blocks the parse touches, and on machines where
// fresh memory is dear (virtual machines whose host takes freed pages back)
// small slots save more page zeroing than a name's address in the slot
// would save in lookups. Its slots, from 16 MB on, are in huge pages
// (RandomAccessAllocator): probes at random into a table of 4 KB pages also
// miss the TLB. CopyingNameTable indexes its entries with one too.
//
// A scope's instructions have consecutive ids from `first_id` on (nested
// scopes have tables of their own), so Begin(first_id) empties the table in
// O(1): an entry of an earlier scope has a smaller id.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "memory/random_access_allocator.h"
#include "util/prefetch.h"

namespace hlolint {

class ScopeNameTable {
 public:
  static constexpr uint32_t kNotFound = 0xffffffffu;
  static constexpr size_t kKeptSlots = 4096;

  ScopeNameTable() { slots_.resize(64); }

  // Starts a scope whose instructions have ids from `first_id` on. Ids that
  // start again lower (the next module) wipe the table for real.
  void Begin(uint32_t first_id) {
    queued_ = 0;  // flushed by the parser at the end of each scope
    if (first_id < base_) {
      std::fill(slots_.begin(), slots_.end(), Slot{});
      recent_.fill(Slot{});
    }
    base_ = first_id;
    size_ = 0;
  }

  // Makes room for `count` names without growing, when the next scope is
  // expected to be that large (growing through every power of two rehashes
  // and allocates about as much again), in at most `max_bytes` (a guess
  // must not cost much when it is wrong). Call before Begin; entries of
  // earlier scopes are dropped.
  void Reserve(size_t count, size_t max_bytes) {
    size_t slots = slots_.size();
    while ((count + 1) * 4 > slots * 3 && (slots * 2) * sizeof(Slot) <= max_bytes) slots *= 2;
    if (slots == slots_.size()) return;
    queued_ = 0;
    slots_.assign(slots, Slot{});
    recent_.fill(Slot{});
    base_ = 0;
    size_ = 0;
  }

  // Grows the table now so that the next `count` inserts do not, which
  // makes them undoable (UndoInsert). No insert may be queued
  // (FlushQueue).
  void MakeRoomFor(size_t count) {
    while ((size_ + count + 1) * 4 > slots_.size() * 3) Grow();
  }

  // Takes back the insert of `id` under `hash`. Inserts made since
  // MakeRoomFor and undone last first leave the table as it was before
  // them: with linear probing each went to the first free slot of its
  // probe sequence, which is free again once every later one is undone.
  void UndoInsert(uint32_t hash, uint32_t id) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask, probes = 0; probes <= mask; i = (i + 1) & mask, ++probes) {
      if (slots_[i].stored == id + 1) {
        slots_[i] = Slot{};
        --size_;
        break;
      }
    }
    // The insert left the id here unless a later one (undone already, and
    // emptied then) replaced it: either way no undone id stays behind.
    Slot& r = recent_[RecentIndex(hash)];
    if (r.stored == id + 1) r = Slot{};
  }

  // The table's memory (tests check Reserve's bound with it).
  size_t SlotBytes() const { return slots_.size() * sizeof(Slot); }

  // Starts loading the slot where a name with this hash goes.
  void Prefetch(uint32_t hash) const { PrefetchForRead(&slots_[hash & (slots_.size() - 1)]); }

  // The id whose name has this hash and passes `has_name(id)`, or kNotFound.
  template <typename HasName>
  uint32_t FindHashedIf(uint32_t hash, const HasName& has_name) const {
    const Slot& r = recent_[RecentIndex(hash)];
    if (Live(r) && r.hash == hash && has_name(r.stored - 1)) return r.stored - 1;
    for (size_t k = 0; k < queued_; ++k) {
      const Slot& q = queue_[(queue_head_ + k) & (kQueued - 1)];
      if (q.hash == hash && has_name(q.stored - 1)) return q.stored - 1;
    }
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (!Live(s)) return kNotFound;
      if (s.hash == hash && has_name(s.stored - 1)) return s.stored - 1;
    }
  }

  // Inserts `id` under `hash` unless a live entry with that hash passes
  // `has_name`; returns the id now stored under the name. `id` is at least
  // the scope's first id.
  template <typename HasName>
  uint32_t InsertHashedIf(uint32_t hash, uint32_t id, const HasName& has_name) {
    const Clash clash = InsertNow({id + 1, hash}, has_name, /*recent=*/true);
    return clash ? clash.existing : id;
  }

  // An insert that found its name taken: `id`, the later definition, and
  // `existing`, the earlier.
  struct Clash {
    uint32_t id = kNotFound;
    uint32_t existing = kNotFound;
    explicit operator bool() const { return id != kNotFound; }
  };

  // Inserts `id` under `hash` or, in a table too large for the cache,
  // queues the insert: the slot, prefetched when the name was read, is then
  // written kQueued inserts later, when it has arrived, rather than waited
  // for. Lookups see queued names.
  // Returns the clash of the insert made now (this one, or the oldest
  // queued one, which this one pushes out); `same_name(a, b)` tells whether
  // ids a and b have the same name. A parser that queues calls FlushQueue
  // at the end of the scope and before reporting any other error, so that
  // a clash is reported where an insert at once would have found it.
  template <typename SameName>
  Clash InsertOrQueue(uint32_t hash, uint32_t id, const SameName& same_name) {
    const Slot fresh{id + 1, hash};
    if (slots_.size() < kQueueMinSlots) {
      return InsertNow(fresh, NamedAsId(same_name, id), /*recent=*/true);
    }
    recent_[RecentIndex(hash)] = fresh;
    if (queued_ < kQueued) {
      queue_[(queue_head_ + queued_++) & (kQueued - 1)] = fresh;
      return {};
    }
    const Slot oldest = queue_[queue_head_];
    queue_[queue_head_] = fresh;
    queue_head_ = (queue_head_ + 1) & (kQueued - 1);
    return InsertNow(oldest, NamedAsId(same_name, oldest.stored - 1), /*recent=*/false);
  }

  // Makes the queued inserts, oldest first; returns the first clash.
  template <typename SameName>
  Clash FlushQueue(const SameName& same_name) {
    Clash first;
    for (; queued_ > 0; --queued_) {
      const Slot oldest = queue_[queue_head_];
      queue_head_ = (queue_head_ + 1) & (kQueued - 1);
      const Clash clash =
          InsertNow(oldest, NamedAsId(same_name, oldest.stored - 1), /*recent=*/false);
      if (clash && !first) first = clash;
    }
    return first;
  }

  // Gives back the memory of a table grown large (before the rules run, so
  // a big computation's table does not stay); empties a small one.
  void Release() {
    queued_ = 0;
    if (slots_.size() > kKeptSlots) {
      SlotVector(64).swap(slots_);
    } else {
      std::fill(slots_.begin(), slots_.end(), Slot{});
    }
    recent_.fill(Slot{});
    base_ = 0;
    size_ = 0;
  }

 private:
  struct Slot {
    uint32_t stored = 0;  // id + 1; 0: never used
    uint32_t hash = 0;
  };

  // Names are mostly used soon after their definition: the last definitions,
  // one per hash bucket, answer those lookups from a few cache lines instead
  // of the table, whose slot (a cache miss in a large scope) is skipped.
  static constexpr size_t kRecent = 512;
  static size_t RecentIndex(uint32_t hash) { return (hash >> 16) & (kRecent - 1); }

  bool Live(const Slot& s) const { return s.stored > base_; }

  // Whether a candidate id has the name of `id`.
  template <typename SameName>
  static auto NamedAsId(const SameName& same_name, uint32_t id) {
    return [&same_name, id](uint32_t candidate) { return same_name(candidate, id); };
  }

  // Inserts `fresh` unless a live entry with its hash passes `has_name`
  // (then returns the clash), into recent_ too if `recent`.
  template <typename HasName>
  Clash InsertNow(Slot fresh, const HasName& has_name, bool recent) {
    if ((size_ + 1) * 4 > slots_.size() * 3) Grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = fresh.hash & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (!Live(s)) {
        // One 8-byte store: reading `s` back after two 4-byte stores would
        // stall on store forwarding.
        s = fresh;
        if (recent) recent_[RecentIndex(fresh.hash)] = fresh;
        ++size_;
        return {};
      }
      if (s.hash == fresh.hash && has_name(s.stored - 1)) return {fresh.stored - 1, s.stored - 1};
    }
  }

  // Tables from this size on (512 KB) queue their inserts (InsertOrQueue).
  static constexpr size_t kQueueMinSlots = size_t{1} << 16;
  static constexpr size_t kQueued = 16;  // a power of two

  void Grow() {
    SlotVector old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (!Live(s)) continue;
      size_t i = s.hash & mask;
      while (slots_[i].stored != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  using SlotVector = std::vector<Slot, RandomAccessAllocator<Slot>>;
  SlotVector slots_;
  std::array<Slot, kRecent> recent_{};
  size_t size_ = 0;
  uint32_t base_ = 0;  // entries with smaller ids belong to earlier scopes
  // Queued inserts (InsertOrQueue), oldest at queue_head_.
  std::array<Slot, kQueued> queue_{};
  size_t queue_head_ = 0;
  size_t queued_ = 0;
};

}  // namespace hlolint
