#include "analysis/side_effects.h"

#include "parse/attributes.h"

namespace hlolint {

bool InstructionHasSideEffectNoRecurse(const Module& m, InstrId id, bool spmd) {
  switch (m.opcode(id)) {
    case Opcode::kSend:
    case Opcode::kSendDone:
    case Opcode::kRecv:
    case Opcode::kRecvDone:
    case Opcode::kRng:
    case Opcode::kRngGetAndUpdateState:
    case Opcode::kInfeed:
    case Opcode::kOutfeed:
    case Opcode::kAllReduceStart:
    case Opcode::kAllReduceDone:
    case Opcode::kAllGatherStart:
    case Opcode::kAllGatherDone:
    case Opcode::kCollectivePermuteStart:
    case Opcode::kCollectivePermuteDone:
    case Opcode::kCollectiveBroadcast:  // listed by newer XLA versions
      return true;
    case Opcode::kAllToAll:
    case Opcode::kAllGather:
    case Opcode::kAllReduce:
    case Opcode::kReduceScatter:
      if (BoolAttr(m, id, AttrName::kConstrainLayout).value_or(false)) return true;
      [[fallthrough]];
    case Opcode::kCollectivePermute:
      // Channel collectives are side-effecting only outside SPMD programs.
      return m.FindAttribute(id, AttrName::kChannelId) != nullptr && !spmd;
    case Opcode::kCustomCall:
      return m.instr(id).has(Instruction::kSideEffectAttr);
    default:
      return false;
  }
}

SideEffects::SideEffects(const Module& module, Analyses&)
    : m_(module), spmd_(module.header().num_partitions != 1) {
  const size_t n = m_.instruction_count();
  no_recurse_.resize(n);
  recursive_.resize(n);
  computation_.assign(m_.computation_count(), kUnknown);
  // One pass over the instructions, computation by computation: a callee is
  // usually defined (and so visited) before its callers; VisitComputation
  // handles the rest. Several passes over a big module's instruction
  // records would each stream them from memory.
  for (CompId c = 0; c < m_.computation_count(); ++c) {
    bool effect = false;
    for (InstrId id : m_.instructions(c)) {
      no_recurse_[id] = InstructionHasSideEffectNoRecurse(m_, id, spmd_);
      bool instr_effect = no_recurse_[id] != 0;
      for (CompId callee : m_.called(id)) {
        if (computation_[callee] == kUnknown) VisitComputation(callee);
        instr_effect |= computation_[callee] == kYes;
      }
      recursive_[id] = instr_effect;
      effect |= instr_effect;
    }
    // A callee still being visited (a cycle through c) counts as no effect,
    // as in VisitComputation.
    if (computation_[c] == kUnknown) computation_[c] = effect ? kYes : kNo;
  }
}

// Depth-first over the call graph (a DAG in valid text; a cycle counts as
// no side effect rather than recursing forever).
bool SideEffects::VisitComputation(CompId id) {
  if (computation_[id] == kYes) return true;
  if (computation_[id] != kUnknown) return false;
  computation_[id] = kVisiting;
  bool effect = false;
  for (InstrId instr : m_.instructions(id)) {
    if (InstructionHasSideEffectNoRecurse(m_, instr, spmd_)) {
      effect = true;
      break;
    }
    for (CompId callee : m_.called(instr)) {
      if (VisitComputation(callee)) {
        effect = true;
        break;
      }
    }
    if (effect) break;
  }
  computation_[id] = effect ? kYes : kNo;
  return effect;
}

}  // namespace hlolint
