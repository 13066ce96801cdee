// verify-collectives: collective ops agree with the module's replica and
// partition counts and with XLA's collective shape rules (CheckReplicaGroups,
// GetCollectiveOpGroupMode, CheckCommonAllGatherInvariants,
// HandleReduceScatter, HandleAllToAll, HandleRaggedAllToAll,
// CheckInplaceCollectivePermute, CheckDuplicatedSourceOrTarget), and a
// module's all-reduces agree on constrain_layout
// (VerifyLayoutConstrainedAllReduce; a warning in modules torch-neuronx
// wrote for AWS Neuron, whose compiler does not run XLA's verifier).
#include "analysis/opcode_index.h"
#include "parse/attributes.h"
#include "rules/checks/collective_checker.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

class VerifyCollectivesRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-collectives", RuleCategory::kVerify, Severity::kError,
                                "collective op whose replica groups, pairs or shapes XLA's "
                                "verifier rejects",
                                RuleCost::kModerate};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    CollectiveChecker checker(m);
    VerifyFinding finding;
    const std::vector<InstrId> collectives =
        ctx.analyses().Get<OpcodeIndex>().Collect(&CollectiveChecker::IsChecked);
    for (InstrId id : collectives) {
      if (checker.Check(id, &finding)) continue;
      std::string message = StrCat("[", finding.check, "] ", finding.message);
      if (finding.attribute != AttrName::kUnknown) {
        ctx.ReportAtAttribute(id, finding.attribute, std::move(message));
      } else {
        ctx.Report(id, std::move(message));
      }
    }
    CheckLayoutConstrainedAllReduce(ctx);
  }

 private:
  // torch-neuronx names the entry parameters for the NEFF it compiles to.
  static bool CompiledForNeuron(const Module& m) {
    if (m.entry() == kNoId) return false;
    for (InstrId p : m.computation(m.entry()).parameters()) {
      if (p != kNoId && FrontendAttribute(m, p, "neff_input_names")) return true;
    }
    return false;
  }

  // VerifyLayoutConstrainedAllReduce: the all-reduce(-start)s of a module
  // are all layout constrained or none is. Reported at the first one that
  // disagrees with the first of the module.
  static void CheckLayoutConstrainedAllReduce(RuleContext& ctx) {
    const Module& m = ctx.module();
    const std::vector<InstrId> all_reduces =
        ctx.analyses().Get<OpcodeIndex>().Collect({Opcode::kAllReduce, Opcode::kAllReduceStart});
    if (all_reduces.size() < 2) return;
    const auto constrained = [&](InstrId id) {
      return BoolAttr(m, id, AttrName::kConstrainLayout).value_or(false);
    };
    const InstrId reference = all_reduces.front();
    const bool reference_constrained = constrained(reference);
    for (InstrId id : all_reduces) {
      if (constrained(id) == reference_constrained) continue;
      std::string message =
          "[VerifyLayoutConstrainedAllReduce] HloModule has a mix of layout constrained and "
          "unconstrained AllReduce instructions";
      auto report = reference_constrained
                        ? ctx.Report(id, std::move(message))
                        : ctx.ReportAtAttribute(id, AttrName::kConstrainLayout, std::move(message));
      report.Note(reference, reference_constrained ? "the first all-reduce is layout constrained"
                                                   : "the first all-reduce is not layout "
                                                     "constrained");
      report.Fix("give every all-reduce of the module the same constrain_layout");
      if (CompiledForNeuron(m)) {
        report.WithSeverity(Severity::kWarning);
        report.Note("the module is torch-neuronx's (neff_input_names): AWS Neuron's compiler "
                    "takes it, XLA's CPU, GPU and TPU compilers reject it");
      }
      return;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyCollectivesRule() {
  return std::make_unique<VerifyCollectivesRule>();
}

}  // namespace hlolint
