#include "analysis/opcode_index.h"

#include <algorithm>

namespace hlolint {

OpcodeIndex::OpcodeIndex(const Module& m, Analyses&) : m_(m) {
  const InstrId n = static_cast<InstrId>(m.instruction_count());
  // The dense array, read directly (a built module always has it).
  std::vector<Opcode> copied;
  std::span<const Opcode> opcodes = m.opcodes();
  if (opcodes.size() != n) {
    copied.resize(n);
    for (InstrId id = 0; id < n; ++id) copied[id] = m.opcode(id);
    opcodes = copied;
  }
  std::array<uint32_t, kOpcodeCount + 2> count{};
  for (Opcode op : opcodes) ++count[static_cast<size_t>(op)];
  for (size_t o = 0; o <= static_cast<size_t>(kOpcodeCount); ++o) {
    if (IsBulkOpcode(static_cast<Opcode>(o))) count[o] = 0;
  }
  uint32_t sum = 0;
  for (size_t o = 0; o <= static_cast<size_t>(kOpcodeCount); ++o) {
    begin_[o] = sum;
    sum += count[o];
  }
  begin_[kOpcodeCount + 1] = sum;
  ids_.resize(sum);
  std::array<uint32_t, kOpcodeCount + 2> cursor = begin_;
  InstrId* ids = ids_.data();
  for (InstrId id = 0; id < n; ++id) {
    if (!IsBulkOpcode(opcodes[id])) ids[cursor[static_cast<size_t>(opcodes[id])]++] = id;
  }
}

std::span<const InstrId> OpcodeIndex::BulkGroup(Opcode op) const {
  const std::lock_guard<std::mutex> lock(bulk_mutex_);
  std::unique_ptr<const std::vector<InstrId>>& group = bulk_[static_cast<size_t>(op)];
  if (group == nullptr) {
    auto ids = std::make_unique<std::vector<InstrId>>();
    for (InstrId id = 0; id < m_.instruction_count(); ++id) {
      if (m_.opcode(id) == op) ids->push_back(id);
    }
    group = std::move(ids);
  }
  return *group;
}

namespace {

// Appends `group` (ascending) to `*out` (ascending), keeping it sorted.
void MergeInto(std::span<const InstrId> group, std::vector<InstrId>* out) {
  if (group.empty()) return;
  const size_t middle = out->size();
  out->insert(out->end(), group.begin(), group.end());
  if (middle != 0) std::inplace_merge(out->begin(), out->begin() + middle, out->end());
}

}  // namespace

void OpcodeIndex::Collect(std::initializer_list<Opcode> ops, std::vector<InstrId>* out) const {
  out->clear();
  for (Opcode op : ops) MergeInto(Of(op), out);
}

std::vector<InstrId> OpcodeIndex::Collect(bool (*wanted)(Opcode)) const {
  std::vector<InstrId> out;
  for (int o = 0; o <= kOpcodeCount; ++o) {
    if (wanted(static_cast<Opcode>(o))) MergeInto(Of(static_cast<Opcode>(o)), &out);
  }
  return out;
}

}  // namespace hlolint
