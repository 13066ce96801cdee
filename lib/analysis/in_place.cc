#include "analysis/in_place.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <string_view>

#include "analysis/call_attributes.h"
#include "analysis/opcode_index.h"
#include "parse/attributes.h"

namespace hlolint {
namespace {

bool ContainsIgnoreCase(std::string_view haystack, std::string_view needle) {
  if (needle.size() > haystack.size()) return false;
  for (size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    bool match = true;
    for (size_t j = 0; j < needle.size() && match; ++j) {
      match = std::tolower(static_cast<unsigned char>(haystack[i + j])) ==
              std::tolower(static_cast<unsigned char>(needle[j]));
    }
    if (match) return true;
  }
  return false;
}

// Appends output_to_operand_aliasing as pairs, in the instruction's own
// shape indices.
void AddAliasingPairs(const CallAttributes& call_attributes, InstrId id,
                      std::vector<InPlacePair>& pairs) {
  for (const OutputOperandAlias& alias : call_attributes.Aliasing(id)) {
    InPlacePair& pair = pairs.emplace_back();
    pair.operand = alias.operand;
    pair.operand_index = alias.operand_index;
    pair.output_index = alias.output_index;
  }
}

// Whether `id`'s output_to_operand_aliasing is its own: XLA's parser gives
// the attribute of a `custom-call-start` or `fusion-start` to the wrapped
// custom call or fusion (in the wrapped op's indices), and that of any other
// async-start to the start itself.
bool AliasingBelongsToStart(const Module& m, InstrId start) {
  if (!m.instr(start).has(Instruction::kAsyncSugar)) return true;
  const Opcode wrapped = m.async_wrapped_opcode(start);
  return wrapped != Opcode::kCustomCall && wrapped != Opcode::kFusion;
}

// The async-start of the chain `id` (an async-update or async-done) belongs
// to, through its operand 0 and earlier updates; kNoId when there is none.
// `*bound` counts the operands the chain has bound up to and including
// that operand (XLA's GetAsyncBoundOperands).
InstrId AsyncChainStart(const Module& m, InstrId id, int64_t* bound) {
  *bound = 0;
  InstrId at = m.operands(id).empty() ? kNoId : m.operand(id, 0);
  for (size_t steps = 0; at != kNoId && steps < m.instruction_count(); ++steps) {
    if (m.opcode(at) == Opcode::kAsyncStart) {
      *bound += static_cast<int64_t>(m.operands(at).size());
      return at;
    }
    if (m.opcode(at) != Opcode::kAsyncUpdate || m.operands(at).empty()) return kNoId;
    *bound += static_cast<int64_t>(m.operands(at).size()) - 1;
    at = m.operand(at, 0);
  }
  return kNoId;
}

// An element of a tuple that holds nothing yet (a late-bound operand or
// output of an async chain): `()`.
bool IsEmptyTupleAt(const Shape& shape, int64_t element) {
  if (!shape.IsTuple() || element < 0 ||
      element >= static_cast<int64_t>(shape.tuple_shapes.size())) {
    return false;
  }
  const Shape& at = *shape.tuple_shapes[static_cast<size_t>(element)];
  return at.IsTuple() && at.tuple_shapes.empty();
}

// Operand `n` of `id`, or kNoId when out of range.
InstrId OperandOrNone(const Module& m, InstrId id, int64_t n) {
  auto operands = m.operands(id);
  if (n < 0 || n >= static_cast<int64_t>(operands.size())) return kNoId;
  return operands[static_cast<size_t>(n)];
}

// Appends operand `operand` at `operand_index` -> output `output_index`.
// (Built in place: copying brace-initialised empty InlinedVectors trips a
// GCC -Wmaybe-uninitialized false positive.)
void AddPair(std::vector<InPlacePair>& pairs, int64_t operand,
             std::initializer_list<int64_t> operand_index,
             std::initializer_list<int64_t> output_index) {
  InPlacePair& pair = pairs.emplace_back();
  pair.operand = operand;
  pair.operand_index.assign(operand_index.begin(), operand_index.end());
  pair.output_index.assign(output_index.begin(), output_index.end());
}

// Whether XLA's pair discovery can start at a fused root with this opcode:
// most roots are plain compute, from which no walk starts and which have no
// pairs themselves.
bool RootMayHavePairs(Opcode root_opcode, bool reshape_is_no_op) {
  return root_opcode == Opcode::kTuple || root_opcode == Opcode::kGetTupleElement ||
         IsNoOpForAliasAnalysis(root_opcode, reshape_is_no_op) || MayBeInPlace(root_opcode);
}

bool HasPair(const InPlacePairs::PairList& pairs, const InPlacePair& pair) {
  return std::find(pairs.begin(), pairs.end(), pair) != pairs.end();
}

}  // namespace

ValueRef FollowTupleIndirection(const Module& m, ValueRef value) {
  while (m.opcode(value.instr) == Opcode::kTuple && !value.index.empty()) {
    const InstrId next = OperandOrNone(m, value.instr, value.index.front());
    if (next == kNoId) return value;
    value.instr = next;
    value.index.erase(value.index.begin());
  }
  while (m.opcode(value.instr) == Opcode::kGetTupleElement && !m.operands(value.instr).empty()) {
    value.index.insert(value.index.begin(), m.number(value.instr));
    value.instr = m.operand(value.instr, 0);
  }
  return value;
}

bool IsNoOpForAliasAnalysis(Opcode opcode, bool reshape_is_no_op) {
  return opcode == Opcode::kBitcast || (reshape_is_no_op && opcode == Opcode::kReshape);
}

ValueRef FollowNoOpIndirection(const Module& m, ValueRef value, bool reshape_is_no_op) {
  while (value.index.empty() && IsNoOpForAliasAnalysis(m.opcode(value.instr), reshape_is_no_op) &&
         !m.operands(value.instr).empty()) {
    value.instr = m.operand(value.instr, 0);
  }
  return value;
}

bool IsLayoutOnlyBlocker(Opcode opcode) {
  return opcode == Opcode::kReshape || opcode == Opcode::kTranspose || opcode == Opcode::kCopy;
}

// ---------------------------------------------------------------- InPlacePairs

InPlacePairs::InPlacePairs(const Module& module, Analyses& analyses)
    : m_(module),
      call_attributes_(analyses.Get<CallAttributes>()),
      xla_(analyses.xla()),
      reshape_is_no_op_(xla_.Has(XlaChange::kGpuReshapeIsNoOpForAliasing)) {
  // One pass over the opcodes (a byte per instruction): merging the opcode
  // index's groups would take a pass per group (fusion is a bulk one).
  std::array<bool, kOpcodeCount + 1> candidate{};
  for (int o = 0; o <= kOpcodeCount; ++o) candidate[o] = MayBeInPlace(static_cast<Opcode>(o));
  const size_t n = m_.instruction_count();
  candidate_slots_ = SparseIdIndex(n);
  for (InstrId id = 0; id < n; ++id) {
    if (candidate[static_cast<size_t>(m_.opcode(id))]) candidate_slots_.Add(id);
  }
  const size_t count = candidate_slots_.size();
  state_ = std::make_unique<std::atomic<uint8_t>[]>(count);  // kNotComputed
  range_of_ = std::make_unique_for_overwrite<Range[]>(count);  // written when kDone
}

bool InPlacePairs::AnyInPlace(std::span<const InstrId> ids) const {
  // Per fusion: its callee, then (kept in the same slot) the callee's root.
  std::vector<uint32_t> step(ids.size(), kNoId);
  for (size_t k = 0; k < ids.size(); ++k) {
    if (m_.opcode(ids[k]) != Opcode::kFusion) continue;
    const std::span<const CompId> called = m_.called(ids[k]);
    if (!called.empty()) step[k] = called[0];
  }
  for (uint32_t& s : step) {
    if (s != kNoId) s = m_.computation(s).root;
  }
  for (size_t k = 0; k < ids.size(); ++k) {
    const InstrId id = ids[k];
    const Opcode opcode = m_.opcode(id);
    if (!MayBeInPlace(opcode)) continue;
    if (opcode == Opcode::kFusion &&
        (step[k] == kNoId || !RootMayHavePairs(m_.opcode(step[k]), reshape_is_no_op_)) &&
        call_attributes_.Aliasing(id).empty()) {
      continue;  // no pairs (Compute)
    }
    if (IsInPlace(id)) return true;
  }
  return false;
}

std::optional<InPlacePair> InPlacePairs::PairForOutput(InstrId id,
                                                       const ShapeIndex& output_index) const {
  for (InPlacePair pair : Get(id)) {
    if (pair.output_index == output_index) return pair;
  }
  return std::nullopt;
}

uint32_t InPlacePairs::PackIndex(const ShapeIndex& index) const {
  if (index.empty()) return 0;
  if (index.size() == 1 && index[0] >= 0 && index[0] < kInternedIndex - 1) {
    return static_cast<uint32_t>(index[0]) + 1;
  }
  std::lock_guard<std::mutex> lock(interned_mutex_);
  const auto [it, inserted] =
      index_codes_.try_emplace(index, kInternedIndex | static_cast<uint32_t>(interned_indices_.size()));
  if (inserted) interned_indices_.push_back(index);
  return it->second;
}

ShapeIndex InPlacePairs::UnpackIndex(uint32_t code) const {
  ShapeIndex index;
  if (code & kInternedIndex) {
    std::lock_guard<std::mutex> lock(interned_mutex_);
    index = interned_indices_[code & ~kInternedIndex];
  } else if (code != 0) {
    index.push_back(code - 1);
  }
  return index;
}

bool InPlacePairs::ComputeLocked(InstrId id, uint32_t slot) const {
  std::lock_guard<std::mutex> lock(mutex_);
  Compute(id, slot);
  return state_[slot].load(std::memory_order_relaxed) == kDone;
}

InPlacePairs::Range InPlacePairs::ComputedRange(InstrId id) const {
  if (!MayBeInPlace(m_.opcode(id))) return {};
  const uint32_t slot = candidate_slots_.Find(id);  // every such id is a candidate
  Compute(id, slot);
  // Still being computed: a (malformed) cycle, no pairs.
  if (state_[slot].load(std::memory_order_relaxed) != kDone) return {};
  return range_of_[slot];
}

PackedPair* InPlacePairs::Store(uint32_t count) const {
  if (count > kBlockPairs) return large_blocks_.emplace_back(new PackedPair[count]).get();
  if (kBlockPairs - block_used_ < count) {
    blocks_.push_back(std::make_unique<PackedPair[]>(kBlockPairs));
    block_used_ = 0;
  }
  PackedPair* const at = blocks_.back().get() + block_used_;
  block_used_ += count;
  return at;
}

void InPlacePairs::Compute(InstrId id, uint32_t slot) const {
  // Done, or being computed (a malformed cycle: no pairs, ComputedRange).
  if (state_[slot].load(std::memory_order_relaxed) != kNotComputed) return;
  state_[slot].store(kComputing, std::memory_order_relaxed);
  // One scratch list per nesting level, kept between calls: computing a
  // fusion's pairs may compute another instruction's first.
  if (scratch_.size() <= depth_) scratch_.emplace_back();
  std::vector<InPlacePair>& pairs = scratch_[depth_++];
  pairs.clear();
  uint32_t discovered = 0;
  if (m_.opcode(id) == Opcode::kFusion) {
    AddDiscoveredFusionPairs(id, pairs);
    discovered = static_cast<uint32_t>(pairs.size());
    AddAliasingPairs(call_attributes_, id, pairs);
  } else {
    AddDirectPairs(id, pairs);
    discovered = static_cast<uint32_t>(pairs.size());
  }
  --depth_;
  const auto count = static_cast<uint32_t>(pairs.size());
  Range range{};
  if (count != 0) {
    PackedPair* const stored = Store(count);
    for (uint32_t k = 0; k < count; ++k) {
      stored[k] = {pairs[k].operand, PackIndex(pairs[k].operand_index),
                   PackIndex(pairs[k].output_index)};
    }
    range = {stored, count, discovered};
  }
  range_of_[slot] = range;
  state_[slot].store(kDone, std::memory_order_release);  // publishes the range
}

// The opcodes Direct can give pairs, and fusion: keep in step with its
// switch (an opcode missing here never gets pairs).
bool MayBeInPlace(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAllReduceStart:
    case Opcode::kDynamicUpdateSlice:
    case Opcode::kScatter:
    case Opcode::kCollectivePermute:
    case Opcode::kCollectivePermuteStart:
    case Opcode::kCustomCall:
    case Opcode::kAsyncStart:
    case Opcode::kAsyncUpdate:
    case Opcode::kAsyncDone:
    case Opcode::kSetDimensionSize:
    case Opcode::kRaggedAllToAll:
    case Opcode::kFusion:
      return true;
    default:
      return false;
  }
}

