// What is known about a file from its XLA dump file name (see
// docs/dump-directories.md): the module, the step and the passes around it,
// and, for a file in a dump sequence, what the neighbouring dumps say.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hlolint {

enum class DumpKind : uint8_t {
  kBeforeOptimizations,  // module_N.<name>.before_optimizations.txt
  kAfterOptimizations,   // module_N.<name>.[<platform>_]after_optimizations.txt
  kBetweenPasses,        // module_N.<name>.<step>.<pipeline>.after_<pass>.before_<pass>.txt
  kWithinPass,           // module_N.<name>.<step>.<pass>.<step name>.txt
  kAssumed,              // no dump name: --assume-pass said where it was taken
};
std::string_view DumpKindName(DumpKind kind);  // "between_passes", ...

// Whether ReshapeDecomposer has run since layout assignment when the dump
// was taken, as far as the file name and the dump sequence tell.
enum class DecomposerState : uint8_t {
  kUnknown,
  kNotSinceLayoutAssignment,  // layout assignment ran, ReshapeDecomposer not since
  kRanSinceLayoutAssignment,  // ReshapeDecomposer ran (after layout assignment, if that is known)
};

struct DumpContext {
  DumpKind kind = DumpKind::kBetweenPasses;
  std::string timestamp;   // xla_dump_include_timestamp prefix; usually empty
  std::string module_id;   // "0042" in module_0042.<name>...
  std::string module_name;
  std::optional<int64_t> step;
  std::string pipeline;    // e.g. "post-layout_assignment"
  std::string after_pass;  // e.g. "cublas-gemm-rewriter"
  std::string before_pass; // e.g. "layout_normalization"
  std::string during_pass; // within-pass dumps: the pass
  std::string step_name;   // within-pass dumps: e.g. "after adding copies ..."
  std::string platform;    // e.g. "sm_90_gpu" in sm_90_gpu_after_optimizations

  // Filled from the dump sequence (files of one module in step order):
  // whether there is one (two or more dumps of the module among the inputs).
  bool in_sequence = false;
  // the pass after which the next dump of the module was taken, when that
  // dump directly follows this one (no missing step in between).
  std::string next_pass;
  DecomposerState reshape_decomposer = DecomposerState::kUnknown;
  // This dump or an earlier one of the sequence was taken after layout
  // assignment (by its pass names), so this one is too.
  bool after_layout_assignment = false;
  // A later dump of the sequence was taken after layout assignment, and
  // this one not: the layouts it prints are the front end's.
  bool before_layout_assignment = false;
  // The platform of the sequence's after-optimizations dump (only that dump
  // names it): the backend of every dump of the module.
  std::string sequence_platform;
  std::string_view Platform() const { return platform.empty() ? sequence_platform : platform; }

  // The dump is the input of a LayoutNormalization run: its name says
  // before_layout_normalization, or the next dump of the module was taken
  // after layout_normalization (the passes in between changed nothing).
  bool RightBeforeLayoutNormalization() const;
  // The pass that ran last before the dump (after_pass, or the pass a
  // within-pass dump was taken in); empty for whole-module dumps.
  std::string_view LastPass() const;
  // "after pass 'P' (pipeline 'Q', step N)", "during pass 'P' (S, step N)",
  // "at the start of pipeline 'Q' (step N)", "before optimizations", ...:
  // where in compilation the dump was taken, for messages.
  std::string Describe() const;
};

// Whether a module shows XLA's final buffer decisions: entry donations are
// settled (OptimizeInputOutputBufferAlias has run) and copy insertion has
// added its copies, so what the text allocates is what XLA allocates. True
// for an after-optimizations dump, a dump taken right after
// OptimizeInputOutputBufferAlias, and any module with is_scheduled=true
// (scheduling runs after both passes); false for before-optimizations
// dumps. `dump`: null when the file has no dump name.
bool BuffersFinal(const DumpContext* dump, bool is_scheduled);

}  // namespace hlolint
