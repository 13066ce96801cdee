#include "analysis/duplicate_names.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>

#include "util/radix_sort.h"

namespace hlolint {
namespace {

// One 64-bit key per named instruction: its id in the low bits, as many
// bits of its name's hash as fit above. Sorted by the upper 32 bits, equal
// names end up adjacent; the remaining hash bits tell almost every
// different name apart, so the text is read only for the few names that
// share all of them. No hash table missing the cache per instruction.
class NameKeys {
 public:
  explicit NameKeys(const Module& m)
      : m_(m),
        id_bits_(std::max(1, static_cast<int>(std::bit_width(m.instruction_count())))),
        id_mask_((uint64_t{1} << id_bits_) - 1) {}

  int id_bits() const { return id_bits_; }
  InstrId Id(uint64_t key) const { return static_cast<InstrId>(key & id_mask_); }
  bool SameHash(uint64_t a, uint64_t b) const { return ((a ^ b) & ~id_mask_) == 0; }

  // Calls fn(key) for every named instruction, in id order: the hashes are
  // read front to back. Anonymous instructions have no name (their hash is
  // 0): the instruction record is looked at only then, not streamed through
  // for every one.
  template <typename Fn>
  void ForEach(const Fn& fn) const {
    const size_t n = m_.instruction_count();
    for (InstrId id = 0; id < n; ++id) {
      const uint64_t hash = m_.name_hash(id);
      if (hash == 0 && m_.instr(id).has(Instruction::kAnonymous)) continue;
      fn((hash & ~id_mask_) | id);
    }
  }

