#include "analysis/verify_signatures.h"

namespace hlolint {

ComputationSignatures::ComputationSignatures(const Module& m, Analyses&) {
  entries_.resize(m.computation_count());
  for (CompId c = 0; c < m.computation_count(); ++c) {
    const Computation& comp = m.computation(c);
    Entry& entry = entries_[c];
    entry.begin = static_cast<uint32_t>(parameters_.size());
    entry.known = comp.root != kNoId && m.has_known_shape(comp.root);
    if (comp.root != kNoId) entry.result = &m.shape(comp.root);
    for (InstrId param : comp.parameters()) {
      if (param == kNoId || !m.has_known_shape(param)) {
        entry.known = false;
        parameters_.push_back(nullptr);
        continue;
      }
      parameters_.push_back(&m.shape(param));
    }
    entry.count = static_cast<uint32_t>(parameters_.size()) - entry.begin;
  }
}

bool ComputationSignatures::Get(CompId computation, ProgramShapeView* out) const {
  const Entry& entry = entries_[computation];
  if (!entry.known) return false;
  out->parameters = std::span<const Shape* const>(parameters_.data() + entry.begin, entry.count);
  out->result = entry.result;
  return true;
}

}  // namespace hlolint
