#include "ir/module.h"

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

const Attribute* Module::FindAttribute(InstrId id, AttrName name) const {
  for (const Attribute& attribute : attributes(id)) {
    if (attribute.name == name) return &attribute;
  }
  return nullptr;
}

size_t Module::MemoryBytes() const {
  size_t bytes = sizeof(Module);
  bytes += instructions_.capacity() * sizeof(Instruction);
  bytes += computations_.capacity() * sizeof(Computation);
  bytes += ids_.capacity() * sizeof(InstrId);
  bytes += order_.capacity() * sizeof(InstrId);
  bytes += attributes_.capacity() * sizeof(Attribute);
  bytes += shapes_.size() * (sizeof(Shape) + 64);
  return bytes;
}

void Module::Builder::BuildUsers() {
  // Counting sort: count distinct users per operand, then lay the pool out
  // again with room for each instruction's users after its other lists.
  // Operands of one instruction are visited together, so a repeated operand
  // is detected by comparing with the last user recorded.
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
  std::vector<uint32_t> pool;
  pool.reserve(m.ids_.size() + total_users);
  for (InstrId id = 0; id < n; ++id) {
    Instruction& in = instrs[id];
    const uint32_t lists = in.users_begin() - in.operands_begin;
    const uint32_t begin = static_cast<uint32_t>(pool.size());
    pool.insert(pool.end(), m.ids_.begin() + in.operands_begin,
                m.ids_.begin() + in.operands_begin + lists);
    pool.resize(pool.size() + in.user_count);
    in.operands_begin = begin;
    in.user_count = 0;  // counts again while filling
  }
  m.ids_.swap(pool);
  std::vector<uint32_t>().swap(pool);
  std::fill(last_user.begin(), last_user.end(), kNoId);
  for (InstrId user = 0; user < n; ++user) {
    const Instruction& u = instrs[user];
    for (uint32_t k = 0; k < u.operand_count; ++k) {
      InstrId op = m.ids_[u.operands_begin + k];
      if (last_user[op] == user) continue;
      last_user[op] = user;
      Instruction& o = instrs[op];
      m.ids_[o.users_begin() + o.user_count++] = user;
    }
  }
}

}  // namespace hlolint
