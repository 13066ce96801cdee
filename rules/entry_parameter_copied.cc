// entry-parameter-copied: a copy or transpose of a large entry parameter in
// the entry computation, written as the instruction itself or as a fusion
// that only wraps one (GPU's wrapped_transpose, a transpose fusion). An
// entry parameter is live for the whole program, so the copy is a second
// buffer of the parameter's size next to it (openxla/xla#26987: weights
// transposed at entry double the memory of a 70B model). Copies that are
// outputs of the program are left alone: an output needs its own buffer
// unless the parameter is donated.
#include <optional>
#include <string>

#include "analysis/bitcast.h"
#include "analysis/in_place.h"
#include "analysis/reachability.h"
#include "engine/dump_context.h"
#include "ir/shape_bytes.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

constexpr uint64_t kDefaultMinBytes = uint64_t{64} << 20;

// A copy found in the entry computation: the instruction that allocates it,
// the copy or transpose doing the work (inside a wrapping fusion, or the
// instruction itself) and the operand of `at` that is copied.
struct FoundCopy {
  InstrId at = kNoId;
  InstrId op = kNoId;
  size_t operand = 0;
};

bool IsCopyOrTranspose(Opcode opcode) {
  return opcode == Opcode::kCopy || opcode == Opcode::kTranspose;
}

// A fusion whose computation only moves its parameter around: parameter ->
// copies, transposes and bitcasts -> ROOT, at least one copy or transpose
// (GPU's wrapped_transpose, CPU's wrapped_copy, copy_copy_fusion). The
// outermost copy or transpose, and which operand it copies.
std::optional<FoundCopy> WrappedCopy(const Module& m, InstrId fusion) {
  const std::span<const CompId> called = m.called(fusion);
  if (called.size() != 1) return std::nullopt;
  InstrId op = kNoId;
  InstrId at = m.computation(called[0]).root;
  while (at != kNoId && m.operands(at).size() == 1 &&
         (m.opcode(at) == Opcode::kBitcast || IsCopyOrTranspose(m.opcode(at)))) {
    if (op == kNoId && m.opcode(at) != Opcode::kBitcast) op = at;
    at = m.operand(at, 0);
  }
  if (op == kNoId || at == kNoId || m.opcode(at) != Opcode::kParameter) return std::nullopt;
  const int64_t number = m.number(at);
  if (number < 0 || number >= static_cast<int64_t>(m.operands(fusion).size())) {
    return std::nullopt;
  }
  return FoundCopy{fusion, op, static_cast<size_t>(number)};
}

std::optional<FoundCopy> AsCopy(const Module& m, InstrId id) {
  const Opcode opcode = m.opcode(id);
  if (IsCopyOrTranspose(opcode) && m.operands(id).size() == 1) return FoundCopy{id, id, 0};
  if (opcode == Opcode::kFusion) return WrappedCopy(m, id);
  return std::nullopt;
}

bool SameMinorToMajor(const Shape& a, const Shape& b) {
  return MinorToMajor(a) == MinorToMajor(b);
}

int64_t CopyMemorySpace(const Shape& shape) {
  return shape.has_layout ? shape.layout.memory_space : 0;
}

class EntryParameterCopiedRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static constexpr RuleOption kOptions[] = {
        {"min_bytes", RuleOptionType::kByteCount,
         "Smallest copy reported, in bytes (default 67108864, 64 MiB)"}};
    static const RuleInfo kInfo{
        "entry-parameter-copied", RuleCategory::kAliasing, Severity::kWarning,
        "Copy or transpose of a large entry parameter outside fusions, a second buffer of its "
        "size while the parameter stays live",
        RuleCost::kModerate, kOptions};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    if (m.entry() == kNoId || !BuffersFinal(ctx.dump(), m.is_scheduled())) return;
    uint64_t min_bytes = kDefaultMinBytes;
    if (const auto it = ctx.options().find("min_bytes");
        it != ctx.options().end() && it->is_number_unsigned()) {
      min_bytes = it->get<uint64_t>();
    }
    const RootReachability* reach = nullptr;
    for (InstrId id : m.instructions(m.entry())) {
      const std::optional<FoundCopy> found = AsCopy(m, id);
      if (!found || !m.has_known_shape(id) || !m.shape(id).IsArray()) continue;
      const std::optional<uint64_t> bytes = ArrayByteSize(m.shape(id));
      if (!bytes || *bytes < min_bytes || *bytes == 0) continue;
      if (reach == nullptr) reach = &ctx.analyses().Get<RootReachability>();
      const ValueRef source = reach->TraceValue({m.operand(id, found->operand), {}});
      if (source.instr == kNoId || m.opcode(source.instr) != Opcode::kParameter ||
          m.parent(source.instr) != m.entry() || !m.has_known_shape(source.instr)) {
        continue;
      }
      const Shape* param_leaf = Subshape(m.shape(source.instr), source.index);
      if (param_leaf == nullptr || !param_leaf->IsArray() ||
          CopyMemorySpace(*param_leaf) != CopyMemorySpace(m.shape(id))) {
        continue;  // a move between memory spaces, not a second copy
      }
      if (reach->RootOutputFor(reach->TraceBuffer({id, {}}))) continue;  // an output
      Report(ctx, *found, source, *param_leaf, *bytes);
    }
  }

 private:
  // An instruction that updates the copy in place: the reason copy
  // insertion made it. Looks through the tuple a while operand is built in.
  static InstrId InPlaceUser(RuleContext& ctx, InstrId copy) {
    const Module& m = ctx.module();
    const InPlacePairs& pairs = ctx.analyses().Get<InPlacePairs>();
    auto updates = [&](InstrId user, InstrId operand) {
      if (m.opcode(user) == Opcode::kWhile) return true;
      const std::span<const InstrId> operands = m.operands(user);
      for (const InPlacePair& pair : pairs.Get(user)) {
        if (pair.operand >= 0 && pair.operand < static_cast<int64_t>(operands.size()) &&
            operands[static_cast<size_t>(pair.operand)] == operand) {
          return true;
        }
      }
      return false;
    };
    for (InstrId user : m.users(copy)) {
      if (updates(user, copy)) return user;
      if (m.opcode(user) != Opcode::kTuple) continue;
      for (InstrId outer : m.users(user)) {
        if (updates(outer, user)) return outer;
      }
    }
    return kNoId;
  }

  static void Report(RuleContext& ctx, const FoundCopy& found, const ValueRef& source,
                     const Shape& param_leaf, uint64_t bytes) {
    const Module& m = ctx.module();
    const InstrId param = source.instr;
    const std::string what =
        found.op == found.at
            ? StrCat(OpcodeName(m.opcode(found.at)), " '", m.name(found.at), "'")
            : StrCat("fusion '", m.name(found.at), "' (a wrapped ", OpcodeName(m.opcode(found.op)),
                     ")");
    DiagnosticBuilder d = ctx.Report(
        found.at, StrCat(what, " of entry parameter ", m.number(param),
                         ShapeIndexSuffix(source.index), " ('", m.name(param),
                         "') allocates a second buffer of ", bytes, " bytes"));
    d.Label(StrCat(bytes, " bytes more"));
    d.Note(param, StrCat("the parameter (", ShapeToString(param_leaf),
                         "), live for the whole program"));
    const Shape& result = m.shape(found.at);
    const bool relayout = m.opcode(found.op) == Opcode::kTranspose ||
                          !SameMinorToMajor(param_leaf, result) || !Compatible(param_leaf, result);
    if (relayout) {
      d.Note(StrCat("it rearranges the parameter (", ShapeToString(param_leaf), " to ",
                    ShapeToString(result),
                    "): a user needs it in another layout than the entry computation layout "
                    "gives it"));
      d.Fix("pass the parameter in the layout its users need: transpose it once outside the "
            "compiled function and keep it that way, or let XLA choose the argument layout "
            "(in_shardings=Format(Layout.AUTO), jax.experimental.layout)");
      return;
    }
    const RootReachability& reach = ctx.analyses().Get<RootReachability>();
    if (const InputOutputAlias* alias = reach.EntryAliasFor(source)) {
      // Donated already: the output is written into the parameter's buffer,
      // and copy insertion keeps the old value for the reads it could not
      // prove to come first.
      d.Note(StrCat("the parameter is donated (input_output_alias to output ",
                    ShapeIndexToString(alias->output_index),
                    "); copy insertion keeps its old value in this copy because the output is "
                    "written into the parameter's buffer while the old value may still be "
                    "read"));
      return;
    }
    const InstrId writer = InPlaceUser(ctx, found.at);
    if (writer != kNoId) {
      d.Note(writer, StrCat(OpcodeName(m.opcode(writer)),
                            " here updates the copy in place; copy insertion adds the copy "
                            "because an entry parameter that is not donated must not be "
                            "overwritten"));
    }
    d.Fix("if the caller no longer needs the parameter, donate it (donate_argnums) and return "
          "the updated value, so that the output takes the parameter's buffer and XLA updates "
          "it in place instead of copying it");
  }
};

}  // namespace

std::unique_ptr<Rule> MakeEntryParameterCopiedRule() {
  return std::make_unique<EntryParameterCopiedRule>();
}

}  // namespace hlolint
