#include "analysis/buffer_liveness.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "analysis/in_place.h"
#include "ir/shape_bytes.h"

namespace hlolint {
namespace {

// The computations that run at an instruction's position, one instruction
// after another (not a fusion's, a reducer's or a comparator's).
bool RunsCalleesInSequence(Opcode opcode) {
  return opcode == Opcode::kWhile || opcode == Opcode::kConditional || opcode == Opcode::kCall ||
         opcode == Opcode::kAsyncStart;
}

// Instructions that only pass their operands' buffers on: they read
// nothing, so they extend no live range themselves (their users do).
bool OnlyForwards(Opcode opcode) {
  return opcode == Opcode::kGetTupleElement || opcode == Opcode::kTuple ||
         opcode == Opcode::kBitcast;
}

// Calls fn(slot, subshape) for every subshape of `shape` in pre-order.
template <typename Fn>
void ForEachSlotOf(const Shape& shape, uint32_t& slot, Fn& fn) {
  fn(slot++, shape);
  if (!shape.IsTuple()) return;
  for (const Shape* element : shape.tuple_shapes) ForEachSlotOf(*element, slot, fn);
}

// The bytes of one slot: a tuple's index table, or the array (token,
// opaque) itself.
std::optional<uint64_t> SubshapeSlotBytes(const Shape& shape) {
  if (shape.IsTuple()) return kTupleEntryBytes * shape.tuple_shapes.size();
  return ShapeByteSize(shape);
}

bool FindSlotPath(const Shape& shape, uint32_t target, uint32_t& slot, ShapeIndex& index) {
  if (slot++ == target) return true;
  if (!shape.IsTuple()) return false;
  for (size_t i = 0; i < shape.tuple_shapes.size(); ++i) {
    index.push_back(static_cast<int64_t>(i));
    if (FindSlotPath(*shape.tuple_shapes[i], target, slot, index)) return true;
    index.pop_back();
  }
  return false;
}

// Whether every use of fused parameter `parameter`, transitively up to the
// fused root, is elementwise (or a tuple): XLA's
// AreTransitiveUsesElementwiseOrTuple, under which a loop fusion may write
// its result over that operand.
bool UsesAreElementwise(const Module& m, InstrId parameter) {
  std::vector<InstrId> pending{parameter};
  std::vector<InstrId> seen;
  while (!pending.empty()) {
    const InstrId at = pending.back();
    pending.pop_back();
    for (InstrId user : m.users(at)) {
      if (std::find(seen.begin(), seen.end(), user) != seen.end()) continue;
      const Opcode opcode = m.opcode(user);
      if (!IsElementwiseOpcode(opcode) && opcode != Opcode::kTuple) return false;
      // A fusion's body is small; a pathological one gives up early.
      if (seen.size() >= 256) return false;
      seen.push_back(user);
      pending.push_back(user);
    }
  }
  return true;
}

}  // namespace

BufferLiveness::BufferLiveness(const Module& module, Analyses& analyses)
    : m_(module), analyses_(analyses) {
  computation_index_.assign(m_.computation_count(), kNoId);
  slot_begin_.assign(m_.instruction_count(), kNoId);
  slot_count_by_shape_.assign(m_.shapes().size(), 0);
  if (m_.entry() == kNoId || m_.entry() >= m_.computation_count()) return;

  // Callees before callers, iteratively: a malformed module may nest calls
  // as deep as it likes, or call in a cycle (the edge closing it is left out).
  enum : uint8_t { kUnseen, kOpen, kDone };
  std::vector<uint8_t> state(m_.computation_count(), kUnseen);
  struct Frame {
    CompId computation;
    std::vector<CompId> callees;
    size_t next = 0;
  };
  std::vector<Frame> stack;
  auto open = [&](CompId computation) {
    state[computation] = kOpen;
    Frame frame{computation, {}, 0};
    for (InstrId id : m_.instructions(computation)) {
      if (!RunsCalleesInSequence(m_.opcode(id))) continue;
      for (CompId callee : m_.called(id)) frame.callees.push_back(callee);
    }
    stack.push_back(std::move(frame));
  };
  open(m_.entry());
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.callees.size()) {
      const CompId callee = top.callees[top.next++];
      if (callee < m_.computation_count() && state[callee] == kUnseen) open(callee);
      continue;
    }
    const CompId done = top.computation;
    stack.pop_back();
    state[done] = kDone;
    WalkComputation(done);
  }
}

