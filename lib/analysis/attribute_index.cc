#include "analysis/attribute_index.h"

#include <algorithm>
#include <iterator>

namespace hlolint {

AttributeIndex::AttributeIndex(const Module& module, Analyses&) : m_(module) {}

namespace {

// The attributes the analyses and rules ask for on every module: their
// lists come from one scan of the attribute array instead of one each.
constexpr AttrName kAskedTogether[] = {AttrName::kOutputToOperandAliasing,
                                       AttrName::kCustomCallTarget, AttrName::kOrigin,
                                       AttrName::kSharding};

}  // namespace

std::span<const InstrId> AttributeIndex::With(AttrName name) const {
  const size_t n = static_cast<size_t>(name);
  if (built_[n].load(std::memory_order_acquire)) return lists_[n];
  std::lock_guard<std::mutex> lock(build_mutex_);
  if (built_[n].load(std::memory_order_relaxed)) return lists_[n];  // built meanwhile
  std::array<bool, kAttrNameCount + 1> wanted{};
  wanted[n] = true;
  if (std::find(std::begin(kAskedTogether), std::end(kAskedTogether), name) !=
      std::end(kAskedTogether)) {
    for (AttrName other : kAskedTogether) {
      const size_t o = static_cast<size_t>(other);
      wanted[o] = !built_[o].load(std::memory_order_relaxed);
    }
  }
  Build(wanted);
  return lists_[n];
}

void AttributeIndex::Build(const std::array<bool, kAttrNameCount + 1>& wanted) const {
  for (size_t n = 0; n < wanted.size(); ++n) {
    if (wanted[n]) lists_[n].clear();  // left partly filled if a previous build threw
  }
  const std::span<const Attribute> all = m_.all_attributes();
  const InstrId count = static_cast<InstrId>(m_.instruction_count());
  // The attribute array holds the instructions' attributes in id order, so
  // the owner of each hit is found by moving forward from the last owner:
  // a step at a time first (hits close together), then by halving.
  InstrId owner = 0;
  auto end_of = [&](InstrId id) { return m_.instr(id).attrs_begin + m_.instr(id).attr_count; };
  for (size_t k = 0; k < all.size(); ++k) {
    if (!wanted[static_cast<size_t>(all[k].name)]) continue;
    const uint32_t at = static_cast<uint32_t>(k);
    InstrId step = 1;
    while (owner < count && end_of(owner) <= at) {
      // Gallop: find a later instruction whose attributes end past `at`.
      InstrId probe = owner + step;
      if (probe >= count || end_of(probe) > at) {
        // The owner is in (owner, min(probe, count - 1)]: bisect.
        InstrId lo = owner + 1, hi = probe < count ? probe : count - 1;
        while (lo < hi) {
          const InstrId mid = lo + (hi - lo) / 2;
          if (end_of(mid) <= at) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        owner = lo;
        break;
      }
      owner = probe;
      step *= 2;
    }
    if (owner >= count || m_.instr(owner).attrs_begin > at) continue;  // not expected
    lists_[static_cast<size_t>(all[k].name)].push_back(owner);
  }
  for (size_t n = 0; n < wanted.size(); ++n) {
    if (wanted[n]) built_[n].store(true, std::memory_order_release);
  }
}

}  // namespace hlolint
