#include "analysis/attribute_index.h"

namespace hlolint {

AttributeIndex::AttributeIndex(const Module& m, Analyses&) {
  // Counting sort by attribute name, as OpcodeIndex does by opcode. An
  // instruction has each name at most once (the parser rejects repeats).
  const InstrId n = static_cast<InstrId>(m.instruction_count());
  std::array<uint32_t, kAttrNameCount + 2> count{};
  uint32_t total = 0;
  for (InstrId id = 0; id < n; ++id) {
    for (const Attribute& a : m.attributes(id)) ++count[static_cast<size_t>(a.name)];
  }
  for (size_t a = 0; a <= static_cast<size_t>(kAttrNameCount); ++a) {
    begin_[a] = total;
    total += count[a];
  }
  begin_[kAttrNameCount + 1] = total;
  ids_.resize(total);
  std::array<uint32_t, kAttrNameCount + 2> cursor = begin_;
  for (InstrId id = 0; id < n; ++id) {
    for (const Attribute& a : m.attributes(id)) ids_[cursor[static_cast<size_t>(a.name)]++] = id;
  }
}

}  // namespace hlolint
