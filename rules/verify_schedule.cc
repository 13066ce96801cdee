// verify-schedule: in a module with is_scheduled=true the text order is the
// schedule, and send/recv pairs must not deadlock in it (HloVerifier's
// VerifyNoCollectiveDeadlocks). That it defines every operand and control
// predecessor before its use (HloSchedule::Verify) the parser ensures.
#include <algorithm>
#include <cstdint>
#include <deque>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "analysis/analyses.h"
#include "analysis/opcode_index.h"
#include "parse/attributes.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

bool IsCollective(Opcode op) {
  switch (op) {
    case Opcode::kAllGather: case Opcode::kAllGatherStart: case Opcode::kAllReduce:
    case Opcode::kAllReduceStart: case Opcode::kAllToAll: case Opcode::kRaggedAllToAll:
    case Opcode::kCollectivePermute: case Opcode::kCollectivePermuteStart:
    case Opcode::kReduceScatter: case Opcode::kCollectiveBroadcast:
      return true;
    default:
      return false;
  }
}

// The source-target pairs of a send/recv, normalized ("{{0,1},{1,2}}").
std::string NormalizePairs(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' && c != '"' && c != '\n' && c != '\t') out.push_back(c);
  }
  return out;
}

// Parses "{{a,b},{c,d}}" into pairs; false when malformed.
bool ParsePairs(std::string_view text, std::vector<std::pair<int64_t, int64_t>>* out) {
  std::vector<int64_t> numbers;
  int64_t value = 0;
  bool in_number = false, negative = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      if (value > (INT64_MAX - 9) / 10) return false;  // not a device id; no overflow
      value = value * 10 + (c - '0');
      in_number = true;
    } else {
      if (in_number) numbers.push_back(negative ? -value : value);
      negative = c == '-';
      value = 0;
      in_number = false;
    }
  }
  if (in_number) numbers.push_back(negative ? -value : value);
  if (numbers.size() % 2) return false;
  for (size_t i = 0; i < numbers.size(); i += 2) out->emplace_back(numbers[i], numbers[i + 1]);
  return true;
}

class VerifyScheduleRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-schedule", RuleCategory::kVerify, Severity::kError,
                                "scheduled module whose send/recv order deadlocks"};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    if (!m.is_scheduled()) return;
    // HloSchedule::Verify's order check (each sequence defines every operand
    // and control predecessor before its use) holds for any parsed module:
    // the sequence is the text order, and the parser rejects a use before
    // the definition ("instruction does not exist"). Checked again here, it
    // would read every instruction's lists to find nothing.
    if (m.entry() == kNoId || !HasSendRecv(ctx)) return;
    Dfa dfa;
    std::vector<uint8_t> visiting(m.computation_count(), 0);
    if (!Walk(ctx, m.entry(), dfa, visiting)) return;
    Finish(ctx, dfa);
  }

 private:
  static bool HasSendRecv(RuleContext& ctx) {
    const OpcodeIndex& index = ctx.analyses().Get<OpcodeIndex>();
    return !index.Of(Opcode::kSend).empty() || !index.Of(Opcode::kRecv).empty();
  }

  struct Pending {
    InstrId id;
    std::string pairs;
  };
  // Unmatched sends (or recvs) in schedule order, indexed by their pairs so
  // that matching stays linear however many there are.
  class PendingList {
   public:
    bool empty() const { return open_ == 0; }
    // The earliest still unmatched.
    const Pending& first() const {
      while (matched_[head_]) ++head_;
      return items_[head_];
    }
    void Add(InstrId id, const std::string& pairs) {
      by_pairs_[pairs].push_back(items_.size());
      items_.push_back({id, pairs});
      matched_.push_back(false);
      ++open_;
    }
    // Matches the earliest pending entry with these pairs, if any.
    bool TakeMatching(const std::string& pairs) {
      auto it = by_pairs_.find(pairs);
      if (it == by_pairs_.end() || it->second.empty()) return false;
      matched_[it->second.front()] = true;
      it->second.pop_front();
      --open_;
      return true;
    }

   private:
    std::vector<Pending> items_;
    std::vector<bool> matched_;
    absl::flat_hash_map<std::string, std::deque<size_t>> by_pairs_;
    mutable size_t head_ = 0;
    size_t open_ = 0;
  };
  struct Dfa {
    PendingList sends;
    PendingList recvs;
  };

  // The pairs of a send/recv the deadlock check considers, or nullopt.
  static std::optional<std::string> CheckedPairs(const Module& m, InstrId id) {
    if (!m.FindAttribute(id, AttrName::kChannelId)) return std::nullopt;
    if (BoolAttr(m, id, AttrName::kIsHostTransfer).value_or(false)) return std::nullopt;
    if (!m.FindAttribute(id, AttrName::kFrontendAttributes)) return std::nullopt;
    if (FrontendAttribute(m, id, "_xla_send_recv_pipeline")) return std::nullopt;
    std::optional<std::string> pairs =
        FrontendAttribute(m, id, "_xla_send_recv_source_target_pairs");
    if (!pairs) return std::nullopt;
    return NormalizePairs(*pairs);
  }

  // Each send/recv's own pairs: unique sources and targets, no cycle.
  static bool CheckPairsWellFormed(RuleContext& ctx, InstrId id, const std::string& pairs_text) {
    std::vector<std::pair<int64_t, int64_t>> pairs;
    if (!ParsePairs(pairs_text, &pairs)) return true;
    constexpr std::string_view kCheck = "[VerifyNoCollectiveDeadlocks] ";
    // Linear in the number of pairs (a hostile attribute may hold 100,000).
    absl::flat_hash_map<int64_t, int64_t> target_of;
    absl::flat_hash_set<int64_t> targets;
    for (const auto& [source, target] : pairs) {
      if (!target_of.emplace(source, target).second || !targets.insert(target).second) {
        ctx.Report(id, StrCat(kCheck, "Expected send/recv to have unique source and target "
                                      "pairs, got ", pairs_text));
        return false;
      }
    }
    // Unique sources and targets: every node has at most one successor and
    // one predecessor, so each chain is a path or a cycle; walk each once.
    absl::flat_hash_set<int64_t> visited;
    for (const auto& start : pairs) {
      if (visited.contains(start.first)) continue;
      int64_t node = start.first;
      while (true) {
        visited.insert(node);
        auto next = target_of.find(node);
        if (next == target_of.end()) break;
        node = next->second;
        if (node == start.first) {
          ctx.Report(id, StrCat(kCheck, "Expected send/recv source-target pairs to be "
                                        "non-cyclical, got ", pairs_text));
          return true;
        }
        if (visited.contains(node)) break;
      }
    }
    return true;
  }

  // Walks a computation in schedule order; false after reporting.
  static bool Walk(RuleContext& ctx, CompId comp, Dfa& dfa, std::vector<uint8_t>& visiting) {
    const Module& m = ctx.module();
    if (visiting[comp]) return true;
    visiting[comp] = 1;
    for (InstrId id : m.instructions(comp)) {
      const Opcode op = m.opcode(id);
      if (op == Opcode::kSend || op == Opcode::kRecv) {
        std::optional<std::string> pairs = CheckedPairs(m, id);
        if (!pairs) continue;
        if (!CheckPairsWellFormed(ctx, id, *pairs)) return false;
        const bool send = op == Opcode::kSend;
        if (!(send ? dfa.recvs : dfa.sends).TakeMatching(*pairs)) {
          (send ? dfa.sends : dfa.recvs).Add(id, *pairs);
        }
        continue;
      }
      if (IsCollective(op) && (!dfa.sends.empty() || !dfa.recvs.empty())) {
        const Pending& pending = !dfa.sends.empty() ? dfa.sends.first() : dfa.recvs.first();
        ctx.Report(id, "[VerifyNoCollectiveDeadlocks] Expected send and recv instructions to "
                       "have the same source-target pairs, but could not match some "
                       "instructions. Introducing the following instruction will cause a "
                       "deadlock")
            .Note(pending.id, "unmatched send/recv");
        return false;
      }
      std::span<const CompId> called = m.called(id);
      if (called.empty()) continue;
      if (op == Opcode::kAsyncStart) {
        // A grouped async computation is checked on its own.
        if (m.instr(id).has(Instruction::kAsyncSugar)) continue;
        Dfa group;
        if (!Walk(ctx, called[0], group, visiting)) return false;
        if (!Finish(ctx, group)) return false;
        continue;
      }
      if (op == Opcode::kWhile || op == Opcode::kCall) {
        for (CompId c : called) {
          if (!Walk(ctx, c, dfa, visiting)) return false;
        }
      }
    }
    visiting[comp] = 0;
    return true;
  }

  static bool Finish(RuleContext& ctx, const Dfa& dfa) {
    if (dfa.sends.empty() && dfa.recvs.empty()) return true;
    std::string_view message =
        dfa.recvs.empty()   ? "Expected recv to match send"
        : dfa.sends.empty() ? "Expected send to match recv"
                            : "Deadlock detected: sends and recvs whose source-target pairs do "
                              "not match";
    const Pending& first = !dfa.sends.empty() ? dfa.sends.first() : dfa.recvs.first();
    ctx.Report(first.id, StrCat("[VerifyNoCollectiveDeadlocks] ", message,
                                " (source-target pairs ", first.pairs, ")"));
    return false;
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyScheduleRule() { return std::make_unique<VerifyScheduleRule>(); }

}  // namespace hlolint
