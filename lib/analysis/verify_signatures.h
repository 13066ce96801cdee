// The program shape of every computation (parameter shapes by number and the
// root shape), as XLA's HloComputation::ComputeProgramShape, for the verify
// rules that check callers against their callees.
#pragma once

#include <vector>

#include "analysis/analyses.h"
#include "analysis/shape_inference.h"
#include "ir/module.h"

namespace hlolint {

class ComputationSignatures {
 public:
  ComputationSignatures(const Module& module, Analyses& analyses);

  // False when the root's shape is unknown (omitted and not inferable) or a
  // parameter's is.
  bool Get(CompId computation, ProgramShapeView* out) const;
  size_t parameter_count(CompId computation) const { return entries_[computation].count; }

 private:
  // 8 bytes per computation (a large dump has hundreds of thousands): the
  // root's shape is looked up when asked for.
  struct Entry {
    uint32_t begin = 0;
    uint32_t count : 31 = 0;
    uint32_t known : 1 = 0;
  };
  const Module& m_;
  std::vector<const Shape*> parameters_;  // every computation's, in order
  std::vector<Entry> entries_;
};

}  // namespace hlolint
