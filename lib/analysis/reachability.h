// What flows into each computation's ROOT. Values are traced back to the
// instruction that defines them through tuple / get-tuple-element / bitcast
// (TraceValue), and buffers additionally through must-alias in-place pairs,
// `while` (its result lives in its operand's buffer) and XLA's
// value-forwarding ops (TraceBuffer). For every computation the buffers its
// ROOT returns are recorded, so "does this buffer reach ROOT?" is a lookup.
#pragma once

#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "analysis/analyses.h"
#include "analysis/in_place.h"
#include "ir/module.h"

namespace hlolint {

// True when one index is a prefix of the other (the subshapes overlap).
bool IndicesOverlap(const ShapeIndex& a, const ShapeIndex& b);

class RootReachability {
 public:
  RootReachability(const Module& module, Analyses& analyses);

  // Through tuple / get-tuple-element / bitcast, until none applies.
  ValueRef TraceValue(ValueRef value) const;
  // TraceValue plus in-place pairs (an in-place result lives in its operand's
  // buffer), while, opt-barrier, add-dependency, domain, and the *-done ops
  // that return a buffer of their *-start.
  ValueRef TraceBuffer(ValueRef value) const;

  // A buffer the ROOT of `source.instr`'s computation returns and that
  // overlaps `source` (a TraceBuffer result): the ROOT output index, or
  // nullopt when the buffer does not reach ROOT.
  std::optional<ShapeIndex> RootOutputFor(const ValueRef& source) const;
  // The input_output_alias entry of the module header that aliases `source`
  // (a TraceBuffer result that is an entry parameter), or null.
  const InputOutputAlias* EntryAliasFor(const ValueRef& source) const;

 private:
  struct RootLeaf {
    InstrId source = kNoId;   // the defining instruction
    ShapeIndex source_index;  // index inside it
    ShapeIndex root_index;    // index inside the ROOT's result
  };
  struct LeafRange {
    uint32_t begin = 0;
    uint32_t count = kNoId;  // kNoId: not traced yet
  };
  // The ROOT leaves of computation `c`, traced on first use: a buffer only
  // ever reaches the ROOT of its own computation, and rules ask about a
  // few computations, so tracing every ROOT of a big module up front
  // (a cache miss or more per computation) is wasted. Call with
  // leaves_mutex_ held: the span is valid until the lock is released.
  std::span<const RootLeaf> RootLeaves(CompId c) const;

  const Module& m_;
  const InPlacePairs& pairs_;
  // Rules on several threads may ask at once (see Analyses); the lookups
  // are rare (a few per reported instruction), so one lock guards the memo.
  mutable std::mutex leaves_mutex_;
  mutable std::vector<LeafRange> leaf_ranges_;  // by computation, sized on first use
  mutable std::vector<RootLeaf> root_leaves_;
};

}  // namespace hlolint
