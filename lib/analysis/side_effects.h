// Which instructions have side effects, as XLA's
// HloInstruction::HasSideEffectNoRecurse / HasSideEffect decide
// (xla/hlo/ir/hlo_instruction.cc). HloDCE never removes a dead instruction
// with a side effect (apart from a few opt-in exemptions).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/analyses.h"
#include "ir/module.h"

namespace hlolint {

class SideEffects {
 public:
  SideEffects(const Module& module, Analyses& analyses);

  // The instruction alone, ignoring called computations.
  bool HasSideEffectNoRecurse(InstrId id) const { return no_recurse_[id] != 0; }
  // Also true when a called computation (transitively) has a side effect.
  bool HasSideEffect(InstrId id) const { return recursive_[id] != 0; }
  bool ComputationHasSideEffect(CompId id) const { return computation_[id] == kYes; }
  // XLA turns SPMD partitioning on when the header's num_partitions != 1;
  // channel collectives are then not side-effecting.
  bool uses_spmd_partitioning() const { return spmd_; }

 private:
  enum : uint8_t { kUnknown, kVisiting, kNo, kYes };
  bool VisitComputation(CompId id);

  const Module& m_;
  bool spmd_ = false;
  std::vector<uint8_t> no_recurse_;
  std::vector<uint8_t> recursive_;
  std::vector<uint8_t> computation_;
};

// HasSideEffectNoRecurse for one instruction.
bool InstructionHasSideEffectNoRecurse(const Module& m, InstrId id, bool spmd);

}  // namespace hlolint
