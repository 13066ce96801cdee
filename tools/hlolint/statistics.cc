#include "statistics.h"

#include <algorithm>
#include <map>

#include "report/report.h"
#include "util/strings.h"

namespace hlolint {

std::string StatisticsText(const std::vector<FileResult>& files, const RunTotals& totals) {
  std::map<std::string, uint64_t> by_rule;
  for (const FileResult& file : files) {
    for (const Diagnostic& d : file.diagnostics) ++by_rule[d.rule];
  }
  std::vector<std::pair<std::string, uint64_t>> rows(by_rule.begin(), by_rule.end());
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  const Summary s = Summarize(files);
  std::string out = "Statistics:\n";
  if (rows.empty()) out += "  no findings\n";
  for (const auto& [rule, count] : rows) out += fmt::format("  {:>7}  {}\n", count, rule);
  out += fmt::format("  files: {} ({} unreadable), modules: {}, computations: {}, "
                     "instructions: {}, bytes: {}\n",
                     s.files, s.unreadable_files, s.modules, s.computations, s.instructions,
                     s.bytes);
  if (totals.skipped_not_hlo > 0) {
    out += fmt::format("  {} .txt file{} skipped: not HLO\n", totals.skipped_not_hlo,
                       totals.skipped_not_hlo == 1 ? "" : "s");
  }
  out += fmt::format("  errors: {}, warnings: {}, notes: {}, suppressed inline: {}, "
                     "in the baseline: {} (stale baseline entries: {})\n",
                     s.errors, s.warnings, s.notes, s.suppressed, totals.baselined,
                     totals.stale_baseline);
  out += fmt::format("  wall time: {:.3f} s with {} job{}\n", totals.wall_seconds, totals.jobs,
                     totals.jobs == 1 ? "" : "s");
  return out;
}

}  // namespace hlolint
