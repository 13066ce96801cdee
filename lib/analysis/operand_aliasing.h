// Instructions' output_to_operand_aliasing, parsed once per distinct text.
// In-place pairs, custom-call aliasing and verify-alias-config all read it,
// and dumps repeat a few texts on many fusions and custom calls.
#pragma once

#include <string_view>
#include <vector>

#include "absl/container/node_hash_map.h"
#include "analysis/analyses.h"
#include "ir/module.h"
#include "parse/attributes.h"
#include "util/hash.h"

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
  // By the attribute's value text (a view into the module's source).
  mutable absl::node_hash_map<std::string_view, std::vector<OutputOperandAlias>, StringViewHash>
      by_text_;
};

}  // namespace hlolint
