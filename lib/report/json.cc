// json: one document with the files, every diagnostic and a summary. Fields
// may be added in later versions but are never renamed or removed (tools
// such as corpus-check read rule, severity, file, line and column).
#include "report/dump_history.h"
#include "report/json_diagnostic.h"
#include "report/report.h"

namespace hlolint {

std::string RenderJson(const ReportInput& input) {
  nlohmann::ordered_json doc;
  doc["version"] = 1;
  doc["tool"] = {{"name", "hlolint"}, {"version", input.tool_version}};
  doc["files"] = nlohmann::ordered_json::array();
  doc["diagnostics"] = nlohmann::ordered_json::array();
  for (const FileResult& file : *input.files) {
    nlohmann::ordered_json f;
    f["path"] = file.path;
    f["modules"] = file.modules;
    f["computations"] = file.computations;
    f["instructions"] = file.instructions;
    f["bytes"] = file.bytes;
    if (file.io_error) f["error"] = file.io_error_message;
    if (file.dump) f["dump"] = DumpContextToJson(*file.dump);
    doc["files"].push_back(std::move(f));
    for (const Diagnostic& d : file.diagnostics) {
      doc["diagnostics"].push_back(DiagnosticToJson(file, d));
    }
  }
  const Summary s = Summarize(*input.files);
  nlohmann::ordered_json summary;
  summary["files"] = s.files;
  summary["modules"] = s.modules;
  summary["computations"] = s.computations;
  summary["instructions"] = s.instructions;
  summary["errors"] = s.errors;
  summary["warnings"] = s.warnings;
  summary["notes"] = s.notes;
  summary["suppressed"] = s.suppressed;
  summary["baselined"] = input.baselined;
  summary["stale_baseline"] = input.stale_baseline;
  summary["unreadable"] = s.unreadable_files;
  doc["summary"] = std::move(summary);
  return DumpJson(doc, 2) + "\n";
}

}  // namespace hlolint
