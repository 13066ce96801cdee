// The instructions that carry an attribute, in id (= text) order, for rules
// that look at an attribute few instructions have (sharding, origin): they
// visit those instructions instead of searching every instruction's
// attributes. Each name's list is built on first use, from one scan of the
// module's attribute array (not the instruction records); the few names asked
// for on every module share one scan. Rules on several threads may ask at
// once (see Analyses): a list is built under a lock and published with its
// flag, and a built list never changes.
#pragma once

#include <array>
#include <atomic>
#include <mutex>
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
  // Builds the lists of the `wanted` names in one scan (under build_mutex_).
  void Build(const std::array<bool, kAttrNameCount + 1>& wanted) const;

  const Module& m_;
  mutable std::array<std::vector<InstrId>, kAttrNameCount + 1> lists_;
  // Set (release) once lists_[n] is complete; written under build_mutex_.
  mutable std::array<std::atomic<bool>, kAttrNameCount + 1> built_{};
  mutable std::mutex build_mutex_;
};

}  // namespace hlolint
