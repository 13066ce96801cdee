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

// Appends output_to_operand_aliasing as pairs; `wrapped` puts the outputs
// under element {1} (the wrapped op's result inside an async-start).
void AddAliasingPairs(const CallAttributes& call_attributes, InstrId id, bool wrapped,
                      std::vector<InPlacePair>& pairs) {
  for (const OutputOperandAlias& alias : call_attributes.Aliasing(id)) {
    InPlacePair& pair = pairs.emplace_back();
    pair.operand = alias.operand;
    pair.operand_index = alias.operand_index;
    if (wrapped) pair.output_index.push_back(1);
    pair.output_index.insert(pair.output_index.end(), alias.output_index.begin(),
                             alias.output_index.end());
  }
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
bool RootMayHavePairs(Opcode root_opcode) {
  return root_opcode == Opcode::kTuple || root_opcode == Opcode::kGetTupleElement ||
         root_opcode == Opcode::kBitcast || MayBeInPlace(root_opcode);
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

ValueRef FollowNoOpIndirection(const Module& m, ValueRef value) {
  while (value.index.empty() && m.opcode(value.instr) == Opcode::kBitcast &&
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
    : m_(module), call_attributes_(analyses.Get<CallAttributes>()) {
  // One pass over the opcodes (a byte per instruction): merging the opcode
  // index's groups (fusion is a bulk one, itself a pass) took twice as long.
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
    if (opcode == Opcode::kFusion && (step[k] == kNoId || !RootMayHavePairs(m_.opcode(step[k]))) &&
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
  if (m_.opcode(id) == Opcode::kFusion) {
    AddDiscoveredFusionPairs(id, pairs);
    AddAliasingPairs(call_attributes_, id, false, pairs);
  } else {
    AddDirectPairs(id, pairs);
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
    range = {stored, count};
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
      // NVSHMEM one-shot all-reduce needs separate input and output buffers.
      if (auto config = RawStringAttr(m_, id, AttrName::kBackendConfig);
          config && ContainsIgnoreCase(*config, "nvshmem")) {
        return;
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
    case Opcode::kCollectivePermuteStart: {
      if (operand_count != 4) return;
      const bool start = instr.opcode == Opcode::kCollectivePermuteStart;
      // The -start form is in place only in its slice form (`slice_sizes`).
      if (start && m_.FindAttribute(id, AttrName::kSliceSizes) == nullptr) return;
      if (start) {
        AddPair(pairs, 1, {}, {1});
      } else {
        AddPair(pairs, 1, {}, {});
      }
      const Shape& buffer = m_.shape(m_.operand(id, 1));
      if (buffer.IsTuple()) {
        for (int64_t i = 0; i < static_cast<int64_t>(buffer.tuple_shapes.size()); ++i) {
          if (start) {
            AddPair(pairs, 1, {i}, {1, i});
          } else {
            AddPair(pairs, 1, {i}, {i});
          }
        }
      }
      return;
    }
    case Opcode::kCustomCall:
      AddAliasingPairs(call_attributes_, id, false, pairs);
      return;
    case Opcode::kAsyncStart:
      // The `X-start` sugar writes the wrapped op's attributes on the start
      // line: its aliasing is relative to the wrapped op, whose result is
      // element {1} of the async-start.
      AddAliasingPairs(call_attributes_, id, instr.has(Instruction::kAsyncSugar), pairs);
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

void InPlacePairs::AddDiscoveredFusionPairs(InstrId fusion,
                                            std::vector<InPlacePair>& result) const {
  auto called = m_.called(fusion);
  if (called.empty()) return;
  const InstrId root = m_.computation(called[0]).root;
  if (root == kNoId) return;
  // No leaf of the fusion can find a pair from most fused roots.
  if (!RootMayHavePairs(m_.opcode(root))) return;
  auto follow = [&](ValueRef v) {
    return FollowNoOpIndirection(m_, FollowTupleIndirection(m_, v));
  };

  ForEachLeaf(m_.shape(fusion), [&](const ShapeIndex& index, const Shape&) {
    const ValueRef source = follow({root, index});
    std::optional<ValueRef> input;
    const Range sources = ComputedRange(source.instr);
    for (uint32_t k = 0; k < sources.count && !input; ++k) {
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
// no-op step also takes reshape, transpose and copy, which are recorded.
ValueRef FollowExtended(const Module& m, ValueRef value, std::vector<InstrId>* blockers) {
  while (true) {
    const ValueRef before = value;
    value = FollowTupleIndirection(m, value);
    while (value.index.empty() && !m.operands(value.instr).empty() &&
           (m.opcode(value.instr) == Opcode::kBitcast ||
            IsLayoutOnlyBlocker(m.opcode(value.instr))) &&
           !IsMemorySpaceCopy(m, value.instr)) {
      if (m.opcode(value.instr) != Opcode::kBitcast) blockers->push_back(value.instr);
      value.instr = m.operand(value.instr, 0);
    }
    if (value == before) return value;
  }
}

}  // namespace

ExtendedFusionPairs::ExtendedFusionPairs(const Module& m, Analyses& analyses)
    : m_(m), table_(analyses.Get<InPlacePairs>()) {
  const OpcodeIndex& index = analyses.Get<OpcodeIndex>();
  // The blockers of a fusion's pair are instructions of its fused
  // computation, so only fusions calling a computation with a reshape,
  // transpose or copy are walked here: most fused computations have none,
  // and walking every fusion (and computing XLA's pairs to compare) cost
  // ~50 ms at 1 GB of HLO.
  std::vector<bool> has_blocker(m.computation_count());
  for (Opcode op : {Opcode::kReshape, Opcode::kTranspose, Opcode::kCopy}) {
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
  std::vector<InstrId> blockers;  // reused: most leaves have none
  ForEachLeaf(m.shape(fusion), [&](const ShapeIndex& index, const Shape&) {
    blockers.clear();
    const ValueRef source = FollowExtended(m, {root, index}, &blockers);
    const std::optional<InPlacePair> pair = table_.PairForOutput(source.instr, source.index);
    if (!pair) return;
    const InstrId operand = OperandOrNone(m, source.instr, pair->operand);
    if (operand == kNoId) return;
    ValueRef in = FollowExtended(m, {operand, pair->operand_index}, &blockers);
    if (m.opcode(in.instr) == Opcode::kFusion) {
      if (const std::optional<InPlacePair> nested = table_.PairForOutput(in.instr, in.index)) {
        const InstrId next = OperandOrNone(m, in.instr, nested->operand);
        if (next != kNoId) in = FollowExtended(m, {next, nested->operand_index}, &blockers);
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