const ComputationLiveness* BufferLiveness::Find(CompId computation) const {
  if (computation >= computation_index_.size() || computation_index_[computation] == kNoId) {
    return nullptr;
  }
  return &computations_[computation_index_[computation]];
}

uint32_t BufferLiveness::SlotCount(InstrId instr) const {
  if (instr >= slot_begin_.size() || slot_begin_[instr] == kNoId) return 0;
  // AssignSlots counted the slots of every walked instruction's shape.
  const Shape& shape = m_.shape(instr);
  if (shape.id < slot_count_by_shape_.size() && slot_count_by_shape_[shape.id] != 0) {
    return slot_count_by_shape_[shape.id];
  }
  uint32_t count = 0;
  auto counter = [&](uint32_t, const Shape&) { ++count; };
  uint32_t slot = 0;
  ForEachSlotOf(shape, slot, counter);
  return size_t{slot_begin_[instr]} + count <= slot_buffers_.size() ? count : 0;
}

uint32_t BufferLiveness::BufferAt(InstrId instr, uint32_t slot) const {
  if (instr >= slot_begin_.size() || slot_begin_[instr] == kNoId) return kNoId;
  const size_t at = size_t{slot_begin_[instr]} + slot;
  return at < slot_buffers_.size() ? slot_buffers_[at] : kNoId;
}

ShapeIndex BufferLiveness::SlotIndex(const Shape& shape, uint32_t slot) {
  ShapeIndex index;
  uint32_t at = 0;
  if (!FindSlotPath(shape, slot, at, index)) index.clear();
  return index;
}

std::span<const CompId> BufferLiveness::NestedCallees(InstrId instr) const {
  if (!RunsCalleesInSequence(m_.opcode(instr))) return {};
  return m_.called(instr);
}

uint32_t BufferLiveness::ShapeSlots(const Shape& shape) {
  const bool memo = shape.id < slot_count_by_shape_.size();
  if (memo && slot_count_by_shape_[shape.id] != 0) return slot_count_by_shape_[shape.id];
  uint32_t count = 1;
  if (shape.IsTuple()) {
    for (const Shape* element : shape.tuple_shapes) count += ShapeSlots(*element);
  }
  if (memo) slot_count_by_shape_[shape.id] = count;
  return count;
}

std::pair<uint32_t, const Shape*> BufferLiveness::SlotOf(const Shape& shape,
                                                         std::span<const int64_t> index) {
  uint32_t slot = 0;
  const Shape* at = &shape;
  for (int64_t i : index) {
    if (!at->IsTuple() || i < 0 || static_cast<size_t>(i) >= at->tuple_shapes.size()) {
      return {0, nullptr};
    }
    std::vector<uint32_t>* firsts = nullptr;
    std::vector<uint32_t> local;
    if (at->id != kNoShape) {
      firsts = &element_slots_[at->id];
    } else {
      firsts = &local;
    }
    if (firsts->size() != at->tuple_shapes.size()) {
      firsts->clear();
      uint32_t next = 1;
      for (const Shape* element : at->tuple_shapes) {
        firsts->push_back(next);
        next += ShapeSlots(*element);
      }
    }
    slot += (*firsts)[static_cast<size_t>(i)];
    at = at->tuple_shapes[static_cast<size_t>(i)];
  }
  return {slot, at};
}

uint8_t BufferLiveness::SpaceIndex(int64_t memory_space) {
  for (size_t i = 0; i < spaces_.size(); ++i) {
    if (spaces_[i] == memory_space) return static_cast<uint8_t>(i);
  }
  if (spaces_.size() >= 255) return 254;
  spaces_.push_back(memory_space);
  return static_cast<uint8_t>(spaces_.size() - 1);
}

void BufferLiveness::Share(InstrId instr, std::span<const int64_t> to, InstrId operand,
                           std::span<const int64_t> from) {
  if (operand >= slot_begin_.size() || slot_begin_[operand] == kNoId) return;
  const auto [to_slot, to_shape] = SlotOf(m_.shape(instr), to);
  const auto [from_slot, from_shape] = SlotOf(m_.shape(operand), from);
  if (to_shape == nullptr || from_shape == nullptr) return;
  const uint32_t count = ShapeSlots(*to_shape);
  if (count != ShapeSlots(*from_shape)) return;
  uint32_t* into = slot_buffers_.data() + slot_begin_[instr] + to_slot;
  const uint32_t* source = slot_buffers_.data() + slot_begin_[operand] + from_slot;
  for (uint32_t i = 0; i < count; ++i) {
    if (into[i] == kNoId) into[i] = source[i];
  }
}

