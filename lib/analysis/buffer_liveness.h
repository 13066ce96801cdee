// The buffers of a module and their live ranges along its schedule, with
// the buffer semantics of XLA's dataflow analysis and buffer assignment
// (xla/service/hlo_dataflow_analysis.cc, buffer_assignment.cc): the basis of
// the memory report (memory_estimate.h) and the memory rules.
//
// A value is one subshape of an instruction's result (a "slot": the
// subshapes numbered in pre-order, the tuple itself first). Each slot holds
// one logical buffer: a new one, or the buffer of an operand's slot that it
// forwards or shares:
//   - get-tuple-element, bitcast, while, optimization-barrier, domain,
//     add-dependency, async and collective *-done forward operand buffers;
//     a tuple forwards its elements and allocates only its index table
//     (8 bytes per element), as copy-start, send, async-start and the
//     collective *-start ops forward their operands into their outputs;
//   - in-place pairs (analysis/in_place.h: dynamic-update-slice, scatter,
//     in-place fusions, output_to_operand_aliasing) share their operand's
//     buffer;
//   - a call's result is its callee's root (or the caller's operand, where
//     the root is a callee parameter).
// Only the computations a program runs one instruction after another are
// walked: the entry and, through while, conditional, call and async-start,
// their callees. A fusion allocates its outputs only; reducers, sort
// comparators and other embedded computations allocate nothing here.
//
// Positions are indices into a computation's instruction list, which is its
// schedule when the module is_scheduled and its text order otherwise. A
// buffer lives from its defining instruction through its last use; the
// buffers of a computation's root live to its end.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "analysis/analyses.h"
#include "ir/module.h"

namespace hlolint {

enum class BufferKind : uint8_t {
  kTemporary,         // lives between its definition and last use
  kEntryParameter,    // lives throughout
  kCalleeParameter,   // a nested computation's parameter: the caller's buffer
  kConstant,          // lives throughout, in an allocation of its own
  kOutput,            // the entry's result: lives from its definition on
  kAliasedOutput,     // an entry output that input_output_alias puts in a parameter's buffer
  kCalleeResult,      // a nested computation's result: the caller counts it
  // An entry temporary that fits in an output's or a donated parameter's
  // buffer while that holds nothing live: XLA places it there, for free.
  kHostedTemporary,
};

struct LogicalBuffer {
  uint64_t bytes = 0;
  InstrId instr = kNoId;    // the defining instruction
  uint32_t slot = 0;        // the subshape of its result, in pre-order
  uint32_t defined_at = 0;  // position in its computation
  uint32_t last_use = 0;    // position of its last use (>= defined_at)
  CompId computation = kNoId;
  BufferKind kind = BufferKind::kTemporary;
  uint8_t space = 0;        // index into BufferLiveness::memory_spaces()
  bool sized = true;        // false: no size is known (unbounded, unknown shape): 0 bytes
  // A temporary written over an operand's buffer that dies at its
  // definition (XLA's CanShareOperandBufferWithUser: elementwise ops, loop
  // fusions): it needs no memory of its own at that position.
  bool reuses_operand = false;
  bool reused = false;      // the operand buffer such a temporary took over
  bool index_table = false; // a tuple's index table
};

// What one walked computation needs at most at once.
struct ComputationLiveness {
  CompId computation = kNoId;
  uint32_t buffers_begin = 0;  // its buffers are [buffers_begin, buffers_end)
  uint32_t buffers_end = 0;
  // Per memory space (index as in memory_spaces()): the largest sum of its
  // temporaries live at one position, nested computations' included.
  std::vector<uint64_t> temporaries_peak;
  // Where the default memory space's peak is (a position; 0 when empty).
  uint32_t peak_position = 0;
};

// XLA's CPU backend places temporaries at offsets aligned to this many
// bytes (cpu_function_runtime::MinAlign), so each takes its size rounded up.
inline constexpr uint64_t kTemporaryAlignment = 64;
inline uint64_t AlignedTemporaryBytes(uint64_t bytes) {
  return (bytes + kTemporaryAlignment - 1) / kTemporaryAlignment * kTemporaryAlignment;
}

class BufferLiveness {
 public:
  BufferLiveness(const Module& module, Analyses& analyses);

