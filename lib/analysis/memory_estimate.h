// A module's memory, estimated from its buffers' live ranges
// (buffer_liveness.h) the way XLA's buffer assignment adds it up
// (docs/memory-report.md): what `hlolint --memory-report` prints. The
// estimate holds names and lines, not IR ids, so that it outlives the
// module it describes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analyses.h"
#include "ir/module.h"

namespace hlolint {

// One buffer live at the peak.
struct MemoryBufferInfo {
  std::string instruction;
  std::string computation;
  std::string index;    // "{0,1}" inside a tuple result; "" for the whole result
  std::string shape;    // the buffer's subshape, with its layout
  std::string kind;     // parameter, constant, output, temporary
  uint64_t bytes = 0;
  uint32_t line = 0;    // of the defining instruction, 1-based
  std::string source_file;  // metadata source_file ("" when none)
  int64_t source_line = 0;
};

// The largest sum of one computation's temporaries live at once (the
// computations it runs included).
struct ComputationPeakInfo {
  std::string computation;
  uint64_t temporaries_peak_bytes = 0;
  std::string instruction;  // where that peak is ("" for a computation without instructions)
  uint32_t line = 0;
};

// Live bytes of the default memory space after one entry instruction (the
// largest of a stretch of instructions, when the timeline is sampled).
struct TimelinePoint {
  uint32_t position = 0;  // in the entry's schedule
  std::string instruction;
  uint32_t line = 0;
  uint64_t live_bytes = 0;
};

// The figures of one memory space.
struct MemorySpaceFigures {
  int64_t memory_space = 0;
  uint64_t total_bytes = 0;
  uint64_t peak_bytes = 0;
  uint64_t parameters_bytes = 0;
  uint64_t outputs_bytes = 0;
  uint64_t constants_bytes = 0;
  uint64_t temporaries_peak_bytes = 0;
};

struct MemoryEstimate {
  // The default memory space (S(0), device memory).
  MemorySpaceFigures device;
  // Every value of the computations called in an embedded context (reducers,
  // comparators: to_apply of reduce, scatter, sort, ...), each in an
  // allocation of its own (XLA's thread-local allocations); in the total.
  uint64_t thread_local_bytes = 0;
  // Bytes of entry outputs that input_output_alias puts in parameters' buffers.
  uint64_t aliased_output_bytes = 0;
  std::string peak_instruction;  // the entry instruction at the largest live set
  uint32_t peak_line = 0;
  uint32_t peak_position = 0;
  std::vector<MemoryBufferInfo> top;  // at the peak, largest first
  std::vector<ComputationPeakInfo> computations;  // largest peak first
  std::vector<TimelinePoint> timeline;
  std::vector<MemorySpaceFigures> other_spaces;  // S(n) for n != 0, by n
  uint32_t entry_instructions = 0;
  uint64_t unsized_buffers = 0;  // buffers counted as 0 bytes: no size known
  bool scheduled = false;
};

struct MemoryEstimateOptions {
  size_t top_buffers = 10;
  size_t timeline_points = 256;  // at most; an entry with more instructions is sampled
};

MemoryEstimate EstimateMemory(const Module& module, Analyses& analyses,
                              const MemoryEstimateOptions& options = {});

// The memory space XLA's host offloading uses (Layout::kHostMemorySpace).
inline constexpr int64_t kHostOffloadMemorySpace = 5;

}  // namespace hlolint