// Element `element` of the result is a tuple of the operands, in order
// (async-start's {0}; all-gather-start's and collective-permute-start's {0}
// for several operands); a single operand is the element itself.
void BufferLiveness::ShareOperandElements(InstrId instr, int64_t element) {
  const std::span<const InstrId> operands = m_.operands(instr);
  const Shape& shape = m_.shape(instr);
  if (!shape.IsTuple() || element >= static_cast<int64_t>(shape.tuple_shapes.size())) return;
  const Shape& target = *shape.tuple_shapes[static_cast<size_t>(element)];
  const int64_t to[1] = {element};
  if (operands.size() == 1 && !(target.IsTuple() && m_.opcode(instr) == Opcode::kAsyncStart)) {
    Share(instr, to, operands[0], {});
    return;
  }
  if (!target.IsTuple() || target.tuple_shapes.size() != operands.size()) return;
  for (size_t i = 0; i < operands.size(); ++i) {
    const int64_t into[2] = {element, static_cast<int64_t>(i)};
    Share(instr, into, operands[i], {});
  }
}

void BufferLiveness::ForwardSlots(InstrId instr) {
  const std::span<const InstrId> operands = m_.operands(instr);
  if (operands.empty()) return;
  const int64_t first[1] = {0};
  const int64_t second[1] = {1};
  switch (m_.opcode(instr)) {
    case Opcode::kBitcast: case Opcode::kWhile: case Opcode::kOptimizationBarrier:
    case Opcode::kDomain: case Opcode::kAddDependency: case Opcode::kAsyncUpdate:
    case Opcode::kAllReduceDone:
      Share(instr, {}, operands[0], {});
      return;
    case Opcode::kGetTupleElement: {
      const int64_t index[1] = {m_.number(instr)};
      Share(instr, {}, operands[0], index);
      return;
    }
    case Opcode::kTuple:
      for (size_t i = 0; i < operands.size(); ++i) {
        const int64_t element[1] = {static_cast<int64_t>(i)};
        Share(instr, element, operands[i], {});
      }
      return;
    case Opcode::kCopyStart:
      Share(instr, second, operands[0], {});
      return;
    case Opcode::kCopyDone:
      Share(instr, {}, operands[0], first);
      return;
    case Opcode::kAsyncDone: case Opcode::kAllGatherDone: case Opcode::kCollectivePermuteDone:
      Share(instr, {}, operands[0], second);
      return;
    case Opcode::kAsyncStart: case Opcode::kAllGatherStart:
    case Opcode::kCollectivePermuteStart:
      ShareOperandElements(instr, 0);
      return;
    case Opcode::kSend:
      Share(instr, first, operands[0], {});
      return;
    case Opcode::kRecvDone:
      Share(instr, first, operands[0], first);
      return;
    default:
      return;
  }
}

void BufferLiveness::ShareInPlace(InstrId instr) {
  if (!MayBeInPlace(m_.opcode(instr))) return;
  const std::span<const InstrId> operands = m_.operands(instr);
  for (const InPlacePair& pair : analyses_.Get<InPlacePairs>().Get(instr)) {
    if (pair.operand < 0 || static_cast<size_t>(pair.operand) >= operands.size()) continue;
    Share(instr, pair.output_index, operands[static_cast<size_t>(pair.operand)],
          pair.operand_index);
  }
}

// A call's result is its callee's root: the buffers the callee defines
// are the call's own (new here), those of a callee parameter are the
// caller's operand.
void BufferLiveness::ForwardCallResult(InstrId call) {
  const std::span<const CompId> callees = m_.called(call);
  if (callees.size() != 1 || Find(callees[0]) == nullptr) return;
  const InstrId root = m_.computation(callees[0]).root;
  const uint32_t count = ShapeSlots(m_.shape(call));
  if (root == kNoId || SlotCount(root) != count) return;
  const std::span<const InstrId> operands = m_.operands(call);
  for (uint32_t slot = 0; slot < count; ++slot) {
    const uint32_t buffer = BufferAt(root, slot);
    if (buffer == kNoId || buffers_[buffer].kind != BufferKind::kCalleeParameter) continue;
    const int64_t parameter = m_.number(buffers_[buffer].instr);
    if (parameter < 0 || static_cast<size_t>(parameter) >= operands.size()) continue;
    const uint32_t source =
        BufferAt(operands[static_cast<size_t>(parameter)], buffers_[buffer].slot);
    uint32_t& into = slot_buffers_[slot_begin_[call] + slot];
    if (into == kNoId) into = source;
  }
}

