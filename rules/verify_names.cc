// verify-names: instruction names are unique across the module
// (InstructionVerifier::Preprocess). XLA's parser renames an instruction
// whose name another computation already uses (to `name.1`, ...), so the
// text still verifies; the finding is a warning that XLA's own messages and
// dumps will call the instruction by another name.
#include <algorithm>
#include <bit>
#include <utility>
#include <vector>

#include "rules/rule_factories.h"
#include "util/prefetch.h"
#include "util/radix_sort.h"
#include "util/strings.h"

namespace hlolint {
namespace {

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
    // Most names are unique. A filter of two bits per slot (seen, shared),
    // over the upper 32 bits that group the keys below, passes on only the
    // keys whose slot another key shares (about one in eight, with 8 slots
    // per key): every group of equal upper bits, fewer keys to sort, and
    // small bit arrays. The keys are made twice rather than stored: a list
    // of all of them is 8 bytes per instruction of fresh memory. A slot's
    // two bits share a word, and the word of the key a few ids ahead is
    // prefetched: the filter is larger than the cache (16 MB at 5M
    // instructions), and each pass misses it once per key.
    std::vector<uint64_t> keys;
    {
      const size_t slots = std::bit_ceil(std::max<size_t>(64, n * 8));
      std::vector<uint64_t> state(slots / 32);
      auto slot = [&](uint64_t key) { return static_cast<size_t>(key >> 32) & (slots - 1); };
      constexpr InstrId kAhead = 16;
      auto prefetch_ahead = [&](InstrId id) {
        if (id + kAhead < n) PrefetchForRead(&state[slot(m.name_hash(id + kAhead)) >> 5]);
      };
      for_each_key([&](InstrId id, uint64_t key) {
        prefetch_ahead(id);
        const size_t s = slot(key);
        uint64_t& word = state[s >> 5];
        const uint64_t seen = uint64_t{1} << (2 * (s & 31));
        word |= (word & seen) << 1 | seen;  // seen before: now shared
      });
      for_each_key([&](InstrId id, uint64_t key) {
        prefetch_ahead(id);
        const size_t s = slot(key);
        if ((state[s >> 5] >> (2 * (s & 31) + 1)) & 1) keys.push_back(key);
      });
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
