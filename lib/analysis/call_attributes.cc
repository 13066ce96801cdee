#include "analysis/call_attributes.h"

#include <algorithm>
#include <bit>
#include <span>

#include "analysis/attribute_index.h"
#include "source/source_file.h"

namespace hlolint {

CallAttributes::CallAttributes(const Module& m, Analyses& analyses) {
  const AttributeIndex& index = analyses.Get<AttributeIndex>();
  const std::span<const InstrId> aliasing = index.With(AttrName::kOutputToOperandAliasing);
  const std::span<const InstrId> target = index.With(AttrName::kCustomCallTarget);
  values_.reserve(std::max(target.size(), aliasing.size()));
  has_values_.assign((m.instruction_count() + 63) / 64, 0);
  TextReleaser released(m.source(), m.begin_offset());
  // Both lists are in id (= text) order: merged, the text is read front to back.
  size_t a = 0, t = 0;
  while (a < aliasing.size() || t < target.size()) {
    const InstrId id = t == target.size() || (a < aliasing.size() && aliasing[a] < target[t])
                           ? aliasing[a]
                           : target[t];
    released.Advance(m.instr(id).name_offset);
    Values& values = values_.emplace_back();
    has_values_[id / 64] |= uint64_t{1} << (id % 64);
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
  set_before_word_.resize(has_values_.size());
  uint32_t set = 0;
  for (size_t w = 0; w < has_values_.size(); ++w) {
    set_before_word_[w] = set;
    set += static_cast<uint32_t>(std::popcount(has_values_[w]));
  }
}

const CallAttributes::Values* CallAttributes::Find(InstrId id) const {
  const size_t word = id / 64;
  if (word >= has_values_.size()) return nullptr;
  const uint64_t bit = uint64_t{1} << (id % 64);
  if (!(has_values_[word] & bit)) return nullptr;
  return &values_[set_before_word_[word] + std::popcount(has_values_[word] & (bit - 1))];
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