void InPlacePairs::AddDirectPairs(InstrId id, std::vector<InPlacePair>& pairs) const {
  const Instruction& instr = m_.instr(id);
  const int64_t operand_count = m_.OperandCount(instr);
  switch (instr.opcode) {  // every case is listed in MayBeInPlace above
    case Opcode::kAllReduceStart:
      // NVSHMEM's one-shot all-reduce needed separate input and output
      // buffers until XLA dropped NVSHMEM.
      if (xla_.Has(XlaChange::kAllReduceStartNvshmemOutOfPlace) &&
          !xla_.Has(XlaChange::kAllReduceStartNvshmemInPlace)) {
        if (auto config = RawStringAttr(m_, id, AttrName::kBackendConfig);
            config && ContainsIgnoreCase(*config, "nvshmem")) {
          return;
        }
      }
      [[fallthrough]];
    case Opcode::kDynamicUpdateSlice:
    case Opcode::kScatter: {
      int64_t in_place = operand_count;
      if (instr.opcode == Opcode::kScatter) in_place = (operand_count - 1) / 2;
      if (instr.opcode == Opcode::kDynamicUpdateSlice) in_place = 1;
      if (in_place == 1) {
        AddPair(pairs, 0, {}, {});
        return;
      }
      for (int64_t i = 0; i < in_place; ++i) AddPair(pairs, i, {}, {i});
      return;
    }
    case Opcode::kCollectivePermute:
    case Opcode::kCollectivePermuteStart:
      AddCollectivePermutePairs(id, pairs);
      return;
    case Opcode::kCustomCall:
      AddAliasingPairs(call_attributes_, id, pairs);
      return;
    case Opcode::kAsyncStart:
      AddAsyncStartPairs(id, pairs);
      return;
    case Opcode::kAsyncUpdate:
      if (xla_.Has(XlaChange::kAsyncUpdateDoneInPlace)) AddAsyncUpdatePairs(id, pairs);
      return;
    case Opcode::kAsyncDone:
      if (xla_.Has(XlaChange::kAsyncUpdateDoneInPlace)) AddAsyncDonePairs(id, pairs);
      return;
    case Opcode::kSetDimensionSize:
      AddPair(pairs, 0, {}, {});
      return;
    case Opcode::kRaggedAllToAll:
      AddPair(pairs, 1, {}, {});
      return;
    default:
      return;
  }
}

