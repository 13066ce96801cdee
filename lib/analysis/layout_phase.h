// Whether a module's layouts come from layout assignment. Before layout
// assignment the printed layouts are the front end's (descending, except
// that a transpose gets the permuted layout of its operand and ops after it
// inherit that); layout assignment replaces them. Layout facts — a reshape
// that is not a bitcast, aliased shapes whose layouts differ — only mean
// something once layouts are assigned. A text dump does not say which pass
// it follows (unless its file name does), so this reads the evidence.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string_view>

#include "analysis/analyses.h"
#include "ir/module.h"

namespace hlolint {

class LayoutPhase {
 public:
  LayoutPhase(const Module& module, Analyses& analyses);

  // The module has something that exists only after layout assignment: a
  // schedule, a fusion, a bitcast, a cuBLAS call GemmRewriter made, or a
  // reshape whose result layout no front end writes: not physically the
  // descending one (size-1 dimensions aside), and not a bitcast of its
  // operand either (torch-xla writes those for views).
  bool has_assignment_evidence() const { return assignment_evidence_; }
  // An element-wise op outside fusions (copy aside: copies change layouts on
  // purpose) whose operand is laid out unlike its result: layout assignment
  // never leaves that behind (LayoutNormalization rejects it), so the
  // layouts are the front end's.
  // Looked for on first use: LayoutsAssigned needs it only when there is
  // evidence of assignment.
  bool has_unassigned_evidence() const;

  // Names from a per-pass dump file name that place it after layout
  // assignment: a post-layout-assignment pipeline, a pass that runs after
  // it (layout-assignment itself, the GEMM rewriter, ReshapeDecomposer), or
  // the dump taken just before layout_normalization.
  static bool PassNamesImplyAssignedLayouts(std::string_view pipeline, std::string_view after_pass,
                                            std::string_view before_pass);
  // Names that place the dump before layout assignment: taken right before
  // it, or inside CPU's "HLO passes through layout assignment" pipeline
  // other than after the layout-assignment pass itself.
  static bool PassNamesImplyUnassignedLayouts(std::string_view pipeline,
                                              std::string_view after_pass,
                                              std::string_view before_pass);
  // The verdict: assignment evidence (from the module or the dump name) and
  // no evidence against.
  bool LayoutsAssigned(bool dump_name_implies_assigned) const {
    return (dump_name_implies_assigned || assignment_evidence_) && !has_unassigned_evidence();
  }

 private:
  bool FindUnassignedEvidence() const;

  const Module& m_;
  bool assignment_evidence_ = false;
  // -1: not looked for yet. Rules on several threads may ask (see Analyses).
  mutable std::atomic<int8_t> unassigned_evidence_{-1};
  mutable std::mutex unassigned_evidence_mutex_;
};

// True when the layout orders the dimensions of size other than 1 from
// dimension 0 (most major) to the last (most minor): physically the default
// layout. Front ends put size-1 dimensions anywhere.
bool DescendingApartFromSizeOneDims(const Shape& shape);
// Same dimensions in the same physical order, size-1 dimensions aside.
bool SamePhysicalOrder(const Shape& a, const Shape& b);

}  // namespace hlolint
