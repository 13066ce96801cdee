// In-place (must-alias) input/output pairs of every instruction, as XLA's
// AliasInfo::GetInPlaceInputOutputPairs computes them
// (xla/hlo/analysis/alias_info.cc), including the fusion pair discovery of
// GetFusionInstructionInPlaceInputOutputPairs; and an extended fusion walk
// that also looks through reshape, transpose and copy, to find the pairs that
// XLA's discovery misses.
#pragma once

#include <cstdint>
#include <deque>
#include <iterator>
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
// XLA's FollowNoOpIndirection with the default IsNoOpForAliasAnalysis:
// through `bitcast` while the index is empty.
ValueRef FollowNoOpIndirection(const Module& m, ValueRef value);

// A pair as the table stores it: 16 bytes where an InPlacePair takes 56 (a
// large module has hundreds of thousands). An index is a code: 0 for {},
// 1 + i for {i}, or kInternedIndex plus its place in a table of the rest.
struct PackedPair {
  int64_t operand = 0;
  uint32_t operand_index = 0;
  uint32_t output_index = 0;
};

// The pair table of every instruction, computed when the analysis is built
// (in text order, releasing the text behind), in one flat array: rules look
// pairs up by id all over a large module.
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
    const uint32_t at = in_place_.Find(id);
    if (at == SparseIdIndex::kNone) return {};
    const Range& r = ranges_[at];
    return {this, pairs_.data() + r.begin, r.count};
  }
  bool IsInPlace(InstrId id) const { return in_place_.Find(id) != SparseIdIndex::kNone; }
  // Whether pred(id) holds for some instruction with pairs (in id order).
  template <typename Pred>
  bool AnyInPlace(const Pred& pred) const {
    return in_place_.Any(pred);
  }
  // The pair of `id` whose output index is `output_index`, if any.
  std::optional<InPlacePair> PairForOutput(InstrId id, const ShapeIndex& output_index) const;

 private:
  struct Range {
    uint32_t begin = 0;
    uint32_t count = 0;
  };
  static constexpr uint32_t kInternedIndex = uint32_t{1} << 31;
  uint32_t PackIndex(const ShapeIndex& index);
  ShapeIndex UnpackIndex(uint32_t code) const;
  InPlacePair Unpack(const PackedPair& packed) const {
    InPlacePair pair;
    pair.operand = packed.operand;
    pair.operand_index = UnpackIndex(packed.operand_index);
    pair.output_index = UnpackIndex(packed.output_index);
    return pair;
  }
  // The pairs of candidate `id` at position `slot` of candidate_slots_.
  void Compute(InstrId id, uint32_t slot);
  // Computes `id`'s pairs if need be; their range ({} for an instruction
  // that cannot be in place).
  Range ComputedRange(InstrId id);
  void AddDirectPairs(InstrId id, std::vector<InPlacePair>& pairs) const;
  void AddDiscoveredFusionPairs(InstrId fusion, std::vector<InPlacePair>& pairs);

  const Module& m_;
  const CallAttributes& call_attributes_;
  std::vector<PackedPair> pairs_;
  // The indices that are neither {} nor {i}, by code & ~kInternedIndex,
  // and (while building) their codes.
  std::vector<ShapeIndex> interned_indices_;
  absl::flat_hash_map<ShapeIndex, uint32_t> index_codes_;
  // Once built: the instructions with pairs, and their ranges in pairs_.
  SparseIdIndex in_place_;
  std::vector<Range> ranges_;
  // While building: a range and a state (0 = not computed, 1 = computing,
  // 2 = done) per candidate, an instruction whose opcode may be in place,
  // at its position in candidate_slots_. Per instruction instead, they took
  // 9 bytes each (50 MB at 1 GB), fresh memory unless a freed block
  // happened to fit them.
  SparseIdIndex candidate_slots_;
  std::vector<Range> range_of_;
  std::vector<uint8_t> state_;
  std::deque<std::vector<InPlacePair>> scratch_;  // by depth_; deque: no moves
  size_t depth_ = 0;
};

// One pair of a fusion found by the extended walk.
struct ExtendedFusionPair {
  InPlacePair pair;               // parameter number -> fusion output
  InstrId in_place_op = kNoId;    // the DUS / scatter / aliasing op inside
  // reshape / transpose / copy instructions the walk had to look through,
  // output side first, then from the in-place op towards the parameter.
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
// Only the fusions with a pair XLA misses (few, usually none) keep their
// pairs; any other fusion's are walked again when asked for. Kept for every
// fusion, they took 96 bytes and a heap block each (25 MB of fresh memory
// at 1 GB of HLO) for the one rule that reads them, which asks for other
// fusions' pairs only next to a missed one.
class ExtendedFusionPairs {
 public:
  ExtendedFusionPairs(const Module& module, Analyses& analyses);

  std::vector<ExtendedFusionPair> Get(InstrId fusion) const;
  // Fusion instructions with at least one pair missed by XLA, in id order.
  const std::vector<InstrId>& fusions_with_missed_pairs() const { return missed_; }

 private:
  struct Range {
    uint32_t begin = 0;
    uint32_t count = 0;
  };
  // Appends the pairs of `fusion` to `*out`; true when XLA misses one.
  bool Walk(InstrId fusion, std::vector<ExtendedFusionPair>* out) const;

  const Module& m_;
  // Held by the same Analyses, which releases both together
  // (ReleaseSeedRuleAnalyses releases every analysis but the indices).
  const InPlacePairs& table_;
  // The pairs of the fusions in missed_, a range each (missed_[i]: ranges_[i]).
  std::vector<ExtendedFusionPair> pairs_;
  std::vector<Range> ranges_;
  std::vector<InstrId> missed_;
};

// False for opcodes that never have in-place pairs (Direct's switch, and
// fusion).
bool MayBeInPlace(Opcode opcode);

// True for the opcodes the extended walk looks through: reshape, transpose, copy.
bool IsLayoutOnlyBlocker(Opcode opcode);

}  // namespace hlolint