void InPlacePairs::AddCollectivePermutePairs(InstrId id, std::vector<InPlacePair>& pairs) const {
  if (m_.operands(id).size() != 4) return;
  const bool start = m_.opcode(id) == Opcode::kCollectivePermuteStart;
  // HloCollectivePermuteInstruction::inplace(): a non-empty slice_sizes.
  const auto slice_sizes = IntListListAttr(m_, id, AttrName::kSliceSizes);
  const bool in_place = slice_sizes && !slice_sizes->empty();
  const XlaChange needs_slices = start ? XlaChange::kCollectivePermuteStartInPlaceNeedsSlices
                                       : XlaChange::kCollectivePermuteInPlaceNeedsSlices;
  if (!in_place && xla_.Has(needs_slices)) return;
  // Operand 1 is the output buffer; the -start's result is element {1}.
  if (start) {
    AddPair(pairs, 1, {}, {1});
  } else {
    AddPair(pairs, 1, {}, {});
  }
  const Shape& buffer = m_.shape(m_.operand(id, 1));
  if (!buffer.IsTuple()) return;
  for (int64_t i = 0; i < static_cast<int64_t>(buffer.tuple_shapes.size()); ++i) {
    if (start) {
      AddPair(pairs, 1, {i}, {1, i});
    } else {
      AddPair(pairs, 1, {i}, {i});
    }
  }
}