void BufferLiveness::AssignSlots(CompId computation, InstrId instr, uint32_t position) {
  const Shape& shape = m_.shape(instr);
  const uint32_t begin = static_cast<uint32_t>(slot_buffers_.size());
  slot_begin_[instr] = begin;
  slot_buffers_.resize(begin + size_t{ShapeSlots(shape)}, kNoId);
  ForwardSlots(instr);
  ShareInPlace(instr);
  const Opcode opcode = m_.opcode(instr);
  if (opcode == Opcode::kCall) ForwardCallResult(instr);

  BufferKind kind = BufferKind::kTemporary;
  if (opcode == Opcode::kParameter) {
    kind = computation == m_.entry() ? BufferKind::kEntryParameter : BufferKind::kCalleeParameter;
  } else if (opcode == Opcode::kConstant) {
    kind = BufferKind::kConstant;
  }
  auto define = [&](uint32_t slot, const Shape& subshape) {
    uint32_t& buffer = slot_buffers_[begin + slot];
    if (buffer != kNoId) return;
    buffer = static_cast<uint32_t>(buffers_.size());
    LogicalBuffer b;
    const std::optional<uint64_t> bytes = SubshapeSlotBytes(subshape);
    b.bytes = bytes.value_or(0);
    b.sized = bytes.has_value();
    b.instr = instr;
    b.slot = slot;
    b.defined_at = position;
    b.last_use = position;
    b.computation = computation;
    b.kind = kind;
    b.index_table = subshape.IsTuple();
    if (subshape.IsArray() && subshape.has_layout && subshape.layout.memory_space != 0) {
      b.space = SpaceIndex(subshape.layout.memory_space);
    }
    buffers_.push_back(b);
  };
  uint32_t slot = 0;
  ForEachSlotOf(shape, slot, define);
}

void BufferLiveness::RecordUses(CompId computation, InstrId instr, uint32_t position) {
  if (OnlyForwards(m_.opcode(instr))) return;
  const std::span<const InstrId> operands = m_.operands(instr);
  for (InstrId operand : operands) {
    if (operand >= slot_begin_.size() || slot_begin_[operand] == kNoId) continue;
    const uint32_t begin = slot_begin_[operand];
    const uint32_t count = ShapeSlots(m_.shape(operand));
    for (uint32_t i = 0; i < count && begin + i < slot_buffers_.size(); ++i) {
      LogicalBuffer& b = buffers_[slot_buffers_[begin + i]];
      if (b.computation == computation) b.last_use = std::max(b.last_use, position);
    }
  }
}

// The root's buffers live to the computation's end: the entry's are its
// outputs (in a parameter's buffer where input_output_alias says so), a
// callee's are its caller's result.
void BufferLiveness::MarkRoot(CompId computation) {
  const InstrId root = m_.computation(computation).root;
  const uint32_t count = SlotCount(root);
  if (root == kNoId || count == 0) return;
  const uint32_t end = static_cast<uint32_t>(m_.instructions(computation).size()) - 1;
  const bool entry = computation == m_.entry();
  for (uint32_t slot = 0; slot < count; ++slot) {
    LogicalBuffer& b = buffers_[BufferAt(root, slot)];
    if (b.computation != computation) continue;
    b.last_use = std::max(b.last_use, end);
    if (b.kind == BufferKind::kTemporary) {
      b.kind = entry ? BufferKind::kOutput : BufferKind::kCalleeResult;
    }
  }
  if (!entry) return;
  for (const InputOutputAlias& alias : m_.header().input_output_alias) {
    const auto [first, subshape] = SlotOf(m_.shape(root), alias.output_index);
    if (subshape == nullptr) continue;
    const uint32_t slots = ShapeSlots(*subshape);
    for (uint32_t slot = first; slot < first + slots; ++slot) {
      LogicalBuffer& b = buffers_[BufferAt(root, slot)];
      if (b.kind == BufferKind::kOutput) b.kind = BufferKind::kAliasedOutput;
    }
  }
}

