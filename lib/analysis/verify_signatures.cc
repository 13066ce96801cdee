#include "analysis/verify_signatures.h"

namespace hlolint {

ComputationSignatures::ComputationSignatures(const Module& m, Analyses&) : m_(m) {
  // Sized first: grown by doubling, the list would leave as much again of
  // freed blocks behind.
  size_t parameters = 0;
  for (CompId c = 0; c < m.computation_count(); ++c) {
    parameters += m.computation(c).parameters().size();
  }
  parameters_.reserve(parameters);
  entries_.resize(m.computation_count());
  for (CompId c = 0; c < m.computation_count(); ++c) {
    const Computation& comp = m.computation(c);
    Entry& entry = entries_[c];
    entry.begin = static_cast<uint32_t>(parameters_.size());
    bool known = comp.root != kNoId && m.has_known_shape(comp.root);
    for (InstrId param : comp.parameters()) {
      if (param == kNoId || !m.has_known_shape(param)) {
        known = false;
        parameters_.push_back(nullptr);
        continue;
      }
      parameters_.push_back(&m.shape(param));
    }
    entry.count = static_cast<uint32_t>(parameters_.size()) - entry.begin;
    entry.known = known;
  }
}

bool ComputationSignatures::Get(CompId computation, ProgramShapeView* out) const {
  const Entry& entry = entries_[computation];
  if (!entry.known) return false;
  out->parameters = std::span<const Shape* const>(parameters_.data() + entry.begin, entry.count);
  out->result = &m_.shape(m_.computation(computation).root);
  return true;
}

}  // namespace hlolint
