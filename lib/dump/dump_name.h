// Recognises the file names XLA gives its dumps (xla/service/dump.cc
// FilenameFor, xla/hlo/pass/hlo_pass_pipeline.cc):
//
//   [<timestamp>.]module_<NNNN>[.<module name>].<suffix>.txt
//
// with suffix one of
//   before_optimizations | after_optimizations | <platform>_after_optimizations
//   <step>.<pipeline>.after_<pass>.before_<next pass>        (between passes)
//   <step>.<pass>.<step name>                                 (within a pass)
// Pipeline and step names may contain spaces and dots, so names are taken
// apart from the right.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hlolint {

struct DumpFileName {
  enum class Kind : uint8_t {
    kBeforeOptimizations,
    kAfterOptimizations,  // including <platform>_after_optimizations
    kBetweenPasses,       // <step>.<pipeline>.after_<pass>.before_<pass>
    kWithinPass,          // <step>.<pass>.<step name>
  };
  Kind kind = Kind::kBeforeOptimizations;
  std::string timestamp;    // empty unless xla_dump_include_timestamp
  std::string module_id;    // "0042"
  std::string module_name;  // may be empty (XLA drops it from names > 255 chars)
  std::string platform;     // e.g. "sm_90_gpu" for sm_90_gpu_after_optimizations
  std::optional<int64_t> step;
  std::string pipeline;     // between passes
  std::string after_pass;   // between passes
  std::string before_pass;  // between passes
  std::string pass;         // within a pass
  std::string step_name;    // within a pass
};

// Parses a file's base name (no directory). nullopt for names that are not
// HLO text dumps (other artifacts such as buffer assignments are rejected
// too, since they are not HLO).
std::optional<DumpFileName> ParseDumpFileName(std::string_view basename);

// Text files XLA writes next to its HLO dumps that are not HLO: the reports
// on a whole-module dump (`..._after_optimizations-buffer-assignment.txt`,
// `-buffer-assignment-values`, `-live-range`, `-memory-usage-report`, ...)
// and GPU thunk sequences, fusion and Triton logs (`...thunk_sequence.txt`,
// `...ttir.txt`, ...). Directory scans skip them.
bool IsNonHloDumpArtifact(std::string_view basename);

}  // namespace hlolint
