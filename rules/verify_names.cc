// verify-names: instruction names are unique across the module
// (InstructionVerifier::Preprocess). XLA's parser renames an instruction
// whose name another computation already uses (to `name.1`, ...), so the
// text still verifies; the finding is a warning that XLA's own messages and
// dumps will call the instruction by another name.
#include <vector>

#include "rules/rule_factories.h"
#include "util/hash.h"
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
    // Open addressing over 8-byte slots (hash fragment, id + 1), so the
    // table of a 100k-instruction module stays in cache; names are compared
    // only when fragments agree.
    size_t capacity = 16;
    while (capacity < 2 * static_cast<size_t>(m.instruction_count())) capacity *= 2;
    std::vector<uint64_t> slots(capacity, 0);
    const size_t mask = capacity - 1;
    for (CompId c = 0; c < m.computation_count(); ++c) {
      bool reported = false;  // one finding per computation is enough
      for (InstrId id : m.instructions(c)) {
        if (m.instr(id).has(Instruction::kAnonymous)) continue;
        const std::string_view name = m.name(id);
        const uint64_t hash = StringViewHash()(name);
        const uint64_t fragment = hash >> 32;
        InstrId first = kNoId;
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
          if (slots[i] == 0) {
            slots[i] = (fragment << 32) | (static_cast<uint64_t>(id) + 1);
            break;
          }
          const InstrId other = static_cast<InstrId>((slots[i] & 0xffffffffu) - 1);
          if ((slots[i] >> 32) == fragment && m.name(other) == name) {
            first = other;
            break;
          }
        }
        if (first == kNoId || m.parent(first) == c || reported) continue;
        reported = true;
        ctx.Report(id, StrCat("[InstructionVerifier::Preprocess] HLO has name that is not "
                              "unique within module: ", name, " is also defined in ",
                              m.computation_name(m.parent(first)),
                              "; XLA renames this one when it parses the module"))
            .Note(first, "first defined here");
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyNamesRule() { return std::make_unique<VerifyNamesRule>(); }

}  // namespace hlolint
