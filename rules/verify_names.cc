// verify-names: instruction names are unique across the module
// (InstructionVerifier::Preprocess). XLA's parser renames an instruction
// whose name another computation already uses (to `name.1`, ...), so the
// text still verifies, and XLA's own messages and dumps call the
// instruction by another name. Hand-written modules do this often and
// harmlessly: there the finding is a note. XLA prints unique names, so in
// an XLA dump a duplicate means the dump was edited by hand: a warning.
// With "verify_instruction_name_unchanged" in "verify-options", a name
// other than its metadata's scheduling_name is an error
// (VerifyInstructionNameUnchanged).
#include "analysis/attribute_index.h"
#include "analysis/duplicate_names.h"
#include "parse/attributes.h"
#include "engine/dump_context.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

class VerifyNamesRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-names", RuleCategory::kVerify, Severity::kNote,
                                "instruction name used by more than one computation (XLA "
                                "renames it when parsing)",
                                RuleCost::kHeavy};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    // A name repeated within one computation is a parse error; across
    // computations XLA renames the later instruction.
    CompId last_reported = kNoId;  // one finding per computation is enough
    for (const auto [id, first] : FindDuplicateNames(m)) {
      const CompId c = m.parent(id);
      if (m.parent(first) == c || c == last_reported) continue;
      last_reported = c;
      const bool xla_dump = ctx.dump() != nullptr;
      DiagnosticBuilder report =
          ctx.Report(id, StrCat("name '", m.name(id), "' is also used in computation '",
                                m.computation_name(m.parent(first)),
                                "'; XLA's parser renames this instruction"));
      report.Label("renamed when XLA parses the module");
      if (xla_dump) report.WithSeverity(Severity::kWarning);
      report.Note(first, "first defined here");
      report.Note(StrCat("instruction names are unique module-wide "
                         "([InstructionVerifier::Preprocess] HLO has name that is not unique "
                         "within module); XLA's parser gives this one a numeric suffix, so XLA's "
                         "messages and dumps will not call it '",
                         m.name(id), "'"));
      if (xla_dump) {
        report.Note("XLA prints unique names: this dump was edited after XLA wrote it");
      }
      report.Fix("rename one of them");
    }
    if (ctx.verifier_options().verify_instruction_name_unchanged) CheckNamesUnchanged(ctx);
  }

 private:
  // VerifyInstructionNameUnchanged (verify_instruction_name_unchanged): a
  // name equals the metadata's scheduling_name, unless the instruction was
  // cloned or rematerialized (".clone", ".remat" in its name). XLA stops at
  // the first; every one is reported here.
  static void CheckNamesUnchanged(RuleContext& ctx) {
    const Module& m = ctx.module();
    for (InstrId id : ctx.analyses().Get<AttributeIndex>().With(AttrName::kMetadata)) {
      const std::optional<OpMetadata> metadata = Metadata(m, id);
      if (!metadata || metadata->scheduling_name.empty()) continue;
      const std::string_view name = m.name(id);
      if (metadata->scheduling_name == name || name.find(".remat") != std::string_view::npos ||
          name.find(".clone") != std::string_view::npos) {
        continue;
      }
      ctx.ReportAtAttribute(id, AttrName::kMetadata,
                            StrCat("[VerifyInstructionNameUnchanged] Expected instruction name to "
                                   "remain the same. Was '", metadata->scheduling_name, "' is '",
                                   name, "'."))
          .WithSeverity(Severity::kError)
          .Fix("keep the name the scheduler gave the instruction, or set "
               "\"verify_instruction_name_unchanged\": false in \"verify-options\"");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyNamesRule() { return std::make_unique<VerifyNamesRule>(); }

}  // namespace hlolint