void InPlacePairs::AddAsyncStartPairs(InstrId id, std::vector<InPlacePair>& pairs) const {
  if (!xla_.Has(XlaChange::kAsyncStartAliasing) || !AliasingBelongsToStart(m_, id)) return;
  const bool checked = xla_.Has(XlaChange::kAsyncUpdateDoneInPlace);
  const int64_t operand_count = static_cast<int64_t>(m_.operands(id).size());
  if (checked && operand_count == 0) return;
  const Shape& shape = m_.shape(id);
  for (const OutputOperandAlias& alias : call_attributes_.Aliasing(id)) {
    if (checked) {
      // XLA drops what does not fit the start, and CHECK-fails on an empty
      // output index (hlolint drops that too).
      if (alias.output_index.empty()) continue;
      if (alias.output_index[0] == 1 && IsEmptyTupleAt(shape, 1)) continue;
      if (Subshape(shape, alias.output_index) == nullptr) continue;
      if (alias.operand >= operand_count) continue;
    }
    InPlacePair& pair = pairs.emplace_back();
    pair.operand = alias.operand;
    pair.operand_index = alias.operand_index;
    pair.output_index = alias.output_index;
  }
}

void InPlacePairs::AddAsyncUpdatePairs(InstrId id, std::vector<InPlacePair>& pairs) const {
  int64_t bound = 0;
  const InstrId start = AsyncChainStart(m_, id, &bound);
  if (start == kNoId || !AliasingBelongsToStart(m_, start)) return;
  const int64_t operand_count = static_cast<int64_t>(m_.operands(id).size());
  if (operand_count == 1) return;  // a classic update binds nothing
  const Shape& shape = m_.shape(id);
  for (const OutputOperandAlias& alias : call_attributes_.Aliasing(start)) {
    if (alias.output_index.empty()) continue;
    if (alias.output_index[0] == 1 && IsEmptyTupleAt(shape, 1)) continue;  // not bound yet
    if (Subshape(shape, alias.output_index) == nullptr) continue;
    // The start's operand numbers count every operand bound along the chain;
    // this update's late-bound operands are 1.. of its own.
    const int64_t operand = alias.operand - bound + 1;
    if (operand <= 0 || operand >= operand_count) continue;
    InPlacePair& pair = pairs.emplace_back();
    pair.operand = operand;
    pair.operand_index = alias.operand_index;
    pair.output_index = alias.output_index;
  }
}

