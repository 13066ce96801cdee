// In-place (must-alias) input/output pairs of every instruction, as XLA's
// AliasInfo::GetInPlaceInputOutputPairs computes them (in the XLA of the
// module's profile, Analyses::xla)
// (xla/hlo/analysis/alias_info.cc), including the fusion pair discovery of
// GetFusionInstructionInPlaceInputOutputPairs; and an extended fusion walk
// that also looks through reshape, transpose and copy, to find the pairs that
// XLA's discovery misses.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "analysis/analyses.h"
#include "analysis/call_attributes.h"
#include "ir/module.h"
#include "util/sparse_id_index.h"

namespace hlolint {

// False for opcodes that never have in-place pairs (Direct's switch, and
// fusion).
bool MayBeInPlace(Opcode opcode);

// Operand `operand` at `operand_index` must share its buffer with the output
// at `output_index`.
struct InPlacePair {
  int64_t operand = 0;
  ShapeIndex operand_index;
  ShapeIndex output_index;
  bool operator==(const InPlacePair&) const = default;
};

// A value: the subshape at `index` of the result of `instr`.
struct ValueRef {
  InstrId instr = kNoId;
  ShapeIndex index;
  bool operator==(const ValueRef&) const = default;
};

// XLA's FollowTupleIndirection: steps into `tuple` operands while the index
// is non-empty, then through `get-tuple-element`s (prepending their index).
ValueRef FollowTupleIndirection(const Module& m, ValueRef value);
// XLA's IsNoOpForAliasAnalysis: bitcast, and reshape where the profile
// says so (GPU from 2026-06-03, XlaChange::kGpuReshapeIsNoOpForAliasing).
bool IsNoOpForAliasAnalysis(Opcode opcode, bool reshape_is_no_op);
// XLA's FollowNoOpIndirection: through no-ops while the index is empty.
ValueRef FollowNoOpIndirection(const Module& m, ValueRef value, bool reshape_is_no_op);

// A pair as the table stores it: 16 bytes where an InPlacePair takes 56 (a
// large module has hundreds of thousands). An index is a code: 0 for {},
// 1 + i for {i}, or kInternedIndex plus its place in a table of the rest.
struct PackedPair {
  int64_t operand = 0;
  uint32_t operand_index = 0;
  uint32_t output_index = 0;
};

// The pair table of every instruction, computed for each on first ask:
// rules ask about few of a large module's million candidates (the unused
// ones, the roots of fused computations), and computing every one up front
// would take a cache miss or more per candidate. Rules on several threads
// may ask at once (see Analyses): a table computed is read without a lock,
// one is computed under mutex_, and its pairs never move.
class InPlacePairs {
 public:
  InPlacePairs(const Module& module, Analyses& analyses);

  // Pairs of one instruction, unpacked as they are visited.
  class PairList {
   public:
    class iterator {
     public:
      using iterator_category = std::forward_iterator_tag;
      using value_type = InPlacePair;
      using difference_type = std::ptrdiff_t;
      using pointer = void;
      using reference = InPlacePair;
      iterator() = default;
      iterator(const InPlacePairs* table, const PackedPair* at) : table_(table), at_(at) {}
      InPlacePair operator*() const { return table_->Unpack(*at_); }
      iterator& operator++() {
        ++at_;
        return *this;
      }
      iterator operator++(int) {
        iterator before = *this;
        ++at_;
        return before;
      }
      bool operator==(const iterator& other) const { return at_ == other.at_; }

     private:
      const InPlacePairs* table_ = nullptr;
      const PackedPair* at_ = nullptr;
    };
    PairList() = default;
    PairList(const InPlacePairs* table, const PackedPair* first, uint32_t count)
        : table_(table), first_(first), count_(count) {}
    iterator begin() const { return {table_, first_}; }
    iterator end() const { return {table_, first_ + count_}; }
    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }

   private:
    const InPlacePairs* table_ = nullptr;
    const PackedPair* first_ = nullptr;
    uint32_t count_ = 0;
  };

