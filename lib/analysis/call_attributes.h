// The attributes of fusions and custom calls that several analyses and
// rules key on: output_to_operand_aliasing (in-place pairs, custom-call
// aliasing, verify-alias-config, verify-buffers) and custom_call_target
// (the same, dispatching on cuBLAS calls, Pin/Unpin, kernel launchers).
// Each value is parsed once per distinct text (dumps repeat a few), and all
// are read in one pass in text order, releasing the text behind: read where
// each reader needed them, every reader mapped the text of a large file back
// in after the parser had released it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analyses.h"
#include "analysis/parsed_by_text.h"
#include "ir/module.h"
#include "parse/attributes.h"
#include "util/sparse_id_index.h"

namespace hlolint {

class CallAttributes {
 public:
  CallAttributes(const Module& module, Analyses& analyses);

  // OutputToOperandAliasing(module, id): empty when absent or malformed.
  // The reference stays valid while the table lives. Instructions with the
  // same text share the entries, so an entry's `offset` locates it in the
  // first of them only: report at `id`, not at the offset.
  const std::vector<OutputOperandAlias>& Aliasing(InstrId id) const;
  // CustomCallTarget(module, id): the unescaped target, "" when `id` has
  // none. The reference stays valid while the table lives.
  const std::string& Target(InstrId id) const;

 private:
  struct Values {
    const std::vector<OutputOperandAlias>* aliasing = nullptr;
    const std::string* target = nullptr;
  };
  ParsedByText<std::vector<OutputOperandAlias>> aliasing_by_text_;
  ParsedByText<std::string> target_by_text_;
  // The instructions with either attribute, and their values in id order.
  // A lookup is a bit test and a population count in small arrays, then one
  // read in values_: no hash table missing the cache in a large module.
  SparseIdIndex with_values_;
  std::vector<Values> values_;
  const Values* Find(InstrId id) const;
};

}  // namespace hlolint
