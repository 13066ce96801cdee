#include "lsp/code_actions.h"

#include <set>
#include <string>

#include "lsp/positions.h"

namespace hlolint::lsp {
namespace {

// What the inserted comment says until its author writes why.
constexpr std::string_view kReasonPlaceholder = "TODO: why this finding is expected here";

struct LineRange {
  uint32_t first = 0;  // 1-based, as api::Location
  uint32_t last = 0;
};

std::optional<LineRange> RequestLines(const nlohmann::json& params) {
  const auto range = params.find("range");
  if (range == params.end() || !range->is_object()) return std::nullopt;
  const std::optional<uint32_t> start = LspLine(range->value("start", nlohmann::json()));
  const std::optional<uint32_t> end = LspLine(range->value("end", nlohmann::json()));
  if (!start || !end) return std::nullopt;
  return LineRange{*start + 1, std::max(*start, *end) + 1};
}

std::string_view Indentation(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return line.substr(0, n);
}

nlohmann::json SuppressAction(const Document& document, const api::Diagnostic& finding) {
  const uint32_t line = finding.location.line;
  const std::string comment = std::string(Indentation(document.module().Line(line))) +
                              "// hlolint: ignore[" + finding.rule + "] " +
                              std::string(kReasonPlaceholder) + "\n";
  const nlohmann::json at_line_start = {{"line", line - 1}, {"character", 0}};
  nlohmann::json edit = {{"range", {{"start", at_line_start}, {"end", at_line_start}}},
                         {"newText", comment}};
  return {{"title", "Suppress " + finding.rule + " on this line"},
          {"kind", "quickfix"},
          {"edit", {{"changes", {{document.uri(), nlohmann::json::array({edit})}}}}}};
}

nlohmann::json ApplyFixAction(const Document& document, const api::Diagnostic& finding) {
  const api::TextEdit& fix = *finding.edit;
  nlohmann::json edit = {{"range", RangeIn(document.module().text(), fix.location)},
                         {"newText", fix.new_text}};
  return {{"title", "Fix: " + finding.fix},
          {"kind", "quickfix"},
          {"isPreferred", true},
          {"edit", {{"changes", {{document.uri(), nlohmann::json::array({edit})}}}}}};
}

}  // namespace

nlohmann::json CodeActions(const Document& document, const nlohmann::json& params) {
  nlohmann::json actions = nlohmann::json::array();
  const std::optional<LineRange> lines = RequestLines(params);
  if (!lines || document.needs_lint()) return actions;
  // One action per rule and line: two findings of a rule on a line share it.
  std::set<std::pair<uint32_t, std::string>> offered;
  for (const api::Diagnostic& finding : document.findings().diagnostics) {
    const uint32_t line = finding.location.line;
    if (line == 0 || line < lines->first || line > lines->last) continue;
    if (finding.edit) actions.push_back(ApplyFixAction(document, finding));
    // Silencing an unused suppression with another would be absurd.
    if (finding.rule == "unused-suppression") continue;
    if (!offered.insert({line, finding.rule}).second) continue;
    actions.push_back(SuppressAction(document, finding));
  }
  return actions;
}

}  // namespace hlolint::lsp
