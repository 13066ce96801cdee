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
#include "util/hash.h"
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
    // bits of its name's hash as fit above. Sorted, equal names end up
    // adjacent; with 40+ hash bits, different names almost never share a
    // group, so the text is read once, front to back, while hashing (and
    // released behind), and again only for the few names that do. No hash
    // table missing the cache per instruction, no scratch array.
    const size_t n = m.instruction_count();
    const int id_bits = std::max(1, static_cast<int>(std::bit_width(n)));
    const uint64_t id_mask = (uint64_t{1} << id_bits) - 1;
    std::vector<uint64_t> keys;
    {
      size_t named = 0;
      for (InstrId id = 0; id < n; ++id) named += !m.instr(id).has(Instruction::kAnonymous);
      keys.reserve(named);
    }
    StringViewHash hash;
    TextReleaser released(m.source(), m.begin_offset());
    for (CompId c = 0; c < m.computation_count(); ++c) {
      for (InstrId id : m.instructions(c)) {
        if (m.instr(id).has(Instruction::kAnonymous)) continue;
        released.Advance(m.instr(id).name_offset);
        keys.push_back((hash(m.name(id)) & ~id_mask) | id);
      }
    }
    SortKeysInPlace(keys);

    // Text order of the report: computations in id order, instructions in
    // text order inside each.
    auto before = [&](InstrId a, InstrId b) {
      if (m.parent(a) != m.parent(b)) return m.parent(a) < m.parent(b);
      return m.instr(a).name_offset < m.instr(b).name_offset;
    };
    // (later definition, first one).
    std::vector<std::pair<InstrId, InstrId>> clashes;
    std::vector<InstrId> group;
    for (size_t begin = 0; begin < keys.size();) {
      size_t end = begin + 1;
      while (end < keys.size() && ((keys[end] ^ keys[begin]) & ~id_mask) == 0) ++end;
      if (end - begin > 1) {
        group.clear();
        for (size_t i = begin; i < end; ++i) group.push_back(static_cast<InstrId>(keys[i] & id_mask));
        std::sort(group.begin(), group.end(), before);
        for (size_t i = 1; i < group.size(); ++i) {
          for (size_t j = 0; j < i; ++j) {
            if (m.name(group[j]) == m.name(group[i])) {
              clashes.emplace_back(group[i], group[j]);
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