 private:
  const Module& m_;
  int id_bits_;
  uint64_t id_mask_;
};

// Appends to `out` the keys whose filter slot (a slot per value of the
// upper 32 bits' low bits) another key shares: two bits per slot (seen,
// shared), 8 slots per key, so about one key in eight passes, and every
// group of equal upper bits does. `for_each_key(fn)` calls fn(key) on the
// same `count` keys each time; `state` is scratch.
template <typename ForEachKey>
void AppendShared(size_t count, const ForEachKey& for_each_key, std::vector<uint64_t>* state,
                  std::vector<uint64_t>* out) {
  const size_t slots = std::bit_ceil(std::max<size_t>(64, count * 8));
  state->assign(slots / 32, 0);
  uint64_t* words = state->data();
  auto slot = [&](uint64_t key) { return static_cast<size_t>(key >> 32) & (slots - 1); };
  for_each_key([&](uint64_t key) {
    const size_t s = slot(key);
    uint64_t& word = words[s >> 5];
    const uint64_t seen = uint64_t{1} << (2 * (s & 31));
    word |= (word & seen) << 1 | seen;  // seen before: now shared
  });
  for_each_key([&](uint64_t key) {
    const size_t s = slot(key);
    if ((words[s >> 5] >> (2 * (s & 31) + 1)) & 1) out->push_back(key);
  });
}

// A large module's keys are filtered in partitions of about 2^16 keys (by
// their top bits), whose filters stay in the cache.
constexpr int kKeysPerPartitionBits = 16;
constexpr int kMaxPartitionBits = 12;

// The keys spread into 2^part_bits partitions by their top bits, as
// [begin[p], end[p]) ranges of one array.
struct Partitions {
  std::unique_ptr<uint64_t[]> keys;
  std::vector<uint32_t> begin, end;
};

Partitions Partition(const NameKeys& keys, size_t count, int part_bits) {
  const int shift = 64 - part_bits;
  const size_t parts = size_t{1} << part_bits;
  Partitions out;
  out.begin.resize(parts);
  out.end.resize(parts);
  // Each partition has room for its expected share of the keys and many
  // standard deviations more (the hash bits are uniform), so the keys are
  // spread in one pass over the hashes, without counting them first. Names
  // made to share hash bits could overflow one: then they are counted
  // after all.
  const size_t mean = count / parts;
  const size_t room = mean + 8 * static_cast<size_t>(std::sqrt(static_cast<double>(mean))) + 64;
  bool overflow = room * parts > std::numeric_limits<uint32_t>::max();
  if (!overflow) {
    out.keys = std::make_unique_for_overwrite<uint64_t[]>(room * parts);
    for (size_t p = 0; p < parts; ++p) out.begin[p] = out.end[p] = static_cast<uint32_t>(p * room);
    keys.ForEach([&](uint64_t key) {
      const size_t p = key >> shift;
      if (out.end[p] == out.begin[p] + room) [[unlikely]] {
        overflow = true;
        return;
      }
      out.keys[out.end[p]++] = key;
    });
  }
  if (overflow) {
    std::vector<uint32_t> starts(parts + 1);
    keys.ForEach([&](uint64_t key) { ++starts[(key >> shift) + 1]; });
    for (size_t p = 1; p < starts.size(); ++p) starts[p] += starts[p - 1];
    out.keys = std::make_unique_for_overwrite<uint64_t[]>(starts.back());
    std::copy(starts.begin(), starts.end() - 1, out.begin.begin());
    std::copy(starts.begin(), starts.end() - 1, out.end.begin());
    keys.ForEach([&](uint64_t key) { out.keys[out.end[key >> shift]++] = key; });
  }
  return out;
}

// The keys that may share their upper 32 bits with another key, sorted by
// those bits. Most names are unique: a filter (AppendShared) leaves fewer
// keys to sort. One filter over a large module's keys would miss the cache
// twice per key, even with prefetches; such a module's keys are first
// spread into partitions by their top bits, at the price of writing and
// reading them once in order (freed before the sort).
std::vector<uint64_t> CandidateKeys(const NameKeys& keys, size_t count) {
  std::vector<uint64_t> candidates;
  std::vector<uint64_t> filter;
  const int part_bits =
      std::clamp(keys.id_bits() - kKeysPerPartitionBits, 0, kMaxPartitionBits);
  if (part_bits == 0) {
    AppendShared(count, [&](auto&& fn) { keys.ForEach(fn); }, &filter, &candidates);
  } else {
    const Partitions parts = Partition(keys, count, part_bits);
    for (size_t p = 0; p < parts.begin.size(); ++p) {
      const std::span<const uint64_t> part(parts.keys.get() + parts.begin[p],
                                           parts.end[p] - parts.begin[p]);
      auto each = [&](auto&& fn) {
        for (uint64_t key : part) fn(key);
      };
      AppendShared(part.size(), each, &filter, &candidates);
    }
  }
  RadixSortByHigh32(candidates);
  return candidates;
}

}  // namespace

std::vector<DuplicateName> FindDuplicateNames(const Module& m) {
  const NameKeys keys(m);
  std::vector<uint64_t> candidates = CandidateKeys(keys, m.instruction_count());

  auto before = [&](InstrId a, InstrId b) {
    if (m.parent(a) != m.parent(b)) return m.parent(a) < m.parent(b);
    return m.instr(a).name_offset < m.instr(b).name_offset;
  };
  std::vector<DuplicateName> found;
  std::vector<uint64_t> group;
  for (size_t begin = 0; begin < candidates.size();) {
    size_t end = begin + 1;
    while (end < candidates.size() && (candidates[end] >> 32) == (candidates[begin] >> 32)) ++end;
    if (end - begin > 1) {
      group.assign(candidates.begin() + static_cast<std::ptrdiff_t>(begin),
                   candidates.begin() + static_cast<std::ptrdiff_t>(end));
      std::sort(group.begin(), group.end(),
                [&](uint64_t a, uint64_t b) { return before(keys.Id(a), keys.Id(b)); });
      for (size_t i = 1; i < group.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
          const InstrId a = keys.Id(group[i]), b = keys.Id(group[j]);
          if (keys.SameHash(group[i], group[j]) &&
              m.NameSize(m.instr(a)) == m.NameSize(m.instr(b)) && m.name(a) == m.name(b)) {
            found.push_back({a, b});
            break;  // group[j] is the first of its name: the first match
          }
        }
      }
    }
    begin = end;
  }
  std::sort(found.begin(), found.end(), [&](const DuplicateName& a, const DuplicateName& b) {
    if (a.repeat != b.repeat) return before(a.repeat, b.repeat);
    return before(a.first, b.first);
  });
  return found;
}

}  // namespace hlolint
