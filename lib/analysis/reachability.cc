#include "analysis/reachability.h"

namespace hlolint {

bool IndicesOverlap(const ShapeIndex& a, const ShapeIndex& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

namespace {

bool IsPrefix(const ShapeIndex& prefix, const ShapeIndex& index) {
  return prefix.size() <= index.size() && IndicesOverlap(prefix, index);
}

// One step of value forwarding (tuple / GTE / bitcast); false when none applies.
bool StepValue(const Module& m, ValueRef& v) {
  const Opcode op = m.opcode(v.instr);
  auto operands = m.operands(v.instr);
  if (op == Opcode::kTuple && !v.index.empty()) {
    const int64_t i = v.index.front();
    if (i < 0 || i >= static_cast<int64_t>(operands.size())) return false;
    v.instr = operands[static_cast<size_t>(i)];
    v.index.erase(v.index.begin());
    return true;
  }
  if (op == Opcode::kGetTupleElement && !operands.empty()) {
    v.index.insert(v.index.begin(), m.number(v.instr));
    v.instr = operands[0];
    return true;
  }
  if (op == Opcode::kBitcast && v.index.empty() && !operands.empty()) {
    v.instr = operands[0];
    return true;
  }
  return false;
}

// Replaces a leading `from` of the index by `to` and moves to `operand`.
void Redirect(ValueRef& v, InstrId operand, size_t drop, const ShapeIndex& to) {
  ShapeIndex rest(v.index.begin() + static_cast<std::ptrdiff_t>(drop), v.index.end());
  v.instr = operand;
  v.index = to;
  v.index.insert(v.index.end(), rest.begin(), rest.end());
}

}  // namespace

RootReachability::RootReachability(const Module& module, Analyses& analyses)
    : m_(module), pairs_(analyses.Get<InPlacePairs>()) {}

std::span<const RootReachability::RootLeaf> RootReachability::RootLeaves(CompId c) const {
  if (leaf_ranges_.empty()) leaf_ranges_.resize(m_.computation_count());
  LeafRange& range = leaf_ranges_[c];
  if (range.count == kNoId) {
    range.begin = static_cast<uint32_t>(root_leaves_.size());
    const InstrId root = m_.computation(c).root;
    if (root != kNoId) {
      ForEachLeaf(m_.shape(root), [&](const ShapeIndex& index, const Shape&) {
        const ValueRef source = TraceBuffer({root, index});
        root_leaves_.push_back({source.instr, source.index, index});
      });
    }
    range.count = static_cast<uint32_t>(root_leaves_.size()) - range.begin;
  }
  return {root_leaves_.data() + range.begin, range.count};
}

ValueRef RootReachability::TraceValue(ValueRef value) const {
  while (StepValue(m_, value)) {
  }
  return value;
}

ValueRef RootReachability::TraceBuffer(ValueRef v) const {
  while (true) {
    if (StepValue(m_, v)) continue;
    auto operands = m_.operands(v.instr);
    bool moved = false;
    for (const InPlacePair& pair : pairs_.Get(v.instr)) {
      if (!IsPrefix(pair.output_index, v.index)) continue;
      if (pair.operand < 0 || pair.operand >= static_cast<int64_t>(operands.size())) continue;
      Redirect(v, operands[static_cast<size_t>(pair.operand)], pair.output_index.size(),
               pair.operand_index);
      moved = true;
      break;
    }
    if (moved) continue;
    if (operands.empty()) return v;
    switch (m_.opcode(v.instr)) {
      case Opcode::kWhile:
      case Opcode::kOptimizationBarrier:
      case Opcode::kAddDependency:
      case Opcode::kDomain:
        v.instr = operands[0];
        continue;
      case Opcode::kCopyDone:  // the destination, element {0} of copy-start
        Redirect(v, operands[0], 0, {0});
        continue;
      case Opcode::kAllReduceDone:
        v.instr = operands[0];
        continue;
      case Opcode::kAsyncDone:
      case Opcode::kAllGatherDone:
      case Opcode::kCollectivePermuteDone:  // element {1} of the start
        Redirect(v, operands[0], 0, {1});
        continue;
      case Opcode::kRecvDone:
        if (!v.index.empty() && v.index.front() == 0) {
          Redirect(v, operands[0], 1, {0});
          continue;
        }
        return v;
      default:
        return v;
    }
  }
}

std::optional<ShapeIndex> RootReachability::RootOutputFor(const ValueRef& source) const {
  // TraceBuffer stays inside a computation: only the ROOT of the source's
  // own computation can return its buffer.
  const CompId parent = m_.parent(source.instr);
  if (parent == kNoId) return std::nullopt;
  std::lock_guard<std::mutex> lock(leaves_mutex_);
  for (const RootLeaf& leaf : RootLeaves(parent)) {
    if (leaf.source == source.instr && IndicesOverlap(leaf.source_index, source.index)) {
      return leaf.root_index;
    }
  }
  return std::nullopt;
}

const InputOutputAlias* RootReachability::EntryAliasFor(const ValueRef& source) const {
  if (m_.opcode(source.instr) != Opcode::kParameter) return nullptr;
  const CompId parent = m_.parent(source.instr);
  if (parent == kNoId || parent != m_.entry()) return nullptr;
  const int64_t number = m_.number(source.instr);
  for (const InputOutputAlias& alias : m_.header().input_output_alias) {
    if (alias.parameter == number && IndicesOverlap(alias.parameter_index, source.index)) {
      return &alias;
    }
  }
  return nullptr;
}

}  // namespace hlolint
