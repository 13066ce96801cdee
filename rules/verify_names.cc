// verify-names: instruction names are unique across the module
// (InstructionVerifier::Preprocess). XLA's parser renames an instruction
// whose name another computation already uses (to `name.1`, ...), so the
// text still verifies; the finding is a warning that XLA's own messages and
// dumps will call the instruction by another name.
#include "absl/container/flat_hash_map.h"
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
    absl::flat_hash_map<std::string_view, InstrId, StringViewHash> first;
    first.reserve(m.instruction_count());
    for (CompId c = 0; c < m.computation_count(); ++c) {
      bool reported = false;  // one finding per computation is enough
      for (InstrId id : m.instructions(c)) {
        if (m.instr(id).has(Instruction::kAnonymous)) continue;
        auto [it, inserted] = first.emplace(m.name(id), id);
        if (inserted || m.parent(it->second) == c || reported) continue;
        reported = true;
        ctx.Report(id, StrCat("[InstructionVerifier::Preprocess] HLO has name that is not "
                              "unique within module: ", m.name(id), " is also defined in ",
                              m.computation_name(m.parent(it->second)),
                              "; XLA renames this one when it parses the module"))
            .Note(it->second, "first defined here");
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyNamesRule() { return std::make_unique<VerifyNamesRule>(); }

}  // namespace hlolint
