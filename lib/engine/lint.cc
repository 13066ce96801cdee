#include "engine/lint.h"

#include <algorithm>

#include "analysis/analyses.h"
#include "parse/parser.h"

namespace hlolint {
namespace {

bool Selected(const LintOptions& options, std::string_view id) {
  for (const Rule* rule : options.rules) {
    if (rule->info().id == id) return true;
  }
  return false;
}

void ReportParseFailure(const SourceFile& file, const ParsedModule& parsed,
                        const LintOptions& options, std::vector<Diagnostic>* out) {
  const std::string_view rule = parsed.unsupported_format ? "unsupported-format" : "parse-error";
  if (!Selected(options, rule)) return;
  Diagnostic d;
  d.rule = std::string(rule);
  d.severity = parsed.unsupported_format ? Severity::kWarning : Severity::kError;
  d.message = parsed.error->message;
  d.span = {parsed.error->offset, parsed.error->offset};
  d.module = parsed.name;
  if (parsed.error_note) {
    d.notes.push_back({parsed.error_note->message,
                       SourceSpan{parsed.error_note->offset, parsed.error_note->offset},
                       {}});
  }
  out->push_back(std::move(d));
  (void)file;
}

}  // namespace

FileResult LintSource(const SourceFile& file, const LintOptions& options) {
  FileResult result;
  result.path = file.path();
  result.bytes = file.size();
  static const nlohmann::json kNoOptions = nlohmann::json::object();
  std::vector<Diagnostic>& diagnostics = result.diagnostics;
  ParseModules(
      file,
      [&](ParsedModule&& parsed) {
        ++result.modules;
        result.computations += parsed.computation_count;
        result.instructions += parsed.instruction_count;
        if (parsed.error) {
          ReportParseFailure(file, parsed, options, &diagnostics);
          return;
        }
        Analyses analyses(*parsed.module);
        for (const Rule* rule : options.rules) {
          const std::string id(rule->info().id);
          const nlohmann::json& rule_options =
              options.rule_options.contains(id) ? options.rule_options.at(id) : kNoOptions;
          RuleContext ctx(*parsed.module, analyses, *rule, rule_options, options.dump,
                          &diagnostics);
          rule->Check(ctx);
        }
      },
      options.limits);
  for (Diagnostic& d : diagnostics) {
    auto it = options.severity_overrides.find(d.rule);
    if (it != options.severity_overrides.end()) d.severity = it->second;
    Resolve(file, d);
  }
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     if (a.span.begin != b.span.begin) return a.span.begin < b.span.begin;
                     return a.rule < b.rule;
                   });
  return result;
}

FileResult LintFile(const std::string& path, const std::string& display_path,
                    const LintOptions& options) {
  auto file = SourceFile::Open(path, display_path);
  if (!file.ok()) {
    FileResult result;
    result.path = display_path;
    result.io_error = true;
    result.io_error_message = std::string(file.status().message());
    return result;
  }
  return LintSource(**file, options);
}

}  // namespace hlolint
