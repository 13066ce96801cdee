#include "analysis/computation_signature.h"

namespace hlolint {

bool ReadSignature(const Module& m, CompId computation, std::vector<const Shape*>* params,
                   ProgramShapeView* out) {
  const Computation& comp = m.computation(computation);
  if (comp.root == kNoId || !m.has_known_shape(comp.root)) return false;
  params->clear();
  for (InstrId param : comp.parameters()) {
    if (param == kNoId || !m.has_known_shape(param)) return false;
    params->push_back(&m.shape(param));
  }
  out->parameters = *params;
  out->result = &m.shape(comp.root);
  return true;
}

}  // namespace hlolint
