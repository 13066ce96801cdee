// verify-names: instruction names are unique across the module
// (InstructionVerifier::Preprocess). XLA's parser renames an instruction
// whose name another computation already uses (to `name.1`, ...), so the
// text still verifies; the finding is a warning that XLA's own messages and
// dumps will call the instruction by another name.
#include <algorithm>
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
    // Names in text order, keyed by (32 hash bits, text position), sorted by
    // hash: equal names end up adjacent and in text order, without a hash
    // table that misses the cache once per instruction on big modules.
    std::vector<InstrId> in_order;
    in_order.reserve(m.instruction_count());
    std::vector<uint64_t> keys;
    keys.reserve(m.instruction_count());
    StringViewHash hash;
    for (CompId c = 0; c < m.computation_count(); ++c) {
      for (InstrId id : m.instructions(c)) {
        if (m.instr(id).has(Instruction::kAnonymous)) continue;
        const uint64_t h = hash(m.name(id)) >> 32;
        keys.push_back((h << 32) | in_order.size());
        in_order.push_back(id);
      }
    }
    RadixSortByHigh32(keys);

    // (position of the later definition, position of the first one).
    std::vector<std::pair<uint32_t, uint32_t>> clashes;
    for (size_t group = 0; group < keys.size();) {
      size_t end = group + 1;
      while (end < keys.size() && (keys[end] >> 32) == (keys[group] >> 32)) ++end;
      for (size_t i = group + 1; i < end; ++i) {
        const uint32_t later = static_cast<uint32_t>(keys[i]);
        for (size_t j = group; j < i; ++j) {
          const uint32_t earlier = static_cast<uint32_t>(keys[j]);
          if (m.name(in_order[earlier]) == m.name(in_order[later])) {
            clashes.emplace_back(later, earlier);
            break;  // keys[j] is the first of its name: the first match
          }
        }
      }
      group = end;
    }
    std::sort(clashes.begin(), clashes.end());  // few: text order for the report

    CompId last_reported = kNoId;  // one finding per computation is enough
    for (auto [later, earlier] : clashes) {
      const InstrId id = in_order[later];
      const InstrId first = in_order[earlier];
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