  // GetInPlaceInputOutputPairs(id); empty for instructions that are not in place.
  PairList Get(InstrId id) const {
    if (!MayBeInPlace(m_.opcode(id))) return {};
    const uint32_t slot = candidate_slots_.Find(id);  // every such id is a candidate
    if (state_[slot].load(std::memory_order_acquire) != kDone && !ComputeLocked(id, slot)) {
      return {};
    }
    const Range& r = range_of_[slot];
    return {this, r.first, r.count};
  }
  bool IsInPlace(InstrId id) const { return !Get(id).empty(); }
  // Whether any of `ids` is in place. Their fusions are screened first, in
  // passes over all of them: a fusion that declares no aliasing and whose
  // fused root cannot start XLA's walk has no pairs. Its callee, that
  // computation's root and the root's opcode are each a cache miss in a
  // large module, which fusion after fusion would wait on; pass by pass,
  // the misses of many fusions overlap.
  bool AnyInPlace(std::span<const InstrId> ids) const;
  // The pair of `id` whose output index is `output_index`, if any.
  std::optional<InPlacePair> PairForOutput(InstrId id, const ShapeIndex& output_index) const;

 private:
  // Trivial: the table of a million is not written before it is used.
  struct Range {
    const PackedPair* first;
    uint32_t count;
    // A fusion's pairs found in its body come first, then those it declares
    // (output_to_operand_aliasing); for other instructions, all of them.
    uint32_t discovered;
  };
  static constexpr uint32_t kInternedIndex = uint32_t{1} << 31;
  // Candidate states: not computed, being computed (a malformed cycle
  // meets it: no pairs), computed (its range is published).
  static constexpr uint8_t kNotComputed = 0, kComputing = 1, kDone = 2;
  // Pairs are stored in blocks of this many (or one of its own, for an
  // instruction with more), which never move.
  static constexpr uint32_t kBlockPairs = 4096;
  uint32_t PackIndex(const ShapeIndex& index) const;
  ShapeIndex UnpackIndex(uint32_t code) const;
  InPlacePair Unpack(const PackedPair& packed) const {
    InPlacePair pair;
    pair.operand = packed.operand;
    pair.operand_index = UnpackIndex(packed.operand_index);
    pair.output_index = UnpackIndex(packed.output_index);
    return pair;
  }
  // Takes mutex_ and computes the pairs of candidate `id` at position
  // `slot` of candidate_slots_, unless another thread did meanwhile; false
  // when they are not there (a computation that threw left them unfinished).
  bool ComputeLocked(InstrId id, uint32_t slot) const;
  // Under mutex_: computes the pairs of candidate `id` at `slot` and
  // publishes their range.
  void Compute(InstrId id, uint32_t slot) const;
  // Under mutex_: computes `id`'s pairs if need be; their range ({} for an
  // instruction that cannot be in place).
  Range ComputedRange(InstrId id) const;
  // Under mutex_: room for `count` pairs that no block boundary cuts.
  PackedPair* Store(uint32_t count) const;
  void AddDirectPairs(InstrId id, std::vector<InPlacePair>& pairs) const;
  void AddCollectivePermutePairs(InstrId id, std::vector<InPlacePair>& pairs) const;
  void AddAsyncStartPairs(InstrId id, std::vector<InPlacePair>& pairs) const;
  void AddAsyncUpdatePairs(InstrId id, std::vector<InPlacePair>& pairs) const;
  void AddAsyncDonePairs(InstrId id, std::vector<InPlacePair>& pairs) const;
  void AddDiscoveredFusionPairs(InstrId fusion, std::vector<InPlacePair>& pairs) const;

