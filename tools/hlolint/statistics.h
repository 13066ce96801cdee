// --statistics: what was linted and what was found.
#pragma once

#include <string>
#include <vector>

#include "engine/lint.h"

namespace hlolint {

struct RunTotals {
  double wall_seconds = 0;
  int jobs = 1;
  uint64_t baselined = 0;
  size_t skipped_not_hlo = 0;  // `.txt` files of directory scans left out
  uint64_t stale_baseline = 0;  // --baseline entries that matched nothing
};

std::string StatisticsText(const std::vector<FileResult>& files, const RunTotals& totals);

}  // namespace hlolint
