#include "analysis/call_attributes.h"

#include <algorithm>
#include <span>

#include "analysis/attribute_index.h"
#include "analysis/text_order_walk.h"

namespace hlolint {

CallAttributes::CallAttributes(const Module& m, Analyses& analyses) {
  const AttributeIndex& index = analyses.Get<AttributeIndex>();
  const std::span<const InstrId> aliasing = index.With(AttrName::kOutputToOperandAliasing);
  const std::span<const InstrId> target = index.With(AttrName::kCustomCallTarget);
  values_.reserve(std::max(target.size(), aliasing.size()));
  with_values_ = SparseIdIndex(m.instruction_count());
  TextOrderWalk walk(m);
  // Both lists are in id (= text) order: merged, the text is read front to back.
  size_t a = 0, t = 0;
  while (a < aliasing.size() || t < target.size()) {
    const InstrId id = t == target.size() || (a < aliasing.size() && aliasing[a] < target[t])
                           ? aliasing[a]
                           : target[t];
    walk.Visit(id);
    Values& values = values_.emplace_back();
    with_values_.Add(id);
    if (a < aliasing.size() && aliasing[a] == id) {
      values.aliasing = &aliasing_by_text_.Get(m, id, AttrName::kOutputToOperandAliasing,
                                               [&] { return OutputToOperandAliasing(m, id); });
      ++a;
    }
    if (t < target.size() && target[t] == id) {
      values.target = &target_by_text_.Get(m, id, AttrName::kCustomCallTarget,
                                           [&] { return CustomCallTarget(m, id); });
      ++t;
    }
  }
}

const CallAttributes::Values* CallAttributes::Find(InstrId id) const {
  const uint32_t at = with_values_.Find(id);
  return at == SparseIdIndex::kNone ? nullptr : &values_[at];
}

const std::vector<OutputOperandAlias>& CallAttributes::Aliasing(InstrId id) const {
  static const std::vector<OutputOperandAlias> kNone;
  const Values* values = Find(id);
  return values == nullptr || values->aliasing == nullptr ? kNone : *values->aliasing;
}

const std::string& CallAttributes::Target(InstrId id) const {
  static const std::string kNone;
  const Values* values = Find(id);
  return values == nullptr || values->target == nullptr ? kNone : *values->target;
}

}  // namespace hlolint