  const Module& m_;
  const CallAttributes& call_attributes_;
  const XlaProfile xla_;
  const bool reshape_is_no_op_;  // IsNoOpForAliasAnalysis
  // Per candidate (an instruction whose opcode may be in place), at its
  // position in candidate_slots_: a state, and the range once kDone. Kept per
  // candidate, not per instruction: most instructions are never candidates.
  SparseIdIndex candidate_slots_;
  std::unique_ptr<std::atomic<uint8_t>[]> state_;
  std::unique_ptr<Range[]> range_of_;
  // Everything below is under mutex_ (computing), except as noted.
  mutable std::mutex mutex_;
  mutable std::vector<std::unique_ptr<PackedPair[]>> blocks_;
  mutable uint32_t block_used_ = kBlockPairs;  // pairs used in blocks_.back()
  mutable std::vector<std::unique_ptr<PackedPair[]>> large_blocks_;  // one's own each
  mutable std::deque<std::vector<InPlacePair>> scratch_;  // by depth_; deque: no moves
  mutable size_t depth_ = 0;
  // The indices that are neither {} nor {i}, by code & ~kInternedIndex,
  // and their codes; under interned_mutex_ (readers unpack them too).
  mutable std::mutex interned_mutex_;
  mutable std::deque<ShapeIndex> interned_indices_;
  mutable absl::flat_hash_map<ShapeIndex, uint32_t> index_codes_;
};

// One pair of a fusion found by the extended walk.
struct ExtendedFusionPair {
  InPlacePair pair;               // parameter number -> fusion output
  InstrId in_place_op = kNoId;    // the DUS / scatter / aliasing op inside
  // The instructions the walk had to look through and XLA's walk does not
  // (reshape, transpose, copy; a reshape not on GPU from 2026-06-03; a
  // bitcast on the output side before 2026-06-03), output side first, then
  // from the in-place op towards the parameter.
  std::vector<InstrId> blockers;
  // True when XLA's pair table for the fusion (discovered pairs plus
  // output_to_operand_aliasing) lacks this pair.
  bool missed_by_xla = false;
};

// For every fusion instruction: the pairs found when the discovery walk
// also looks through reshape, transpose and copy (except a copy between
// memory spaces), alternating tuple and no-op indirections until neither
// applies.
//
// Only the fusions with a pair XLA misses behind a blocker (few, usually
// none, and only among fusions whose computation has a reshape, transpose
// or copy, the only ones walked up front) keep their pairs; any other
// fusion's are walked again when asked for. Keeping every
// fusion's would cost a heap block per fusion for the one rule that reads
// them, which asks for other fusions' pairs only next to a missed one.
class ExtendedFusionPairs {
 public:
  ExtendedFusionPairs(const Module& module, Analyses& analyses);

  std::vector<ExtendedFusionPair> Get(InstrId fusion) const;
  // Fusion instructions with at least one pair XLA misses behind a
  // reshape, transpose or copy (blockers not empty), in id order. (A pair
  // missed without one, found by following tuples and bitcasts further than
  // XLA does, is in Get's answer only.)
  const std::vector<InstrId>& fusions_with_missed_pairs() const { return missed_; }

 private:
  struct Range {
    uint32_t begin = 0;
    uint32_t count = 0;
  };
  // Appends the pairs of `fusion` to `*out`; true when XLA misses one
  // behind a blocker.
  bool Walk(InstrId fusion, std::vector<ExtendedFusionPair>* out) const;

  const Module& m_;
  // Held by the same Analyses, which releases both together
  // (ReleaseSeedRuleAnalyses releases every analysis but the indices).
  const InPlacePairs& table_;
  // What XLA's walk looks through in the module's profile: a bitcast on the
  // output side (from 2026-06-03), a reshape (GPU, from 2026-06-03).
  const bool output_side_follows_bitcast_;
  const bool reshape_is_no_op_;
  // The pairs of the fusions in missed_, a range each (missed_[i]: ranges_[i]).
  std::vector<ExtendedFusionPair> pairs_;
  std::vector<Range> ranges_;
  std::vector<InstrId> missed_;
};


// True for the opcodes the extended walk looks through: reshape, transpose, copy.
bool IsLayoutOnlyBlocker(Opcode opcode);

}  // namespace hlolint
