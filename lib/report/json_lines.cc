// json-lines: one diagnostic object per line (the objects of the json
// format's "diagnostics" array), for streaming consumers and grep; a file
// that could not be read is a line {"file": ..., "error": ...}.
#include "report/json_diagnostic.h"
#include "report/report.h"

namespace hlolint {

std::string RenderJsonLines(const ReportInput& input) {
  std::string out;
  for (const FileResult& file : *input.files) {
    if (file.io_error) {
      nlohmann::ordered_json record;
      record["file"] = file.path;
      record["error"] = file.io_error_message;
      out += DumpJson(record, -1);
      out += "\n";
    }
    for (const Diagnostic& d : file.diagnostics) {
      out += DumpJson(DiagnosticToJson(file, d), -1);
      out += "\n";
    }
  }
  return out;
}

}  // namespace hlolint
