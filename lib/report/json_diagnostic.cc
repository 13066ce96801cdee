#include "report/json_diagnostic.h"

#include "report/dump_history.h"

namespace hlolint {

nlohmann::ordered_json DiagnosticToJson(const FileResult& file, const Diagnostic& d) {
  nlohmann::ordered_json j;
  j["rule"] = d.rule;
  j["severity"] = std::string(SeverityName(d.severity));
  j["message"] = d.message;
  j["file"] = file.path;
  j["line"] = d.resolved.line;
  j["column"] = d.resolved.column;
  j["end_line"] = d.resolved.end_line;
  j["end_column"] = d.resolved.end_column;
  if (!d.label.empty()) j["label"] = d.label;
  j["module"] = d.module;
  j["computation"] = d.computation;
  j["instruction"] = d.instruction;
  if (!d.op_name.empty()) j["op_name"] = d.op_name;
  j["notes"] = nlohmann::ordered_json::array();
  for (const DiagnosticNote& note : d.notes) {
    nlohmann::ordered_json n;
    n["message"] = note.message;
    if (note.span) {
      n["file"] = file.path;
      n["line"] = note.resolved.line;
      n["column"] = note.resolved.column;
      n["end_line"] = note.resolved.end_line;
      n["end_column"] = note.resolved.end_column;
    }
    j["notes"].push_back(std::move(n));
  }
  if (d.source) j["source"] = {{"file", d.source->file}, {"line", d.source->line}};
  j["fingerprint"] = d.fingerprint;
  if (!d.fix.empty()) j["fix"] = d.fix;
  AddDumpFields(file, d, j);
  return j;
}

std::string DumpJson(const nlohmann::ordered_json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace hlolint
