// verify-channels: channels are used consistently (VerifyChannels: a
// send/recv and its done op agree on is_host_transfer; host-transfer
// send/recv ops sharing a channel are identical up to their operands); with
// "verify_unique_channel_ids" in "verify-options", one kind of instruction
// per channel.
#include "absl/container/flat_hash_map.h"
#include "analysis/attribute_index.h"
#include "analysis/opcode_index.h"
#include "analysis/shape_inference.h"
#include "analysis/attribute_text.h"
#include "parse/attributes.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

class VerifyChannelsRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-channels", RuleCategory::kVerify, Severity::kError,
                                "send/recv channel use that XLA's verifier rejects"};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    // Host-transfer send/recv(-done) by (channel, opcode): the first one seen.
    absl::flat_hash_map<std::pair<int64_t, int>, InstrId> first_host_transfer;
    const std::vector<InstrId> transfers = ctx.analyses().Get<OpcodeIndex>().Collect(
        {Opcode::kSend, Opcode::kRecv, Opcode::kSendDone, Opcode::kRecvDone});
    for (InstrId id : transfers) {
      const Opcode op = m.opcode(id);
      const bool host = BoolAttr(m, id, AttrName::kIsHostTransfer).value_or(false);
      if (op == Opcode::kSend || op == Opcode::kRecv) {
        std::span<const InstrId> users = m.users(id);
        if (users.size() == 1) {
          const Opcode user_op = m.opcode(users[0]);
          if ((user_op == Opcode::kSendDone || user_op == Opcode::kRecvDone) &&
              BoolAttr(m, users[0], AttrName::kIsHostTransfer).value_or(false) != host) {
            ctx.Report(id, "[VerifyChannels] Expected instructions to have the same "
                           "is-host-transfer property")
                .Note(users[0], "done op");
          }
        }
      }
      std::optional<int64_t> channel = IntAttr(m, id, AttrName::kChannelId);
      if (!host || !channel) continue;
      auto [it, inserted] =
          first_host_transfer.emplace(std::make_pair(*channel, static_cast<int>(op)), id);
      if (inserted) continue;
      std::string difference = HostTransferDifference(m, it->second, id);
      if (!difference.empty()) {
        ctx.Report(id, StrCat("[VerifyChannels] Host-transfer send/recv instructions that use "
                              "the same channel must be identical: ", difference))
            .Note(it->second, StrCat("first ", OpcodeName(op), " on channel ", *channel));
      }
    }
    if (ctx.verifier_options().verify_unique_channel_ids) CheckOneKindPerChannel(ctx);
  }

 private:
  static bool IsSendRecv(Opcode op) {
    return op == Opcode::kSend || op == Opcode::kRecv || op == Opcode::kSendDone ||
           op == Opcode::kRecvDone;
  }

  // VerifyChannels with verify_unique_channel_ids (and every TF 2.x-era
  // XLA): the instructions of one channel are send/recv ops if the first
  // one is, else all of the first one's opcode.
  static void CheckOneKindPerChannel(RuleContext& ctx) {
    const Module& m = ctx.module();
    absl::flat_hash_map<int64_t, InstrId> first_on_channel;
    for (InstrId id : ctx.analyses().Get<AttributeIndex>().With(AttrName::kChannelId)) {
      const std::optional<int64_t> channel = IntAttr(m, id, AttrName::kChannelId);
      if (!channel) continue;
      const auto [it, inserted] = first_on_channel.emplace(*channel, id);
      if (inserted) continue;
      const Opcode first = m.opcode(it->second);
      const Opcode op = m.opcode(id);
      if (IsSendRecv(first) ? IsSendRecv(op) : op == first) continue;
      ctx.ReportAtAttribute(id, AttrName::kChannelId,
                            StrCat("[VerifyChannels] channel ", *channel,
                                   " is used for different types of channel instructions"))
          .Note(it->second, StrCat("first instruction on channel ", *channel, ": ",
                                   OpcodeName(first)))
          .Fix("give each kind of channel instruction channel ids of its own");
    }
  }

  // Why two host-transfer ops on one channel are not Identical (ignoring
  // operands), or empty.
  static std::string HostTransferDifference(const Module& m, InstrId a, InstrId b) {
    if (m.has_known_shape(a) && m.has_known_shape(b) && !ShapesEqual(m.shape(a), m.shape(b))) {
      return StrCat("shapes differ (", HumanString(m.shape(a)), " vs ", HumanString(m.shape(b)),
                    ")");
    }
    std::span<const InstrId> oa = m.operands(a);
    std::span<const InstrId> ob = m.operands(b);
    for (size_t i = 0; i < oa.size() && i < ob.size(); ++i) {
      if (m.has_known_shape(oa[i]) && m.has_known_shape(ob[i]) &&
          !ShapesEqual(m.shape(oa[i]), m.shape(ob[i]))) {
        return StrCat("operand ", i, " shapes differ");
      }
    }
    if (AttributeText(m, a, AttrName::kFrontendAttributes) !=
        AttributeText(m, b, AttrName::kFrontendAttributes)) {
      return "frontend_attributes differ";
    }
    return "";
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyChannelsRule() { return std::make_unique<VerifyChannelsRule>(); }

}  // namespace hlolint
