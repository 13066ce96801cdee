// verify-sharding: shardings fit the shapes they annotate
// (HloSharding::Validate from InstructionVerifier::Preprocess: tile rank vs
// shape rank) and while/conditional carry one sharding across the
// instructions that share a value (VerifyConsistentSharding).
#include "analysis/attribute_index.h"
#include "analysis/attribute_text.h"
#include "analysis/opcode_index.h"
#include "rules/checks/sharding_text.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

class VerifyShardingRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-sharding", RuleCategory::kVerify, Severity::kError,
                                "sharding that does not fit its shape, or inconsistent "
                                "shardings around a while or conditional",
                                RuleCost::kModerate};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    // Two passes over the few instructions concerned (their findings have
    // different spans: the attribute, the caller's name).
    for (InstrId id : ctx.analyses().Get<AttributeIndex>().With(AttrName::kSharding)) {
      CheckRank(ctx, id);
    }
    const std::vector<InstrId> callers =
        ctx.analyses().Get<OpcodeIndex>().Collect({Opcode::kWhile, Opcode::kConditional});
    for (InstrId id : callers) {
      const Opcode op = m.opcode(id);
      if (op == Opcode::kWhile && m.called(id).size() == 2) {
        const CompId condition = m.called(id)[0], body = m.called(id)[1];
        std::vector<InstrId> group = {id, m.computation(body).root};
        if (!m.computation(body).parameters().empty()) {
          group.push_back(m.computation(body).parameters()[0]);
        }
        if (!m.computation(condition).parameters().empty()) {
          group.push_back(m.computation(condition).parameters()[0]);
        }
        CheckConsistent(ctx, id, group);
      } else if (op == Opcode::kConditional) {
        std::vector<InstrId> group = {id};
        for (CompId branch : m.called(id)) group.push_back(m.computation(branch).root);
        CheckConsistent(ctx, id, group);
      }
    }
  }

 private:
  static void CheckRank(RuleContext& ctx, InstrId id) {
    const Module& m = ctx.module();
    if (!m.has_known_shape(id)) return;
    const Shape& shape = m.shape(id);
    // Rank-0 shapes are skipped: an old parser test tiles a scalar.
    if (!shape.IsArray() || shape.rank() == 0) return;
    std::optional<int64_t> rank = ShardingTiledDataRank(AttributeText(m, id, AttrName::kSharding));
    if (!rank || *rank == shape.rank()) return;
    ctx.ReportAtAttribute(id, AttrName::kSharding,
                          StrCat("[HloSharding::Validate] Number of tile assignment dimensions "
                                 "(excluding subgroups) is different than the input rank. "
                                 "sharding=", AttributeText(m, id, AttrName::kSharding),
                                 ", input_shape=", ShapeToString(shape, false)));
  }

  static void CheckConsistent(RuleContext& ctx, InstrId caller, const std::vector<InstrId>& group) {
    const Module& m = ctx.module();
    InstrId first = kNoId;
    std::string first_text;
    for (InstrId id : group) {
      if (id == kNoId || m.FindAttribute(id, AttrName::kSharding) == nullptr) continue;
      std::string text = NormalizedSharding(AttributeText(m, id, AttrName::kSharding));
      if (first == kNoId) {
        first = id;
        first_text = std::move(text);
        continue;
      }
      if (text != first_text) {
        // Whitespace is dropped only to compare; the message quotes the text.
        ctx.Report(caller, StrCat("[InstructionVerifier::VerifyConsistentSharding] Inconsistent ",
                                  OpcodeName(m.opcode(caller)), " sharding among instructions: ",
                                  m.name(first), " has ",
                                  AttributeText(m, first, AttrName::kSharding), ", ", m.name(id),
                                  " has ", AttributeText(m, id, AttrName::kSharding)))
            .Note(first, "sharding here")
            .Note(id, "differs from this one");
        return;
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyShardingRule() { return std::make_unique<VerifyShardingRule>(); }

}  // namespace hlolint