void BufferLiveness::WalkComputation(CompId computation) {
  ComputationLiveness liveness;
  liveness.computation = computation;
  liveness.buffers_begin = static_cast<uint32_t>(buffers_.size());
  uint32_t position = 0;
  for (InstrId instr : m_.instructions(computation)) {
    if (instr >= slot_begin_.size()) continue;
    RecordUses(computation, instr, position);
    AssignSlots(computation, instr, position);
    ++position;
  }
  MarkRoot(computation);
  liveness.buffers_end = static_cast<uint32_t>(buffers_.size());
  ReuseOperandBuffers(liveness);
  if (computation == m_.entry()) HostTemporaries(liveness);
  ComputePeaks(liveness);
  computation_index_[computation] = static_cast<uint32_t>(computations_.size());
  computations_.push_back(std::move(liveness));
}

uint32_t BufferLiveness::ShareableOperandBuffer(InstrId instr, const LogicalBuffer& result,
                                                uint32_t only) const {
  const Opcode opcode = m_.opcode(instr);
  if (opcode == Opcode::kSort) {
    const uint32_t candidate = SortOperandBuffer(instr, result);
    return only == kNoId || candidate == only ? candidate : kNoId;
  }
  const bool loop_fusion = opcode == Opcode::kFusion && m_.fusion_kind(instr) == FusionKind::kLoop;
  if ((!IsElementwiseOpcode(opcode) && !loop_fusion) || result.bytes == 0 ||
      m_.shape(instr).IsTuple()) {
    return kNoId;
  }
  const std::span<const InstrId> operands = m_.operands(instr);
  for (size_t k = 0; k < operands.size(); ++k) {
    const InstrId operand = operands[k];
    if (operand >= slot_begin_.size() || slot_begin_[operand] == kNoId) continue;
    if (!ShapesEqual(m_.shape(operand), m_.shape(instr))) continue;
    const uint32_t candidate = slot_buffers_[slot_begin_[operand]];
    if (only != kNoId && candidate != only) continue;
    const LogicalBuffer& b = buffers_[candidate];
    if (b.kind != BufferKind::kTemporary || b.reused || b.computation != result.computation ||
        b.last_use != result.defined_at || b.bytes != result.bytes || b.space != result.space) {
      continue;
    }
    if (loop_fusion) {
      const std::span<const CompId> called = m_.called(instr);
      if (called.empty()) continue;
      const std::span<const InstrId> parameters = m_.computation(called[0]).parameters();
      if (k >= parameters.size() || parameters[k] == kNoId ||
          !UsesAreElementwise(m_, parameters[k])) {
        continue;
      }
    }
    return candidate;
  }
  return kNoId;
}

// A sort writes its result {i} over operand i when nothing else uses that
// operand (XLA's CanShareOperandBufferWithUser for kSort).
uint32_t BufferLiveness::SortOperandBuffer(InstrId sort, const LogicalBuffer& result) const {
  const std::span<const InstrId> operands = m_.operands(sort);
  const Shape& shape = m_.shape(sort);
  size_t k = 0;
  if (shape.IsTuple()) {
    const ShapeIndex index = SlotIndex(shape, result.slot);
    if (index.size() != 1) return kNoId;
    k = static_cast<size_t>(index[0]);
  } else if (result.slot != 0) {
    return kNoId;
  }
  if (k >= operands.size()) return kNoId;
  const InstrId operand = operands[k];
  if (operand >= slot_begin_.size() || slot_begin_[operand] == kNoId ||
      m_.UserCount(operand) != 1 || m_.shape(operand).IsTuple()) {
    return kNoId;
  }
  const uint32_t candidate = slot_buffers_[slot_begin_[operand]];
  const LogicalBuffer& b = buffers_[candidate];
  if (b.kind != BufferKind::kTemporary || b.reused || b.computation != result.computation ||
      b.last_use != result.defined_at || b.bytes != result.bytes || b.space != result.space) {
    return kNoId;
  }
  return candidate;
}

