#include "report/dump_summary.h"

#include "report/dump_history.h"
#include "report/json_diagnostic.h"
#include "util/strings.h"

namespace hlolint {
namespace {

using Json = nlohmann::ordered_json;

DumpSequenceInfo InfoFor(const DumpPlan& plan, const DumpGroup& group,
                         const DumpGroupStats& stats) {
  DumpSequenceInfo info;
  info.directory = group.directory;
  info.timestamp = group.timestamp;
  info.module_id = group.module_id;
  info.module_name = group.module_name;
  info.dumps = static_cast<uint32_t>(group.files.size());
  info.findings = stats.findings;
  info.fixed = stats.fixed;
  std::optional<int64_t> previous;
  for (size_t file : group.files) {
    const std::optional<int64_t>& step = plan.contexts[file]->step;
    if (!step) continue;
    if (!info.first_step) info.first_step = step;
    info.last_step = step;
    if (previous && *step > *previous + 1) info.missing_steps += *step - *previous - 1;
    previous = step;
  }
  return info;
}

// "hlo normalization: after cublas-gemm-rewriter", "before optimizations", ...
std::string DumpLabel(const DumpContext& c) {
  switch (c.kind) {
    case DumpKind::kBeforeOptimizations: return "before optimizations";
    case DumpKind::kAfterOptimizations:
      return c.platform.empty() ? "after optimizations"
                                : StrCat("after optimizations (", c.platform, ")");
    case DumpKind::kWithinPass:
      return StrCat(c.during_pass, ": during the pass, ", c.step_name);
    case DumpKind::kBetweenPasses:
    case DumpKind::kAssumed:
      break;
  }
  if (c.after_pass == "pipeline-start") return StrCat(c.pipeline, ": start");
  return StrCat(c.pipeline, ": after ", c.after_pass);
}

std::string ByRule(const std::map<std::string, uint32_t>& counts, char sign) {
  std::vector<std::string> parts;
  for (const auto& [rule, n] : counts) parts.push_back(StrCat(sign, n, " ", rule));
  return StrJoin(parts, ", ");
}

std::string Signed(uint32_t n, char sign) { return n == 0 ? "-" : StrCat(sign, n); }

Json CountsJson(const std::map<std::string, uint32_t>& counts) {
  Json j = Json::object();
  for (const auto& [rule, n] : counts) j[rule] = n;
  return j;
}

}  // namespace

std::string RenderDumpSummaryText(const DumpPlan& plan, const std::vector<DumpGroupStats>& stats,
                                  const std::vector<FileResult>& results) {
  std::string out;
  uint64_t dumps = 0;
  for (size_t g = 0; g < plan.groups.size(); ++g) {
    const DumpGroup& group = plan.groups[g];
    dumps += group.files.size();
    out += SequenceHeadline(InfoFor(plan, group, stats[g])) + "\n";
    out += "   step  findings   new  fixed  dump\n";
    std::optional<int64_t> previous;
    for (const DumpFileStats& file : stats[g].files) {
      const DumpContext& c = *plan.contexts[file.file];
      if (previous && c.step && *c.step > *previous + 1) {
        out += *c.step == *previous + 2
                   ? StrCat("      .  (step ", *previous + 1, " missing)\n")
                   : StrCat("      .  (steps ", *previous + 1, "-", *c.step - 1, " missing)\n");
      }
      if (c.step) previous = c.step;
      std::string notes;
      if (file.incomplete) notes += "  (unreadable or does not parse)";
      if (!file.introduced_by_rule.empty()) notes += StrCat("  ", ByRule(file.introduced_by_rule, '+'));
      if (!file.fixed_by_rule.empty()) notes += StrCat("  ", ByRule(file.fixed_by_rule, '-'));
      out += fmt::format("  {:>5}  {:>8}  {:>4}  {:>5}  {}{}\n",
                         c.step ? std::to_string(*c.step) : std::string("-"), file.findings,
                         Signed(file.introduced, '+'), Signed(file.fixed, '-'), DumpLabel(c),
                         notes);
    }
    out += "\n";
  }
  std::vector<size_t> others;
  for (size_t i = 0; i < plan.contexts.size(); ++i) {
    if (plan.group_of[i] < 0) others.push_back(i);
  }
  if (!others.empty()) {
    out += StrCat("other files (not named like XLA dumps): ", others.size(), "\n");
    out += "  findings  file\n";
    for (size_t i : others) {
      out += fmt::format("  {:>8}  {}{}\n", results[i].diagnostics.size(), results[i].path,
                         results[i].io_error ? "  (unreadable)" : "");
    }
    out += "\n";
  }
  out += StrCat(plan.groups.size(), plan.groups.size() == 1 ? " module, " : " modules, ", dumps,
                dumps == 1 ? " dump, " : " dumps, ", others.size(),
                others.size() == 1 ? " other file\n" : " other files\n");
  return out;
}

std::string RenderDumpSummaryJson(const DumpPlan& plan, const std::vector<DumpGroupStats>& stats,
                                  const std::vector<FileResult>& results,
                                  const std::string& tool_version) {
  Json doc;
  doc["version"] = 1;
  doc["tool"] = {{"name", "hlolint"}, {"version", tool_version}};
  doc["modules"] = Json::array();
  for (size_t g = 0; g < plan.groups.size(); ++g) {
    const DumpGroup& group = plan.groups[g];
    Json m;
    m["module_id"] = group.module_id;
    m["module_name"] = group.module_name;
    m["directory"] = group.directory;
    if (!group.timestamp.empty()) m["timestamp"] = group.timestamp;
    m["findings"] = stats[g].findings;
    m["fixed"] = stats[g].fixed;
    m["dumps"] = Json::array();
    for (const DumpFileStats& file : stats[g].files) {
      Json d;
      d["file"] = results[file.file].path;
      d["dump"] = DumpContextToJson(*plan.contexts[file.file]);
      d["findings"] = file.findings;
      d["introduced"] = file.introduced;
      d["fixed"] = file.fixed;
      d["introduced_by_rule"] = CountsJson(file.introduced_by_rule);
      d["fixed_by_rule"] = CountsJson(file.fixed_by_rule);
      d["incomplete"] = file.incomplete;
      m["dumps"].push_back(std::move(d));
    }
    doc["modules"].push_back(std::move(m));
  }
  doc["other_files"] = Json::array();
  for (size_t i = 0; i < plan.contexts.size(); ++i) {
    if (plan.group_of[i] >= 0) continue;
    Json f;
    f["file"] = results[i].path;
    f["findings"] = results[i].diagnostics.size();
    if (results[i].io_error) f["error"] = results[i].io_error_message;
    doc["other_files"].push_back(std::move(f));
  }
  return DumpJson(doc, 2) + "\n";
}

}  // namespace hlolint
