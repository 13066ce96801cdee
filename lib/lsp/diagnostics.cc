#include "lsp/diagnostics.h"

#include "lsp/positions.h"
#include "report/report.h"

namespace hlolint::lsp {
namespace {

// LSP's DiagnosticSeverity: 1 error, 2 warning, 3 information.
int LspSeverity(api::Severity severity) {
  switch (severity) {
    case api::Severity::kError:
      return 1;
    case api::Severity::kWarning:
      return 2;
    case api::Severity::kNote:
      return 3;
  }
  return 1;
}

nlohmann::json RelatedInformation(const std::string& uri, std::string_view text,
                                  const api::Diagnostic& diagnostic) {
  nlohmann::json related = nlohmann::json::array();
  for (const api::Note& note : diagnostic.notes) {
    // LSP's relatedInformation needs a location; unlocated notes go to the message.
    if (!note.location) continue;
    const bool in_document = note.location->path == diagnostic.location.path;
    related.push_back(
        {{"location",
          {{"uri", in_document ? uri : UriFromPath(note.location->path)},
           {"range", RangeIn(in_document ? text : std::string_view(), *note.location)}}},
         {"message", note.message}});
  }
  return related;
}

std::string MessageWithUnlocatedNotes(const api::Diagnostic& diagnostic) {
  std::string message = diagnostic.message;
  for (const api::Note& note : diagnostic.notes) {
    if (!note.location) message += "\nnote: " + note.message;
  }
  return message;
}

}  // namespace

nlohmann::json PublishDiagnosticsParams(const std::string& uri, std::optional<int64_t> version,
                                        std::string_view text, const api::LintResult& result,
                                        const std::string& rule_docs_url) {
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const api::Diagnostic& d : result.diagnostics) {
    nlohmann::json lsp_diagnostic = {{"range", RangeIn(text, d.location)},
                                     {"severity", LspSeverity(d.severity)},
                                     {"code", d.rule},
                                     {"source", "hlolint"},
                                     {"message", MessageWithUnlocatedNotes(d)}};
    if (!rule_docs_url.empty()) {
      lsp_diagnostic["codeDescription"] = {{"href", RuleDocsUrl(rule_docs_url, d.rule)}};
    }
    nlohmann::json related = RelatedInformation(uri, text, d);
    if (!related.empty()) lsp_diagnostic["relatedInformation"] = std::move(related);
    // The fix hint rides in `data`; hover shows it beside the rule.
    if (!d.fix.empty()) lsp_diagnostic["data"] = {{"fix", d.fix}};
    diagnostics.push_back(std::move(lsp_diagnostic));
  }
  nlohmann::json params = {{"uri", uri}, {"diagnostics", std::move(diagnostics)}};
  if (version) params["version"] = *version;
  return params;
}

}  // namespace hlolint::lsp