void InPlacePairs::AddAsyncDonePairs(InstrId id, std::vector<InPlacePair>& pairs) const {
  int64_t bound = 0;
  const InstrId start = AsyncChainStart(m_, id, &bound);
  if (start == kNoId || !AliasingBelongsToStart(m_, start)) return;
  const Shape& shape = m_.shape(id);
  for (const OutputOperandAlias& alias : call_attributes_.Aliasing(start)) {
    // Only entries into the start's result element {1} reach the done.
    if (alias.output_index.empty() || alias.output_index[0] != 1) continue;
    InPlacePair& pair = pairs.emplace_back();
    pair.output_index.assign(alias.output_index.begin() + 1, alias.output_index.end());
    if (Subshape(shape, pair.output_index) == nullptr) {
      pairs.pop_back();
      continue;
    }
    // Operand 0 is the chain: element {0} of it holds the bound operands.
    pair.operand = 0;
    pair.operand_index = {0, alias.operand};
    pair.operand_index.insert(pair.operand_index.end(), alias.operand_index.begin(),
                              alias.operand_index.end());
  }
}

void InPlacePairs::AddDiscoveredFusionPairs(InstrId fusion,
                                            std::vector<InPlacePair>& result) const {
  auto called = m_.called(fusion);
  if (called.empty()) return;
  const InstrId root = m_.computation(called[0]).root;
  if (root == kNoId) return;
  // No leaf of the fusion can find a pair from most fused roots.
  if (!RootMayHavePairs(m_.opcode(root), reshape_is_no_op_)) return;
  // XLA from 2026-06-03 follows no-ops on both sides, and takes only the
  // body's pairs of a nested fusion that is the output source; before, the
  // output side followed tuples only, a nested fusion lent all its pairs,
  // and the input side skipped one bitcast after the nested fusion.
  const bool follows_no_ops = xla_.Has(XlaChange::kOutputSideFollowsNoOps);
  auto follow = [&](ValueRef v) {
    v = FollowTupleIndirection(m_, v);
    return follows_no_ops ? FollowNoOpIndirection(m_, v, reshape_is_no_op_) : v;
  };

  ForEachLeaf(m_.shape(fusion), [&](const ShapeIndex& index, const Shape&) {
    const ValueRef source = follow({root, index});
    std::optional<ValueRef> input;
    const Range sources = ComputedRange(source.instr);
    const uint32_t lent = follows_no_ops && m_.opcode(source.instr) == Opcode::kFusion
                              ? sources.discovered
                              : sources.count;
    for (uint32_t k = 0; k < lent && !input; ++k) {
      const InPlacePair pair = Unpack(sources.first[k]);
      if (pair.output_index != source.index) continue;
      const InstrId operand = OperandOrNone(m_, source.instr, pair.operand);
      if (operand == kNoId) continue;
      ValueRef in = follow({operand, pair.operand_index});
      if (m_.opcode(in.instr) == Opcode::kFusion) {
        // Peephole through a nested fusion's own pair, as XLA does (`in`
        // moves on at a match, and later pairs are matched against it).
        const Range nested = ComputedRange(in.instr);
        for (uint32_t j = 0; j < nested.count; ++j) {
          const InPlacePair nested_pair = Unpack(nested.first[j]);
          if (nested_pair.output_index != in.index) continue;
          const InstrId next = OperandOrNone(m_, in.instr, nested_pair.operand);
          if (next == kNoId) continue;
          in = follow({next, nested_pair.operand_index});
        }
      }
      if (!follows_no_ops && m_.opcode(in.instr) == Opcode::kBitcast &&
          !m_.operands(in.instr).empty()) {
        in.instr = m_.operand(in.instr, 0);
      }
      input = in;
    }
    if (input && m_.opcode(input->instr) == Opcode::kParameter) {
      result.push_back({m_.number(input->instr), input->index, index});
    }
  });
}

