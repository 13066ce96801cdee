// The instructions that carry an attribute, in id (= text) order, for rules
// that look at an attribute few instructions have (sharding, origin): they
// visit those instructions instead of searching every instruction's
// attributes. Each name's list is built on first use, from one scan of the
// module's attribute array (not the instruction records); the few names asked
// for on every module share one scan.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "analysis/analyses.h"
#include "ir/module.h"

namespace hlolint {

class AttributeIndex {
 public:
  AttributeIndex(const Module& module, Analyses& analyses);

  // The instructions with attribute `name`, in id order. The span stays
  // valid while the index lives.
  std::span<const InstrId> With(AttrName name) const;

 private:
  // Builds the lists of the `wanted` names in one scan.
  void Build(const std::array<bool, kAttrNameCount + 1>& wanted) const;

  const Module& m_;
  mutable std::array<std::vector<InstrId>, kAttrNameCount + 1> lists_;
  mutable std::array<bool, kAttrNameCount + 1> built_{};
};

}  // namespace hlolint
