#include "analysis/operand_aliasing.h"

namespace hlolint {

OperandAliasingTable::OperandAliasingTable(const Module& module, Analyses&) : m_(module) {}

const std::vector<OutputOperandAlias>& OperandAliasingTable::Of(InstrId id) const {
  static const std::vector<OutputOperandAlias> kNone;
  if (m_.FindAttribute(id, AttrName::kOutputToOperandAliasing) == nullptr) return kNone;
  return by_text_.Get(m_, id, AttrName::kOutputToOperandAliasing,
                      [&] { return OutputToOperandAliasing(m_, id); });
}

}  // namespace hlolint
