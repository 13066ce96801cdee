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
  bytes += attributes_.capacity() * sizeof(Attribute);
  bytes += shapes_.size() * (sizeof(Shape) + sizeof(const Shape*) + 64);
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

void Module::Builder::AdoptLists(Module& other) {
  for (auto& chunk : other.list_chunks_) m.list_chunks_.push_back(std::move(chunk));
  other.list_chunks_.clear();
  m.list_capacity_ += other.list_capacity_;
  other.list_capacity_ = 0;
  other.list_free_ = nullptr;
  other.list_room_ = 0;
}

void Module::Builder::BuildUsers() {
  // The parser counted each instruction's distinct users (CountUses). One
  // pass in id order copies each instruction's block (header words,
  // operands, called computations; control predecessors) into a new pool
  // with room for its users before the control predecessors, and appends
  // the instruction to the user lists of its operands, whose blocks (lower
  // ids) are already placed. The opcode array is filled on the way, as the
  // pass reads every record anyway. While a list fills, user_count counts
  // the users written so far.
  std::vector<Instruction>& instrs = m.instructions_;
  const size_t n = instrs.size();
  m.opcodes_.resize(n);
  std::vector<uint32_t> pool(m.ids_.size() + counted_users);
  const uint32_t* old_ids = m.ids_.data();
  uint32_t* ids = pool.data();
  uint32_t begin = 0;
  for (InstrId id = 0; id < n; ++id) {
    Instruction& in = instrs[id];
    const uint32_t header = in.HeaderWords();
    const bool has_control = in.flags & Instruction::kHasControl;
    const uint32_t lists = header + in.operand_count + in.called_count;
    const uint32_t* from = old_ids + in.operands_begin - header;
    uint32_t* to = ids + begin;
    for (uint32_t k = 0; k < lists; ++k) to[k] = from[k];
    in.operands_begin = begin + header;
    begin += lists + in.user_count;
    if (has_control) {
      const uint32_t controls = from[header - 1];
      for (uint32_t k = 0; k < controls; ++k) ids[begin + k] = from[lists + k];
      begin += controls;
    }
    in.user_count = 0;
    m.opcodes_[id] = in.opcode;
    const uint32_t* operands = ids + in.operands_begin;
    for (uint32_t k = 0; k < in.operand_count; ++k) {
      Instruction& op = instrs[operands[k]];
      uint32_t* users = ids + op.users_begin();
      // A repeated operand has this instruction as its last user.
      if (op.user_count != 0 && users[op.user_count - 1] == id) continue;
      users[op.user_count++] = id;
    }
  }
  m.ids_ = std::move(pool);
}

}  // namespace hlolint
