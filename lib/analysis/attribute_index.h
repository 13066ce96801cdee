// The instructions that carry each attribute, in id (= text) order. Built
// once per module on first use (one pass over the attribute lists), for
// rules that look at an attribute few instructions have (sharding,
// origin): they visit those instructions instead of searching every
// instruction's attributes.
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

  // The instructions with attribute `name`, in id order.
  std::span<const InstrId> With(AttrName name) const {
    const size_t n = static_cast<size_t>(name);
    return {ids_.data() + begin_[n], begin_[n + 1] - begin_[n]};
  }

 private:
  std::array<uint32_t, kAttrNameCount + 2> begin_{};
  std::vector<InstrId> ids_;
};

}  // namespace hlolint
