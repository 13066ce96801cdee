#include "ir/module.h"

#include <algorithm>

namespace hlolint {

std::string_view FusionKindName(FusionKind kind) {
  switch (kind) {
    case FusionKind::kLoop: return "kLoop";
    case FusionKind::kInput: return "kInput";
    case FusionKind::kOutput: return "kOutput";
    case FusionKind::kCustom: return "kCustom";
    case FusionKind::kNone: break;
  }
  return "";
}

size_t Module::MemoryBytes() const {
  size_t bytes = sizeof(Module);
  bytes += instructions_.capacity() * sizeof(Instruction);
  bytes += name_hashes_.capacity() * sizeof(uint64_t);
  bytes += computations_.capacity() * sizeof(Computation);
  bytes += ids_.capacity() * sizeof(InstrId);
  bytes += order_.capacity() * sizeof(InstrId);
  bytes += run_starts_.capacity() * sizeof(InstrId) + run_computations_.capacity() * sizeof(CompId);
  bytes += opcodes_.capacity() * sizeof(Opcode);
  bytes += attributes_.capacity() * sizeof(Attribute);
  bytes += apart_attribute_names_.capacity() * sizeof(apart_attribute_names_[0]);
  bytes += unused_.capacity() * sizeof(InstrId);
  bytes += shapes_.size() * (sizeof(Shape) + sizeof(const Shape*) + 64);
  bytes += list_capacity_ * sizeof(uint32_t);
  return bytes;
}

uint32_t Module::attribute_name_offset(const Attribute& a) const {
  if (!a.name_apart) {
    return a.value_offset - 1 - AttrNameSize(a.name);
  }
  const auto index = static_cast<uint32_t>(&a - attributes_.data());
  const auto it = std::lower_bound(
      apart_attribute_names_.begin(), apart_attribute_names_.end(), index,
      [](const std::pair<uint32_t, uint32_t>& entry, uint32_t i) { return entry.first < i; });
  return it != apart_attribute_names_.end() && it->first == index ? it->second : a.value_offset;
}

std::string_view Module::execution_thread(CompId id) const {
  const uint32_t begin = computations_[id].thread_offset;
  if (begin == 0) return "main";
  // The parser lexed the string: it ends at the first quote no backslash
  // escapes.
  const std::string_view rest(source_->data() + begin, source_->size() - begin);
  size_t end = 0;
  while (end < rest.size() && rest[end] != '"') end += rest[end] == '\\' ? 2 : 1;
  return rest.substr(0, end);
}

const uint32_t* Module::Builder::StoreLists(std::span<const uint32_t> first,
                                           std::span<const uint32_t> second) {
  const size_t count = first.size() + second.size();
  if (count == 0) return nullptr;
  if (count > m.list_room_) {
    // Chunks double from 256 entries up to 64K: a small module allocates
    // one small block, a large one a chunk per 256 KB.
    const size_t grown = std::min<size_t>(size_t{256} << m.list_chunks_.size(), size_t{1} << 16);
    const size_t size = std::max(grown, count);
    m.list_chunks_.push_back(std::make_unique_for_overwrite<uint32_t[]>(size));
    m.list_free_ = m.list_chunks_.back().get();
    m.list_room_ = size;
    m.list_capacity_ += size;
  }
  uint32_t* list = m.list_free_;
  std::copy(second.begin(), second.end(), std::copy(first.begin(), first.end(), list));
  m.list_free_ += count;
  m.list_room_ -= count;
  return list;
}

void Module::Builder::AdoptLists(Module& other) {
  for (auto& chunk : other.list_chunks_) m.list_chunks_.push_back(std::move(chunk));
  other.list_chunks_.clear();
  m.list_capacity_ += other.list_capacity_;
  other.list_capacity_ = 0;
  other.list_free_ = nullptr;
  other.list_room_ = 0;
}

CompId Module::parent(InstrId id) const {
  const auto after = std::upper_bound(run_starts_.begin(), run_starts_.end(), id);
  if (after == run_starts_.begin()) return kNoId;
  return run_computations_[static_cast<size_t>(after - run_starts_.begin()) - 1];
}

namespace {

// A run of consecutive instruction ids [start, end) in one computation.
struct IdRun {
  InstrId start;
  InstrId end;
  CompId computation;
};

// Calls visit(IdRun) for every run of every computation, computation by
// computation.
template <typename Visit>
void ForEachRun(const Module& m, Visit visit) {
  for (CompId c = 0; c < m.computation_count(); ++c) {
    const Computation& computation = m.computation(c);
    if (computation.consecutive_order) {  // most: one run
      if (computation.order_count != 0) {
        visit(IdRun{computation.order_begin, computation.order_begin + computation.order_count, c});
      }
      continue;
    }
    const InstrIdList list = m.instructions(c);
    for (size_t i = 0; i < list.size();) {
      size_t j = i + 1;
      while (j < list.size() && list[j] == list[j - 1] + 1) ++j;
      visit(IdRun{list[i], list[i] + static_cast<InstrId>(j - i), c});
      i = j;
    }
  }
}

}  // namespace

void Module::Builder::BuildParents() {
  // The runs in id order, with the gaps between them (ids no computation
  // lists, which only a failed parse leaves) as runs of kNoId. Most
  // modules' computations are one run each and already in id order (one
  // pass over the computations, of which a large dump has hundreds of
  // thousands): only an
  // inline computation interrupts its parent, and only then are the runs
  // gathered and sorted.
  m.run_starts_.clear();
  m.run_computations_.clear();
  m.run_starts_.reserve(m.computations_.size() + 1);
  m.run_computations_.reserve(m.computations_.size() + 1);
  InstrId covered = 0;
  const auto add = [&](const IdRun& run) {
    if (run.start != covered) {
      m.run_starts_.push_back(covered);
      m.run_computations_.push_back(kNoId);
    }
    m.run_starts_.push_back(run.start);
    m.run_computations_.push_back(run.computation);
    covered = run.end;
  };
  bool in_order = true;
  ForEachRun(m, [&](const IdRun& run) {
    in_order = in_order && run.start >= covered;
    if (in_order) add(run);
  });
  if (!in_order) {
    std::vector<IdRun> sorted;
    ForEachRun(m, [&](const IdRun& run) { sorted.push_back(run); });
    std::sort(sorted.begin(), sorted.end(),
              [](const IdRun& a, const IdRun& b) { return a.start < b.start; });
    m.run_starts_.clear();
    m.run_computations_.clear();
    covered = 0;
    for (const IdRun& run : sorted) add(run);
  }
  if (covered != m.instructions_.size()) {
    m.run_starts_.push_back(covered);
    m.run_computations_.push_back(kNoId);
  }
}

uint32_t Module::MoreUsers(InstrId id) const {
  const auto it = std::lower_bound(
      more_users_.begin(), more_users_.end(), id,
      [](const std::pair<InstrId, uint32_t>& entry, InstrId i) { return entry.first < i; });
  return it != more_users_.end() && it->first == id ? it->second : 0;
}

void Module::Builder::FinishUsers() {
  // The parser counted each instruction's distinct users (CountUses). Each
  // instruction's block of ids_ (header words, operands, called
  // computations; control predecessors) gets room for its users before its
  // control predecessors, then the users are filled in, in id order. The
  // opcode array is filled on the way. While a list fills, user_count
  // counts the users written so far (for the few at kLongUsers, long_fill).
  std::vector<Instruction>& instrs = m.instructions_;
  const InstrId first = finished_instructions;
  const size_t n = instrs.size();
  // Uses past kLongUsers come while their computation is parsed: every one
  // left is of an instruction from `first` on, and the list stays sorted.
  if (!more_uses.empty()) [[unlikely]] {
    std::sort(more_uses.begin(), more_uses.end());
    for (size_t k = 0; k < more_uses.size();) {
      size_t end = k + 1;
      while (end < more_uses.size() && more_uses[end] == more_uses[k]) ++end;
      m.more_users_.emplace_back(more_uses[k], static_cast<uint32_t>(end - k));
      k = end;
    }
    more_uses.clear();
  }
  SpreadLists(first);
  std::vector<InstrId> long_ids;
  std::vector<uint32_t> long_filled;
  auto long_fill = [&](InstrId op) -> uint32_t& {
    if (long_filled.empty()) {
      // Every instruction at kLongUsers, in id order.
      for (InstrId id = first; id < n; ++id) {
        if (instrs[id].user_count == Instruction::kLongUsers) long_ids.push_back(id);
      }
      long_filled.assign(long_ids.size(), 0);
    }
    const auto at = std::lower_bound(long_ids.begin(), long_ids.end(), op) - long_ids.begin();
    return long_filled[static_cast<size_t>(at)];
  };
  // Called many times in a large module: grown to the instructions'
  // capacity (the parser's estimate), not by doubling.
  if (m.opcodes_.capacity() < n) m.opcodes_.reserve(std::max(n, instrs.capacity()));
  m.opcodes_.resize(n);
  Opcode* const opcodes = m.opcodes_.data();
  uint32_t* const ids = m.ids_.data();
  for (InstrId id = first; id < n; ++id) {
    const Instruction& in = instrs[id];
    opcodes[id] = in.opcode;
    const uint32_t* operands = ids + in.operands_begin;
    const uint32_t operand_count = in.OperandCountAt(operands);
    for (uint32_t k = 0; k < operand_count; ++k) {
      Instruction& op = instrs[operands[k]];
      // Module::UsersBegin, from the local `ids` (the compiler cannot keep
      // ids_.data() in a register across the stores below: 2 M more
      // instructions on the corpus files).
      const uint32_t* op_operands = ids + op.operands_begin;
      uint32_t* users = ids + op.operands_begin + op.OperandCountAt(op_operands) +
                        op.CalledCountAt(op_operands);
      if (op.user_count == Instruction::kLongUsers) [[unlikely]] {
        uint32_t& filled = long_fill(operands[k]);
        if (filled != 0 && users[filled - 1] == id) continue;
        users[filled++] = id;
        continue;
      }
      // A repeated operand has this instruction as its last user.
      if (op.user_count != 0 && users[op.user_count - 1] == id) continue;
      users[op.user_count++] = id;
    }
  }
  finished_instructions = static_cast<uint32_t>(n);
  finished_users = counted_users;
}

void Module::Builder::AdoptFinishedUsers(const Builder& from, InstrId instr_base) {
  m.opcodes_.insert(m.opcodes_.end(), from.m.opcodes_.begin(), from.m.opcodes_.end());
  for (const auto& [id, count] : from.m.more_users_) m.more_users_.emplace_back(id + instr_base, count);
  for (InstrId id : from.m.unused_) m.unused_.push_back(id + instr_base);
  finished_instructions = static_cast<uint32_t>(m.instructions_.size());
  finished_users = counted_users;
}

// In place: the parser only ever appends an instruction's block at the end
// of ids_ (AddInstruction, and the merges of the two-thread parse), so the
// blocks of [first, end) are the last ones, in id order without
// overlapping, and each moves up by the users of the blocks before it (at
// least), the last block first, without overwriting one still to move.
// ids_ is reserved for about three words per instruction (ReserveFor), so a
// large module's lists fit without a new array, which would cost as many
// fresh pages again as the lists take, at the parse's peak of memory (the
// name tables are still held).
void Module::Builder::SpreadLists(InstrId first) {
  std::vector<Instruction>& instrs = m.instructions_;
  std::vector<uint32_t>& ids = m.ids_;
  const size_t spread = ids.size() + (counted_users - finished_users);  // packed from the top
  ids.resize(spread);
  uint32_t* const data = ids.data();
  size_t end = spread;
  const size_t unused_from = m.unused_.size();
  for (size_t id = instrs.size(); id-- > first;) {
    Instruction& in = instrs[id];
    const uint32_t header = in.HeaderWords();
    const uint32_t* const operands = data + in.operands_begin;
    const uint32_t lists = header + in.OperandCountAt(operands) + in.CalledCountAt(operands);
    const uint32_t from = in.operands_begin - header;
    const uint32_t controls = in.ControlCountAt(operands);
    const uint32_t users = in.user_count != Instruction::kLongUsers
                               ? in.user_count
                               : m.UserCount(static_cast<InstrId>(id));
    const size_t to = end - lists - users - controls;
    // Word by word from the top (to >= from; the lists are short), the
    // control predecessors first: they go furthest.
    uint32_t* const controls_to = data + to + lists + users;
    for (uint32_t k = controls; k-- > 0;) controls_to[k] = data[from + lists + k];
    for (uint32_t k = lists; k-- > 0;) data[to + k] = data[from + k];
    in.operands_begin = static_cast<uint32_t>(to + header);
    if (in.user_count != Instruction::kLongUsers) in.user_count = 0;
    // Every computation here is complete: its ROOT is marked.
    if (users == 0 && !in.is_root()) [[unlikely]] m.unused_.push_back(static_cast<InstrId>(id));
    end = to;
  }
  std::reverse(m.unused_.begin() + static_cast<std::ptrdiff_t>(unused_from), m.unused_.end());
}

}  // namespace hlolint