// --------------------------------------------------------- ExtendedFusionPairs

namespace {

// A copy between memory spaces moves the data (prefetch / eviction); it is
// not a view of the parameter.
bool IsMemorySpaceCopy(const Module& m, InstrId id) {
  if (m.opcode(id) != Opcode::kCopy) return false;
  return m.shape(id).layout.memory_space != m.shape(m.operand(id, 0)).layout.memory_space;
}

// Tuple/GTE and no-op indirections, alternated until neither applies; the
// no-op step also takes bitcast, reshape, transpose and copy, and records
// those XLA's walk would not pass (`xla_no_op`) as blockers.
template <typename IsXlaNoOp>
ValueRef FollowExtended(const Module& m, ValueRef value, std::vector<InstrId>* blockers,
                        IsXlaNoOp xla_no_op) {
  while (true) {
    const ValueRef before = value;
    value = FollowTupleIndirection(m, value);
    while (value.index.empty() && !m.operands(value.instr).empty() &&
           (m.opcode(value.instr) == Opcode::kBitcast ||
            IsLayoutOnlyBlocker(m.opcode(value.instr))) &&
           !IsMemorySpaceCopy(m, value.instr)) {
      if (!xla_no_op(m.opcode(value.instr))) blockers->push_back(value.instr);
      value.instr = m.operand(value.instr, 0);
    }
    if (value == before) return value;
  }
}

}  // namespace

