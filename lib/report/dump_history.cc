#include "report/dump_history.h"

#include "util/strings.h"

namespace hlolint {
namespace {

std::string_view Basename(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string MissingSteps(const DumpPoint& point, std::string_view consequence) {
  if (!point.missing_from || !point.missing_to) return "";
  const std::string steps = *point.missing_from == *point.missing_to
                                ? StrCat("step ", *point.missing_from, " is")
                                : StrCat("steps ", *point.missing_from, "-", *point.missing_to,
                                         " are");
  return StrCat("; ", steps, " missing, so ", consequence);
}

}  // namespace

std::vector<std::string> DumpHistoryLines(const FileResult& file, const Diagnostic& d) {
  std::vector<std::string> lines;
  if (!d.history) return lines;
  const DumpHistory& h = *d.history;
  std::string first = h.in_first_dump ? "present from the first dump of the sequence"
                      : h.earlier_fixed_after ? "back"
                                              : "first seen";
  if (h.first_severity != d.severity) first += StrCat(" (as a ", SeverityName(h.first_severity), ")");
  first += StrCat(h.in_first_dump ? ", " : " ", h.first_seen.description);
  if (h.first_seen.file != file.path) first += StrCat(" in ", Basename(h.first_seen.file));
  first += MissingSteps(h.first_seen, "a pass in the gap may have introduced it");
  lines.push_back(std::move(first));
  if (h.earliest_seen && h.earlier_fixed_after) {
    lines.push_back(StrCat("it had been fixed ", h.earlier_fixed_after->description,
                           "; first seen ", h.earliest_seen->description));
  }
  if (h.fixed_after) {
    lines.push_back(StrCat("fixed ", h.fixed_after->description,
                           MissingSteps(*h.fixed_after, "a pass in the gap may have fixed it")));
  } else if (h.in_last_dump) {
    const std::string& next = h.last_seen.before_pass;
    lines.push_back(StrCat("not fixed: still present in the last dump, ", h.last_seen.description,
                           next.empty() || next == "pipeline-end"
                               ? std::string()
                               : StrCat(", before pass '", next, "'")));
  } else {
    lines.push_back(StrCat("last seen ", h.last_seen.description,
                           "; the later dumps could not be read or parsed"));
  }
  return lines;
}

std::string SequenceHeadline(const DumpSequenceInfo& s) {
  std::string text = StrCat("module ", s.module_id);
  if (!s.module_name.empty()) text += StrCat(" ", s.module_name);
  if (!s.directory.empty()) text += StrCat(" in ", s.directory);
  if (!s.timestamp.empty()) text += StrCat(" (timestamp ", s.timestamp, ")");
  text += StrCat(": ", s.dumps, s.dumps == 1 ? " dump" : " dumps");
  if (s.first_step && s.last_step) {
    text += *s.first_step == *s.last_step ? StrCat(" (step ", *s.first_step)
                                          : StrCat(" (steps ", *s.first_step, "-", *s.last_step);
    if (s.missing_steps > 0) text += StrCat(", ", s.missing_steps, " missing");
    text += ")";
  }
  text += StrCat("; ", s.findings, s.findings == 1 ? " finding" : " findings");
  if (s.findings > 0) text += StrCat(", ", s.fixed, " fixed");
  return text;
}

nlohmann::ordered_json DumpContextToJson(const DumpContext& dump) {
  nlohmann::ordered_json j;
  j["module_id"] = dump.module_id;
  j["module_name"] = dump.module_name;
  j["kind"] = std::string(DumpKindName(dump.kind));
  j["step"] = dump.step ? nlohmann::ordered_json(*dump.step) : nlohmann::ordered_json(nullptr);
  j["pipeline"] = dump.pipeline;
  j["after_pass"] = dump.after_pass;
  j["before_pass"] = dump.before_pass;
  if (dump.kind == DumpKind::kWithinPass) {
    j["during_pass"] = dump.during_pass;
    j["step_name"] = dump.step_name;
  }
  if (!dump.platform.empty()) j["platform"] = dump.platform;
  if (!dump.timestamp.empty()) j["timestamp"] = dump.timestamp;
  if (!dump.next_pass.empty()) j["next_pass"] = dump.next_pass;
  return j;
}

nlohmann::ordered_json DumpPointToJson(const DumpPoint& point) {
  nlohmann::ordered_json j;
  j["file"] = point.file;
  j["step"] = point.step ? nlohmann::ordered_json(*point.step) : nlohmann::ordered_json(nullptr);
  j["pipeline"] = point.pipeline;
  j["after_pass"] = point.after_pass;
  j["before_pass"] = point.before_pass;
  j["description"] = point.description;
  if (point.missing_from && point.missing_to) {
    j["missing_steps"] = {*point.missing_from, *point.missing_to};
  }
  return j;
}

void AddDumpFields(const FileResult& file, const Diagnostic& d, nlohmann::ordered_json& j) {
  if (file.dump) j["dump"] = DumpContextToJson(*file.dump);
  if (!d.history) return;
  j["first_seen"] = DumpPointToJson(d.history->first_seen);
  j["last_seen"] = DumpPointToJson(d.history->last_seen);
  if (d.history->fixed_after) j["fixed_after"] = DumpPointToJson(*d.history->fixed_after);
  if (d.history->earliest_seen && d.history->earlier_fixed_after) {
    j["earliest_seen"] = DumpPointToJson(*d.history->earliest_seen);
    j["earlier_fixed_after"] = DumpPointToJson(*d.history->earlier_fixed_after);
  }
}

}  // namespace hlolint
