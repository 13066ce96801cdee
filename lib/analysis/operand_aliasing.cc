#include "analysis/operand_aliasing.h"

#include "analysis/verify_text.h"

namespace hlolint {

OperandAliasingTable::OperandAliasingTable(const Module& module, Analyses&) : m_(module) {}

const std::vector<OutputOperandAlias>& OperandAliasingTable::Of(InstrId id) const {
  static const std::vector<OutputOperandAlias> kNone;
  if (m_.FindAttribute(id, AttrName::kOutputToOperandAliasing) == nullptr) return kNone;
  // The parse depends on the text alone.
  auto [it, inserted] =
      by_text_.try_emplace(AttributeText(m_, id, AttrName::kOutputToOperandAliasing));
  if (inserted) it->second = OutputToOperandAliasing(m_, id);
  return it->second;
}

}  // namespace hlolint