void BufferLiveness::ReuseOperandBuffers(const ComputationLiveness& liveness) {
  for (uint32_t i = liveness.buffers_begin; i < liveness.buffers_end; ++i) {
    LogicalBuffer& b = buffers_[i];
    if (b.kind != BufferKind::kTemporary) continue;
    if (b.slot != 0 && m_.opcode(b.instr) != Opcode::kSort) continue;
    const uint32_t operand = ShareableOperandBuffer(b.instr, b);
    if (operand == kNoId) continue;
    b.reuses_operand = true;
    buffers_[operand].reused = true;
  }
}

// XLA gives each entry output and each donated parameter an allocation of
// its own (maybe-live-out), and its heap simulator puts temporaries into
// them while they hold nothing live: an output's before the output is
// defined, a donated parameter's after the parameter's last use (and
// before the output aliased to it is defined). Those temporaries cost
// nothing more. Here the largest temporaries go first, each to the
// smallest such buffer that is large enough and free for its whole live
// range, one at a time (XLA may also pack several side by side).
void BufferLiveness::HostTemporaries(const ComputationLiveness& entry) {
  struct Host {
    // The output defined where the window closes (the output itself, or
    // the one aliased to the parameter; kNoId for none): it may be
    // written over a temporary that dies there.
    uint32_t closer;
    uint64_t bytes;
    uint32_t free_from;  // first position of the window
    uint32_t free_to;    // one past its last position
    uint8_t space;
    struct Placed {
      uint32_t first, last;
      uint64_t bytes;
    };
    std::vector<Placed> placed;
  };
  std::vector<Host> hosts;
  const InstrId root = m_.computation(entry.computation).root;
  // The definition of the output aliased to each donated parameter leaf.
  absl::flat_hash_map<std::pair<int64_t, uint32_t>, uint32_t> aliased_output;
  std::vector<uint8_t> donated(m_.computation(entry.computation).parameter_count, 0);
  for (const InputOutputAlias& alias : m_.header().input_output_alias) {
    if (alias.parameter < 0 || static_cast<size_t>(alias.parameter) >= donated.size()) continue;
    donated[static_cast<size_t>(alias.parameter)] = 1;
    const auto [out_slot, out_shape] = root == kNoId ? std::pair<uint32_t, const Shape*>{0, nullptr}
                                                     : SlotOf(m_.shape(root), alias.output_index);
    const uint32_t output = out_shape == nullptr ? kNoId : BufferAt(root, out_slot);
    const InstrId parameter = m_.computation(entry.computation).parameters()[alias.parameter];
    if (parameter == kNoId) continue;
    const auto [param_slot, param_shape] = SlotOf(m_.shape(parameter), alias.parameter_index);
    if (param_shape == nullptr || output == kNoId) continue;
    aliased_output[{alias.parameter, param_slot}] = output;
  }
  for (const BufferDonor& donor : m_.header().buffer_donors) {
    if (donor.parameter >= 0 && static_cast<size_t>(donor.parameter) < donated.size()) {
      donated[static_cast<size_t>(donor.parameter)] = 1;
    }
  }
  const uint32_t end = static_cast<uint32_t>(m_.instructions(entry.computation).size());
  for (uint32_t i = entry.buffers_begin; i < entry.buffers_end; ++i) {
    const LogicalBuffer& b = buffers_[i];
    if (b.kind == BufferKind::kOutput) {
      hosts.push_back({i, b.bytes, 0, b.defined_at, b.space, {}});
    } else if (b.kind == BufferKind::kEntryParameter && m_.opcode(b.instr) == Opcode::kParameter) {
      const int64_t number = m_.number(b.instr);
      if (number < 0 || static_cast<size_t>(number) >= donated.size() || !donated[number]) continue;
      const auto aliased = aliased_output.find({number, b.slot});
      const uint32_t closer = aliased == aliased_output.end() ? kNoId : aliased->second;
      const uint32_t free_to = closer == kNoId ? end : buffers_[closer].defined_at;
      if (b.last_use + 1 < free_to) {
        hosts.push_back({closer, b.bytes, b.last_use + 1, free_to, b.space, {}});
      }
    }
  }
  if (hosts.empty()) return;
  std::sort(hosts.begin(), hosts.end(),
            [](const Host& a, const Host& b) { return a.bytes < b.bytes; });
  const uint64_t largest_host = hosts.back().bytes;
  std::vector<uint32_t> temporaries;
  for (uint32_t i = entry.buffers_begin; i < entry.buffers_end; ++i) {
    const LogicalBuffer& b = buffers_[i];
    // Index tables stay in the temporaries' allocation, as in XLA.
    if (b.kind == BufferKind::kTemporary && !b.index_table && b.bytes > 0 &&
        b.bytes <= largest_host) {
      temporaries.push_back(i);
    }
  }
  std::stable_sort(temporaries.begin(), temporaries.end(), [&](uint32_t a, uint32_t b) {
    return buffers_[a].bytes > buffers_[b].bytes;
  });
  // Each temporary tries a bounded number of hosts: the work stays linear
  // in the temporaries however many outputs and parameters there are.
  constexpr size_t kHostsTried = 16;
  constexpr size_t kPlacedPerHost = 64;
  for (uint32_t i : temporaries) {
    LogicalBuffer& t = buffers_[i];
    auto host = std::lower_bound(hosts.begin(), hosts.end(), t.bytes,
                                 [](const Host& h, uint64_t bytes) { return h.bytes < bytes; });
    for (size_t tried = 0; host != hosts.end() && tried < kHostsTried; ++host, ++tried) {
      if (host->space != t.space || t.defined_at < host->free_from || t.last_use > host->free_to) {
        continue;
      }
      // Up to the output's definition only where the output may be written
      // over it (an elementwise user, as for temporaries).
      if (t.last_use == host->free_to &&
          (host->closer == kNoId || t.reused ||
           ShareableOperandBuffer(buffers_[host->closer].instr, buffers_[host->closer], i) != i)) {
        continue;
      }
      // Free when no temporary placed there is live meanwhile: XLA assigns
      // a value to such an allocation only where it interferes with none.
      if (host->placed.size() >= kPlacedPerHost) continue;
      const bool interferes = std::any_of(host->placed.begin(), host->placed.end(),
                                          [&](const auto& p) {
                                            return p.first <= t.last_use && t.defined_at <= p.last;
                                          });
      if (interferes) continue;
      host->placed.push_back({t.defined_at, t.last_use, t.bytes});
      t.kind = BufferKind::kHostedTemporary;
      break;
    }
  }
}

