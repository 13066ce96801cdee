// The memory report (`hlolint --memory-report`, docs/memory-report.md):
// each module's MemoryEstimate as text with a sparkline, as JSON
// (docs/memory-report.schema.json) and as an SVG plot of the timelines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/memory_estimate.h"

namespace hlolint {

// Why a module (or a whole file) has no estimate.
struct MemoryReportError {
  std::string message;
  uint32_t line = 0;  // 0: the file's error, not at a place in it
  uint32_t column = 0;
};

struct MemoryModuleReport {
  std::string file;
  std::string module;  // "" when the file could not be read
  std::optional<MemoryReportError> error;
  MemoryEstimate estimate;  // when there is no error
};

// "12.0 KiB": binary units, one decimal from KiB up; "512 B" below.
std::string HumanBytes(uint64_t bytes);
// One block character per point, from ▁ to █, scaled to the largest point;
// at most `width` characters (each the largest of the points it covers).
std::string Sparkline(const std::vector<TimelinePoint>& timeline, size_t width);

std::string RenderMemoryText(const std::vector<MemoryModuleReport>& modules);
std::string RenderMemoryJson(const std::vector<MemoryModuleReport>& modules,
                             const std::string& tool_version);
// One plot per module with an estimate, one above the other.
std::string RenderMemorySvg(const std::vector<MemoryModuleReport>& modules);

}  // namespace hlolint
