// Instructions' output_to_operand_aliasing, parsed once per distinct text.
// In-place pairs, custom-call aliasing and verify-alias-config all read it,
// and dumps repeat a few texts on many fusions and custom calls.
#pragma once

#include <vector>

#include "analysis/analyses.h"
#include "analysis/parsed_by_text.h"
#include "ir/module.h"
#include "parse/attributes.h"

namespace hlolint {

class OperandAliasingTable {
 public:
  OperandAliasingTable(const Module& module, Analyses& analyses);

  // OutputToOperandAliasing(module, id): empty when absent or malformed.
  // The reference stays valid while the table lives. Instructions with the
  // same text share the entries, so an entry's `offset` locates it in the
  // first of them only: report at `id`, not at the offset.
  const std::vector<OutputOperandAlias>& Of(InstrId id) const;

 private:
  const Module& m_;
  mutable ParsedByText<std::vector<OutputOperandAlias>> by_text_;
};

}  // namespace hlolint