  const std::vector<LogicalBuffer>& buffers() const { return buffers_; }
  // The memory spaces (S(n) of layouts) in order of first appearance, the
  // default space 0 first.
  std::span<const int64_t> memory_spaces() const { return spaces_; }
  // The walked computations, callees before callers (the entry last).
  std::span<const ComputationLiveness> computations() const { return computations_; }
  // Null for a computation that is not walked.
  const ComputationLiveness* Find(CompId computation) const;
  // The buffer in slot `slot` of `instr`'s result; kNoId when the
  // instruction is not walked or has no such slot.
  uint32_t BufferAt(InstrId instr, uint32_t slot) const;
  uint32_t SlotCount(InstrId instr) const;
  // The ShapeIndex of slot `slot` in `shape` (for messages).
  static ShapeIndex SlotIndex(const Shape& shape, uint32_t slot);

  // Per position of `computation`, the bytes of memory space `space` that
  // its temporaries (each aligned, AlignedTemporaryBytes) and nested
  // computations need (and, when
  // `with_outputs`, its kOutput buffers from their definition on).
  std::vector<uint64_t> LiveBytes(const ComputationLiveness& computation, uint8_t space,
                                  bool with_outputs) const;
  // The callees a control-flow instruction runs at its position (while
  // condition and body, conditional branches, call and async callees).
  std::span<const CompId> NestedCallees(InstrId instr) const;

 private:
  void WalkComputation(CompId computation);
  void AssignSlots(CompId computation, InstrId instr, uint32_t position);
  void ForwardSlots(InstrId instr);
  void ShareInPlace(InstrId instr);
  void ForwardCallResult(InstrId call);
  void RecordUses(CompId computation, InstrId instr, uint32_t position);
  void MarkRoot(CompId computation);
  void ComputePeaks(ComputationLiveness& liveness);
  void HostTemporaries(const ComputationLiveness& entry);
  void ReuseOperandBuffers(const ComputationLiveness& liveness);
  // The temporary of `instr`'s operands whose buffer it may write its
  // result `result` over (it dies there, same bytes and memory space, and
  // `instr` reads it elementwise); kNoId when none. With `only`, that
  // buffer or none.
  uint32_t ShareableOperandBuffer(InstrId instr, const LogicalBuffer& result,
                                  uint32_t only = kNoId) const;
  uint32_t SortOperandBuffer(InstrId sort, const LogicalBuffer& result) const;
  // Puts the buffers of operand `operand`'s subshape at `from` into
  // `instr`'s slots of its subshape at `to` (the whole subtree, when both
  // subtrees have as many slots), where no buffer is there yet.
  void Share(InstrId instr, std::span<const int64_t> to, InstrId operand,
             std::span<const int64_t> from);
  void ShareOperandElements(InstrId instr, int64_t element);
  uint32_t ShapeSlots(const Shape& shape);
  // The slot of the subshape at `index` in `shape`, and that subshape.
  std::pair<uint32_t, const Shape*> SlotOf(const Shape& shape, std::span<const int64_t> index);
  uint8_t SpaceIndex(int64_t memory_space);

  const Module& m_;
  Analyses& analyses_;
  std::vector<LogicalBuffer> buffers_;
  std::vector<int64_t> spaces_{0};
  std::vector<ComputationLiveness> computations_;
  std::vector<uint32_t> computation_index_;  // by CompId; kNoId when not walked
  std::vector<uint32_t> slot_begin_;         // by InstrId; kNoId when not walked
  std::vector<uint32_t> slot_buffers_;
  std::vector<uint32_t> slot_count_by_shape_;  // by ShapeId; 0: not counted yet
  // A tuple shape's first slot of each element (after its own slot 0).
  absl::flat_hash_map<ShapeId, std::vector<uint32_t>> element_slots_;
  std::vector<CompId> no_callees_;
};

}  // namespace hlolint
