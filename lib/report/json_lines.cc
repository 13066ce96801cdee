// json-lines: one diagnostic object per line (the objects of the json
// format's "diagnostics" array), for streaming consumers and grep.
#include "report/json_diagnostic.h"
#include "report/report.h"

namespace hlolint {

std::string RenderJsonLines(const ReportInput& input) {
  std::string out;
  for (const FileResult& file : *input.files) {
    for (const Diagnostic& d : file.diagnostics) {
      out += DumpJson(DiagnosticToJson(file, d), -1);
      out += "\n";
    }
  }
  return out;
}

}  // namespace hlolint
