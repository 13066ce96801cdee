// XLA pass names, as their name() methods return them and as they appear in
// per-pass dump file names, for the passes hlolint reasons about.
#pragma once

#include <string_view>

namespace hlolint {

// Compares pass names ignoring ASCII case and the difference between '-'
// and '_' (XLA spells some names with one, some with the other).
inline bool SamePassName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x == '_') x = '-';
    if (y == '_') y = '-';
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// LayoutAssignment::name() (GpuLayoutAssignment and the CPU one inherit it).
inline bool IsLayoutAssignmentPass(std::string_view name) {
  return SamePassName(name, "layout-assignment");
}
// ReshapeDecomposer::name() (xla/service/reshape_decomposer.h).
inline bool IsReshapeDecomposerPass(std::string_view name) {
  return SamePassName(name, "reshape-decomposer");
}
// LayoutNormalization::name() (xla/service/layout_normalization.h).
inline bool IsLayoutNormalizationPass(std::string_view name) {
  return SamePassName(name, "layout_normalization");
}
// OptimizeInputOutputBufferAlias::name()
// (xla/hlo/transforms/simplifiers/optimize_input_output_buffer_alias.h): the
// pass that turns buffer donors into input_output_alias entries.
inline bool IsOptimizeInputOutputBufferAliasPass(std::string_view name) {
  return SamePassName(name, "optimize_input_output_buffer_alias");
}
// The names HloPassPipeline uses for its first and last dumps.
inline bool IsPipelineBoundary(std::string_view name) {
  return name == "pipeline-start" || name == "pipeline-end";
}

}  // namespace hlolint