ExtendedFusionPairs::ExtendedFusionPairs(const Module& m, Analyses& analyses)
    : m_(m),
      table_(analyses.Get<InPlacePairs>()),
      output_side_follows_bitcast_(analyses.xla().Has(XlaChange::kOutputSideFollowsNoOps)),
      reshape_is_no_op_(analyses.xla().Has(XlaChange::kGpuReshapeIsNoOpForAliasing)) {
  const OpcodeIndex& index = analyses.Get<OpcodeIndex>();
  // The blockers of a fusion's pair are instructions of its fused
  // computation, so only fusions calling a computation with a reshape,
  // transpose or copy are walked here: most fused computations have none,
  // and walking every fusion (and computing XLA's pairs to compare) would
  // cost a walk per fusion of a large module.
  std::vector<bool> has_blocker(m.computation_count());
  for (Opcode op : {Opcode::kReshape, Opcode::kTranspose, Opcode::kCopy,
                    output_side_follows_bitcast_ ? Opcode::kReshape : Opcode::kBitcast}) {
    for (InstrId id : index.Of(op)) {
      const CompId c = m.parent(id);
      if (c != kNoId) has_blocker[c] = true;
    }
  }
  std::vector<ExtendedFusionPair> scratch;
  for (InstrId fusion : index.Of(Opcode::kFusion)) {
    const auto called = m.called(fusion);
    if (called.empty() || !has_blocker[called[0]]) continue;
    scratch.clear();
    if (!Walk(fusion, &scratch)) continue;
    ranges_.push_back({static_cast<uint32_t>(pairs_.size()), static_cast<uint32_t>(scratch.size())});
    missed_.push_back(fusion);  // in id order (OpcodeIndex)
    for (ExtendedFusionPair& found : scratch) pairs_.push_back(std::move(found));
  }
}

std::vector<ExtendedFusionPair> ExtendedFusionPairs::Get(InstrId fusion) const {
  const auto it = std::lower_bound(missed_.begin(), missed_.end(), fusion);
  if (it != missed_.end() && *it == fusion) {
    const Range& r = ranges_[static_cast<size_t>(it - missed_.begin())];
    return {pairs_.begin() + r.begin, pairs_.begin() + r.begin + r.count};
  }
  std::vector<ExtendedFusionPair> pairs;
  if (m_.opcode(fusion) == Opcode::kFusion) Walk(fusion, &pairs);
  return pairs;
}

bool ExtendedFusionPairs::Walk(InstrId fusion, std::vector<ExtendedFusionPair>* out) const {
  const Module& m = m_;
  if (m.called(fusion).empty()) return false;
  const InstrId root = m.computation(m.called(fusion)[0]).root;
  if (root == kNoId) return false;
  // As in AddDiscoveredFusionPairs: a root the walk cannot leave and
  // without pairs gives no pair at any leaf.
  const Opcode root_opcode = m.opcode(root);
  if (root_opcode != Opcode::kTuple && root_opcode != Opcode::kGetTupleElement &&
      root_opcode != Opcode::kBitcast && !IsLayoutOnlyBlocker(root_opcode) &&
      !table_.IsInPlace(root)) {
    return false;
  }
  bool any_missed = false;
  // What XLA's own walk looks through, on each side (AddDiscoveredFusionPairs).
  auto output_no_op = [&](Opcode opcode) {
    return output_side_follows_bitcast_ && IsNoOpForAliasAnalysis(opcode, reshape_is_no_op_);
  };
  auto input_no_op = [&](Opcode opcode) {
    return IsNoOpForAliasAnalysis(opcode, reshape_is_no_op_);
  };
  std::vector<InstrId> blockers;  // reused: most leaves have none
  ForEachLeaf(m.shape(fusion), [&](const ShapeIndex& index, const Shape&) {
    blockers.clear();
    const ValueRef source = FollowExtended(m, {root, index}, &blockers, output_no_op);
    const std::optional<InPlacePair> pair = table_.PairForOutput(source.instr, source.index);
    if (!pair) return;
    const InstrId operand = OperandOrNone(m, source.instr, pair->operand);
    if (operand == kNoId) return;
    ValueRef in = FollowExtended(m, {operand, pair->operand_index}, &blockers, input_no_op);
    if (m.opcode(in.instr) == Opcode::kFusion) {
      if (const std::optional<InPlacePair> nested = table_.PairForOutput(in.instr, in.index)) {
        const InstrId next = OperandOrNone(m, in.instr, nested->operand);
        if (next != kNoId) {
          in = FollowExtended(m, {next, nested->operand_index}, &blockers, input_no_op);
        }
      }
    }
    if (m.opcode(in.instr) != Opcode::kParameter) return;
    ExtendedFusionPair& found = out->emplace_back();
    found.pair = {m.number(in.instr), in.index, index};
    found.in_place_op = source.instr;
    found.blockers = blockers;
    found.missed_by_xla = !HasPair(table_.Get(fusion), found.pair);
    any_missed |= found.missed_by_xla && !found.blockers.empty();
  });
  return any_missed;
}

}  // namespace hlolint
