#include "analysis/layout_phase.h"

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "analysis/bitcast.h"
#include "analysis/call_attributes.h"
#include "analysis/opcode_index.h"
#include "analysis/shape_inference.h"

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

LayoutPhase::LayoutPhase(const Module& m, Analyses& analyses) : m_(m) {
  // Both facts are "some instruction shows it": the opcodes that can show
  // assignment are visited through the opcode index, and only element-wise
  // ops outside fusion computations can show its absence.
  const OpcodeIndex& index = analyses.Get<OpcodeIndex>();
  assignment_evidence_ = m.is_scheduled();
  for (Opcode op : {Opcode::kFusion, Opcode::kBitcast}) {
    for (InstrId id : index.Of(op)) {
      if (assignment_evidence_) break;
      assignment_evidence_ = m.has_known_shape(id);
    }
  }
  // DescendingApartFromSizeOneDims per interned reshape result shape (0: not
  // yet asked, 1: false, 2: true): dumps repeat a few reshape shapes.
  std::vector<uint8_t> descending;
  auto descending_apart_from_size_one_dims = [&](const Shape& shape) {
    if (shape.id >= m.shapes().size()) return DescendingApartFromSizeOneDims(shape);
    if (descending.empty()) descending.assign(m.shapes().size(), 0);
    if (descending[shape.id] == 0) {
      descending[shape.id] = DescendingApartFromSizeOneDims(shape) ? 2 : 1;
    }
    return descending[shape.id] == 2;
  };
  for (InstrId id : index.Of(Opcode::kReshape)) {
    if (assignment_evidence_) break;
    if (!m.has_known_shape(id)) continue;
    // Front ends give a reshape the descending layout, or (torch-xla, for
    // views) a layout that makes it a bitcast of its operand.
    const Shape& shape = m.shape(id);
    if (shape.IsArray() && shape.has_layout && !descending_apart_from_size_one_dims(shape) &&
        m.operands(id).size() == 1 && m.has_known_shape(m.operand(id, 0)) &&
        m.shape(m.operand(id, 0)).has_layout &&
        !ReshapeIsBitcast(shape, m.shape(m.operand(id, 0)))) {
      assignment_evidence_ = true;
    }
  }
  for (InstrId id : index.Of(Opcode::kCustomCall)) {
    if (assignment_evidence_) break;
    if (!m.has_known_shape(id)) continue;
    const std::string& target = analyses.Get<CallAttributes>().Target(id);
    if (target == "__cublas$gemm" || target.starts_with("__cublas$lt$matmul")) {
      assignment_evidence_ = true;
    }
  }
}

bool LayoutPhase::has_unassigned_evidence() const {
  int8_t known = unassigned_evidence_.load(std::memory_order_acquire);
  if (known >= 0) return known == 1;
  // Rules on other threads may ask at the same time: one looks, they wait.
  std::lock_guard<std::mutex> lock(unassigned_evidence_mutex_);
  known = unassigned_evidence_.load(std::memory_order_relaxed);
  if (known < 0) {
    known = FindUnassignedEvidence() ? 1 : 0;
    unassigned_evidence_.store(known, std::memory_order_release);
  }
  return known == 1;
}

bool LayoutPhase::FindUnassignedEvidence() const {
  const Module& m = m_;
  absl::flat_hash_map<std::pair<const Shape*, const Shape*>, bool> same_order;
  for (CompId c = 0; c < m.computation_count(); ++c) {
    if (m.computation(c).is_fusion_computation) continue;
    for (InstrId id : m.instructions(c)) {
      const Opcode opcode = m.opcode(id);
      // A copy changes layouts on purpose after layout assignment
      // (ReshapeDecomposer inserts such copies; LayoutNormalization::HandleCopy
      // turns them into transposes).
      if (!IsElementwiseOpcode(opcode) || opcode == Opcode::kCopy) continue;
      if (!m.has_known_shape(id)) continue;
      const Shape& shape = m.shape(id);
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
        if (!it->second) return true;
      }
    }
  }
  return false;
}

namespace {

// XLA writes spaces in pipeline names as '_' in file names since it
// sanitizes them (SanitizeFileName); older dumps kept the spaces.
std::string UnderscoredLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == ' ') c = '_';
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool Contains(std::string_view text, std::string_view key) {
  return text.find(key) != std::string_view::npos;
}

bool IsLayoutAssignment(std::string_view pass) {
  return Contains(pass, "layout-assignment") || Contains(pass, "layout_assignment");
}

}  // namespace

bool LayoutPhase::PassNamesImplyUnassignedLayouts(std::string_view pipeline,
                                                  std::string_view after_pass,
                                                  std::string_view before_pass) {
  if (IsLayoutAssignment(after_pass)) return false;
  return IsLayoutAssignment(before_pass) ||
         Contains(UnderscoredLower(pipeline), "through_layout_assignment");
}

bool LayoutPhase::PassNamesImplyAssignedLayouts(std::string_view pipeline_name,
                                                std::string_view after_pass,
                                                std::string_view before_pass) {
  auto contains = [](std::string_view text, std::string_view key) { return Contains(text, key); };
  // Pipelines that run after layout assignment: GPU's (gpu_compiler.cc)
  // and CPU's "HLO passes after layout assignment" (cpu_compiler.cc).
  const std::string pipeline = UnderscoredLower(pipeline_name);
  for (std::string_view key : {"post-layout_assignment", "hlo_normalization",
                               "layout_normalization", "after_layout_assignment"}) {
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
