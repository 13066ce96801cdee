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
  bytes += opcodes_.capacity() * sizeof(Opcode);
  bytes += shape_ptrs_.capacity() * sizeof(const Shape*);
  bytes += attributes_.capacity() * sizeof(Attribute);
  bytes += shapes_.size() * (sizeof(Shape) + 64);
  bytes += list_capacity_ * sizeof(uint32_t);
  return bytes;
}

std::span<const uint32_t> Module::Builder::StoreList(std::span<const uint32_t> ids) {
  if (ids.empty()) return {};
  if (ids.size() > m.list_room_) {
    // Chunks double from 256 entries up to 64K: a small module allocates
    // one small block, a large one a chunk per 256 KB.
    const size_t grown = std::min<size_t>(size_t{256} << m.list_chunks_.size(), size_t{1} << 16);
    const size_t size = std::max(grown, ids.size());
    m.list_chunks_.push_back(std::make_unique_for_overwrite<uint32_t[]>(size));
    m.list_free_ = m.list_chunks_.back().get();
    m.list_room_ = size;
    m.list_capacity_ += size;
  }
  uint32_t* list = m.list_free_;
  std::copy(ids.begin(), ids.end(), list);
  m.list_free_ += ids.size();
  m.list_room_ -= ids.size();
  return {list, ids.size()};
}

void Module::Builder::BuildUsers() {
  // Counting sort: count distinct users per operand, then lay the pool out
  // again with room for each instruction's users after its other lists, and
  // fill. Operands of one instruction are visited together, so a repeated
  // operand is detected by comparing with the last user recorded.
  std::vector<Instruction>& instrs = m.instructions_;
  const size_t n = instrs.size();
  std::vector<InstrId> last_user(n, kNoId);
  uint64_t total_users = 0;
  for (InstrId user = 0; user < n; ++user) {
    for (InstrId op : m.operands(user)) {
      if (last_user[op] == user) continue;
      last_user[op] = user;
      ++instrs[op].user_count;
      ++total_users;
    }
  }
  // Blocks only move up (each gains room for its users), so moving them
  // from the last one down needs no second pool. `cursor` is where the next
  // user of each instruction goes.
  std::vector<uint32_t> cursor(n);
  m.ids_.resize(m.ids_.size() + total_users);
  uint32_t* ids = m.ids_.data();
  uint32_t end = static_cast<uint32_t>(m.ids_.size());
  for (size_t id = n; id-- > 0;) {
    Instruction& in = instrs[id];
    const uint32_t old_begin = in.operands_begin;
    const uint32_t lists = in.operand_count + in.control_count + in.called_count;
    const uint32_t begin = end - in.user_count - lists;
    in.operands_begin = begin;
    cursor[id] = begin + lists;
    end = begin;
    for (uint32_t k = lists; k > 0; --k) ids[begin + k - 1] = ids[old_begin + k - 1];
  }
  std::fill(last_user.begin(), last_user.end(), kNoId);
  for (InstrId user = 0; user < n; ++user) {
    const Instruction& u = instrs[user];
    const uint32_t* op_ids = ids + u.operands_begin;
    for (uint32_t k = 0; k < u.operand_count; ++k) {
      const InstrId op = op_ids[k];
      if (last_user[op] == user) continue;
      last_user[op] = user;
      ids[cursor[op]++] = user;
    }
  }
  m.opcodes_.resize(n);
  for (size_t id = 0; id < n; ++id) m.opcodes_[id] = instrs[id].opcode;
  // Shapes are never moved (a deque), so the pointers stay valid; ids the
  // table hands out later fall back to the table.
  m.shape_ptrs_.resize(m.shapes_.size());
  for (ShapeId s = 0; s < m.shape_ptrs_.size(); ++s) m.shape_ptrs_[s] = &m.shapes_.Get(s);
}

}  // namespace hlolint
