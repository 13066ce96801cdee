#include "analysis/layout_phase.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "analysis/bitcast.h"
#include "analysis/shape_inference.h"
#include "parse/attributes.h"

namespace hlolint {

namespace {

// Every minor_to_major entry indexes a dimension. An invalid layout is
// reported by the verifier; it is no evidence either way here.
bool IndexableLayout(const Shape& shape) {
  const std::vector<int64_t>& m2m = MinorToMajor(shape);
  if (m2m.size() != shape.dimensions.size()) return false;
  for (int64_t d : m2m) {
    if (d < 0 || d >= shape.rank()) return false;
  }
  return true;
}

}  // namespace

bool DescendingApartFromSizeOneDims(const Shape& shape) {
  if (!IndexableLayout(shape)) return true;
  int64_t previous = INT64_MAX;
  for (int64_t d : MinorToMajor(shape)) {
    if (shape.dimensions[d] == 1) continue;
    if (d > previous) return false;
    previous = d;
  }
  return true;
}

bool SamePhysicalOrder(const Shape& a, const Shape& b) {
  if (a.dimensions != b.dimensions) return false;
  if (!IndexableLayout(a) || !IndexableLayout(b)) return true;
  std::vector<int64_t> order_a, order_b;
  for (int64_t d : MinorToMajor(a)) {
    if (a.dimensions[d] != 1) order_a.push_back(d);
  }
  for (int64_t d : MinorToMajor(b)) {
    if (b.dimensions[d] != 1) order_b.push_back(d);
  }
  return order_a == order_b;
}

LayoutPhase::LayoutPhase(const Module& m, Analyses& /*analyses*/) {
  assignment_evidence_ = m.is_scheduled();
  absl::flat_hash_map<std::pair<const Shape*, const Shape*>, bool> same_order;
  // DescendingApartFromSizeOneDims per interned reshape result shape (0: not
  // yet asked, 1: false, 2: true): dumps repeat a few reshape shapes.
  std::vector<uint8_t> descending(m.shapes().size(), 0);
  auto descending_apart_from_size_one_dims = [&](const Shape& shape) {
    if (shape.id >= descending.size()) return DescendingApartFromSizeOneDims(shape);
    if (descending[shape.id] == 0) {
      descending[shape.id] = DescendingApartFromSizeOneDims(shape) ? 2 : 1;
    }
    return descending[shape.id] == 2;
  };
  for (InstrId id = 0; id < m.instruction_count(); ++id) {
    if (assignment_evidence_ && unassigned_evidence_) break;  // nothing left to learn
    const Opcode opcode = m.opcode(id);
    const bool is_elementwise = IsElementwiseOpcode(opcode);
    // Only the opcodes of the switch below can show assignment, and only
    // elementwise ones its absence: skip the others by their (dense)
    // opcode, without reading the record.
    const bool may_show_assigned =
        !assignment_evidence_ && (opcode == Opcode::kFusion || opcode == Opcode::kBitcast ||
                                  opcode == Opcode::kReshape || opcode == Opcode::kCustomCall);
    if (!may_show_assigned && (unassigned_evidence_ || !is_elementwise)) continue;
    if (!m.has_known_shape(id)) continue;
    const Shape& shape = m.shape(id);
    switch (opcode) {
      case Opcode::kFusion:
      case Opcode::kBitcast:
        assignment_evidence_ = true;
        continue;
      case Opcode::kReshape:
        // Front ends give a reshape the descending layout, or (torch-xla,
        // for views) a layout that makes it a bitcast of its operand.
        if (!assignment_evidence_ && shape.IsArray() && shape.has_layout &&
            !descending_apart_from_size_one_dims(shape) && m.operands(id).size() == 1 &&
            m.has_known_shape(m.operand(id, 0)) && m.shape(m.operand(id, 0)).has_layout &&
            !ReshapeIsBitcast(shape, m.shape(m.operand(id, 0)))) {
          assignment_evidence_ = true;
        }
        continue;
      case Opcode::kCustomCall:
        if (!assignment_evidence_) {
          const std::string target = CustomCallTarget(m, id);
          if (target == "__cublas$gemm" || target.starts_with("__cublas$lt$matmul")) {
            assignment_evidence_ = true;
          }
        }
        continue;
      default:
        break;
    }
    if (unassigned_evidence_ || !is_elementwise) continue;
    // A copy changes layouts on purpose after layout assignment
    // (ReshapeDecomposer inserts such copies; LayoutNormalization::HandleCopy
    // turns them into transposes).
    if (opcode == Opcode::kCopy) continue;
    if (m.computation(m.parent(id)).is_fusion_computation) continue;
    if (!shape.IsArray() || !shape.has_layout) continue;
    for (InstrId operand : m.operands(id)) {
      const Shape& s = m.shape(operand);
      // Shapes are interned: the same shape is the same object, and a pair
      // of shapes, once compared, is looked up (dumps repeat a few pairs).
      if (&s == &shape || !s.IsArray() || !s.has_layout || s.dimensions != shape.dimensions) {
        continue;
      }
      auto [it, inserted] = same_order.try_emplace(std::make_pair(&s, &shape), true);
      if (inserted) it->second = SamePhysicalOrder(s, shape);
      if (!it->second) {
        unassigned_evidence_ = true;
        break;
      }
    }
  }
}

bool LayoutPhase::PassNamesImplyAssignedLayouts(std::string_view pipeline,
                                                std::string_view after_pass,
                                                std::string_view before_pass) {
  auto contains = [](std::string_view text, std::string_view key) {
    return text.find(key) != std::string_view::npos;
  };
  // Pipelines that run after layout assignment on GPU (gpu_compiler.cc).
  for (std::string_view key : {"post-layout_assignment", "hlo normalization",
                               "layout normalization"}) {
    if (contains(pipeline, key)) return true;
  }
  // Passes that run after it.
  for (std::string_view key : {"layout-assignment", "layout_assignment", "layout_normalization",
                               "gemm-rewriter", "gemm-broadcast-folding", "reshape-decomposer",
                               "reshape_decomposer"}) {
    if (contains(after_pass, key)) return true;
  }
  return contains(before_pass, "layout_normalization");
}

}  // namespace hlolint
