// verify-names: instruction names are unique across the module
// (InstructionVerifier::Preprocess). XLA's parser renames an instruction
// whose name another computation already uses (to `name.1`, ...), so the
// text still verifies; the finding is a warning that XLA's own messages and
// dumps will call the instruction by another name.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "rules/rule_factories.h"
#include "util/radix_sort.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// A large module's keys are filtered in partitions of about 2^16 keys (by
// their top bits), whose filters (128 KB) stay in the cache.
constexpr int kKeysPerPartitionBits = 16;
constexpr int kMaxPartitionBits = 12;

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

class VerifyNamesRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-names", "verify", Severity::kWarning,
                                "instruction name used by more than one computation (XLA "
                                "renames it when parsing)"};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    // One 64-bit key per named instruction: its id in the low bits, as many
    // bits of its name's hash (kept by the parser) as fit above. Sorted by
    // the upper 32 bits, equal names end up adjacent; the remaining hash
    // bits (40+ in all) tell almost every different name apart, so the text
    // (which a large file has released) is read only for the few names that
    // share all of them. No hash table missing the cache per instruction.
    const size_t n = m.instruction_count();
    const int id_bits = std::max(1, static_cast<int>(std::bit_width(n)));
    const uint64_t id_mask = (uint64_t{1} << id_bits) - 1;
    // Anonymous instructions have no name (their hash is 0): the 56-byte
    // record is looked at only then, not streamed through for every one.
    // In id order (every instruction is in its computation's list, and the
    // order of the keys does not matter: groups are sorted below), the
    // hashes are read front to back.
    auto for_each_key = [&](auto&& fn) {
      for (InstrId id = 0; id < n; ++id) {
        const uint64_t hash = m.name_hash(id);
        if (hash == 0 && m.instr(id).has(Instruction::kAnonymous)) continue;
        fn(id, (hash & ~id_mask) | id);
      }
    };
    // Most names are unique: a filter (AppendShared) passes on the keys
    // that may share their upper bits with another, fewer keys to sort. One
    // filter over millions of keys (16 MB at 5M) missed the cache twice per
    // key and waited on memory for 100 ms at 1 GB, even with prefetches; a
    // large module's keys are first spread into partitions by their top
    // bits, at the price of writing and reading them once in order (8 bytes
    // per instruction, freed before the sort).
    std::vector<uint64_t> keys;
    std::vector<uint64_t> filter;
    const int part_bits = std::clamp(id_bits - kKeysPerPartitionBits, 0, kMaxPartitionBits);
    if (part_bits == 0) {
      auto each = [&](auto&& fn) { for_each_key([&](InstrId, uint64_t key) { fn(key); }); };
      AppendShared(n, each, &filter, &keys);
    } else {
      const int shift = 64 - part_bits;
      const size_t parts = size_t{1} << part_bits;
      // Each partition has room for its expected share of the keys and many
      // standard deviations more (the hash bits are uniform), so the keys
      // are spread in one pass over the hashes, without counting them
      // first (a pass of its own, ~7 ms at 1 GB). Names made to share hash
      // bits could overflow one: then they are counted after all.
      const size_t mean = n / parts;
      const size_t room = mean + 8 * static_cast<size_t>(std::sqrt(static_cast<double>(mean))) + 64;
      std::unique_ptr<uint64_t[]> spread;
      std::vector<uint32_t> begin(parts), end(parts);
      bool overflow = room * parts > std::numeric_limits<uint32_t>::max();
      if (!overflow) {
        spread = std::make_unique_for_overwrite<uint64_t[]>(room * parts);
        for (size_t p = 0; p < parts; ++p) begin[p] = end[p] = static_cast<uint32_t>(p * room);
        for_each_key([&](InstrId, uint64_t key) {
          const size_t p = key >> shift;
          if (end[p] == begin[p] + room) [[unlikely]] {
            overflow = true;
            return;
          }
          spread[end[p]++] = key;
        });
      }
      if (overflow) {
        std::vector<uint32_t> starts(parts + 1);
        for_each_key([&](InstrId, uint64_t key) { ++starts[(key >> shift) + 1]; });
        for (size_t p = 1; p < starts.size(); ++p) starts[p] += starts[p - 1];
        spread = std::make_unique_for_overwrite<uint64_t[]>(starts.back());
        std::copy(starts.begin(), starts.end() - 1, begin.begin());
        std::copy(starts.begin(), starts.end() - 1, end.begin());
        for_each_key([&](InstrId, uint64_t key) { spread[end[key >> shift]++] = key; });
      }
      for (size_t p = 0; p < parts; ++p) {
        const std::span<const uint64_t> part(spread.get() + begin[p], end[p] - begin[p]);
        auto each = [&](auto&& fn) { for (uint64_t key : part) fn(key); };
        AppendShared(part.size(), each, &filter, &keys);
      }
    }
    RadixSortByHigh32(keys);

    // Text order of the report: computations in id order, instructions in
    // text order inside each.
    auto before = [&](InstrId a, InstrId b) {
      if (m.parent(a) != m.parent(b)) return m.parent(a) < m.parent(b);
      return m.instr(a).name_offset < m.instr(b).name_offset;
    };
    // (later definition, first one).
    std::vector<std::pair<InstrId, InstrId>> clashes;
    std::vector<uint64_t> group;
    for (size_t begin = 0; begin < keys.size();) {
      size_t end = begin + 1;
      while (end < keys.size() && (keys[end] >> 32) == (keys[begin] >> 32)) ++end;
      if (end - begin > 1) {
        group.assign(keys.begin() + static_cast<std::ptrdiff_t>(begin),
                     keys.begin() + static_cast<std::ptrdiff_t>(end));
        auto id_of = [&](uint64_t key) { return static_cast<InstrId>(key & id_mask); };
        std::sort(group.begin(), group.end(),
                  [&](uint64_t a, uint64_t b) { return before(id_of(a), id_of(b)); });
        for (size_t i = 1; i < group.size(); ++i) {
          for (size_t j = 0; j < i; ++j) {
            const InstrId a = id_of(group[i]), b = id_of(group[j]);
            if (((group[i] ^ group[j]) & ~id_mask) == 0 &&
                m.NameSize(m.instr(a)) == m.NameSize(m.instr(b)) && m.name(a) == m.name(b)) {
              clashes.emplace_back(a, b);
              break;  // group[j] is the first of its name: the first match
            }
          }
        }
      }
      begin = end;
    }
    std::vector<uint64_t>().swap(keys);
    std::sort(clashes.begin(), clashes.end(), [&](const auto& a, const auto& b) {
      if (a.first != b.first) return before(a.first, b.first);
      return before(a.second, b.second);
    });  // few: text order for the report

    CompId last_reported = kNoId;  // one finding per computation is enough
    for (auto [id, first] : clashes) {
      const CompId c = m.parent(id);
      if (m.parent(first) == c || c == last_reported) continue;
      last_reported = c;
      ctx.Report(id, StrCat("[InstructionVerifier::Preprocess] HLO has name that is not "
                            "unique within module: ", m.name(id), " is also defined in ",
                            m.computation_name(m.parent(first)),
                            "; XLA renames this one when it parses the module"))
          .Note(first, "first defined here");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyNamesRule() { return std::make_unique<VerifyNamesRule>(); }

}  // namespace hlolint
