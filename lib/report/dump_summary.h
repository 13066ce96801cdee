// hlolint --dump-summary: a map of the XLA dumps among the inputs: each
// module's dumps in order with the finding counts of each, and the other
// files (docs/dump-directories.md).
#pragma once

#include <string>
#include <vector>

#include "engine/dump_sequence.h"
#include "engine/lint.h"

namespace hlolint {

// `results` in the planned paths' order; `stats` from TrackDumpSequences.
std::string RenderDumpSummaryText(const DumpPlan& plan, const std::vector<DumpGroupStats>& stats,
                                  const std::vector<FileResult>& results);
std::string RenderDumpSummaryJson(const DumpPlan& plan, const std::vector<DumpGroupStats>& stats,
                                  const std::vector<FileResult>& results,
                                  const std::string& tool_version);

}  // namespace hlolint