std::vector<uint64_t> BufferLiveness::LiveBytes(const ComputationLiveness& liveness,
                                                uint8_t space, bool with_outputs) const {
  const InstrIdList instrs = m_.instructions(liveness.computation);
  const size_t n = instrs.size();
  std::vector<uint64_t> live(n + 1, 0);
  if (n == 0) return {};
  // Differences first (added where a buffer starts, taken back after its
  // last use), summed up below: wrapping arithmetic cancels out.
  for (uint32_t i = liveness.buffers_begin; i < liveness.buffers_end; ++i) {
    const LogicalBuffer& b = buffers_[i];
    if (b.space != space) continue;
    if (b.kind != BufferKind::kTemporary && !(with_outputs && b.kind == BufferKind::kOutput)) {
      continue;
    }
    const uint64_t bytes =
        b.kind == BufferKind::kTemporary ? AlignedTemporaryBytes(b.bytes) : b.bytes;
    const uint32_t start = b.reuses_operand ? b.defined_at + 1 : b.defined_at;
    if (start > b.last_use) continue;
    live[start] += bytes;
    live[std::min<size_t>(b.last_use, n - 1) + 1] -= bytes;
  }
  uint64_t running = 0;
  for (size_t p = 0; p < n; ++p) {
    running += live[p];
    live[p] = running;
  }
  live.pop_back();
  size_t position = 0;
  for (InstrId instr : instrs) {
    uint64_t nested = 0;
    for (CompId callee : NestedCallees(instr)) {
      if (const ComputationLiveness* inner = Find(callee)) {
        if (space < inner->temporaries_peak.size()) {
          nested = std::max(nested, inner->temporaries_peak[space]);
        }
      }
    }
    live[position++] += nested;
  }
  return live;
}

void BufferLiveness::ComputePeaks(ComputationLiveness& liveness) {
  liveness.temporaries_peak.assign(spaces_.size(), 0);
  for (size_t space = 0; space < spaces_.size(); ++space) {
    const std::vector<uint64_t> live = LiveBytes(liveness, static_cast<uint8_t>(space), false);
    for (size_t p = 0; p < live.size(); ++p) {
      if (live[p] > liveness.temporaries_peak[space]) {
        liveness.temporaries_peak[space] = live[p];
        if (space == 0) liveness.peak_position = static_cast<uint32_t>(p);
      }
    }
  }
}

}  // namespace hlolint
