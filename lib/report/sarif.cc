// sarif: SARIF 2.1.0 as GitHub code scanning accepts it. tool.driver lists
// every registered rule with its documentation; each result carries a full
// region, notes as relatedLocations and the line-independent fingerprint.
#include <map>

#include "report/dump_history.h"
#include "report/json_diagnostic.h"
#include "report/relative_path.h"
#include "report/report.h"
#include "report/text_escape.h"
#include "util/strings.h"

namespace hlolint {
namespace {

using Json = nlohmann::ordered_json;

constexpr size_t kMaxDescription = 1024;  // GitHub's limit for descriptions

std::string_view SarifLevel(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "warning";
}

// The rule page's "What it finds" section (or its first paragraph when the
// page has no such section): paragraphs kept, lines within one joined, at
// most 1024 characters, cut at a sentence or word end when it is longer.
std::string FullDescription(const RuleDescription& rule) {
  std::string_view page = rule.documentation;
  const size_t section = page.find("## What it finds");
  const bool whole_section = section != std::string_view::npos;
  if (whole_section) page.remove_prefix(section);
  std::string text;
  bool started = false, paragraph_break = false;
  for (std::string_view line : Split(page, '\n')) {
    const bool blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
    const bool heading = !line.empty() && line.front() == '#';
    const bool skip = heading || line.rfind("Category:", 0) == 0;
    if (!started) {
      if (blank || skip) continue;
      started = true;
    } else if (heading || (blank && !whole_section)) {
      break;
    }
    if (blank) {
      paragraph_break = true;
      continue;
    }
    const bool list_item = line.find_first_not_of(' ') != std::string_view::npos &&
                           (line[line.find_first_not_of(' ')] == '*' ||
                            line[line.find_first_not_of(' ')] == '-');
    if (!text.empty()) text += paragraph_break ? "\n\n" : (list_item ? "\n" : " ");
    paragraph_break = false;
    text.append(line.substr(line.find_first_not_of(' ')));
  }
  if (text.empty()) text = rule.summary;
  if (text.size() > kMaxDescription) {
    std::string_view cut = std::string_view(text).substr(0, kMaxDescription - 3);
    size_t end = cut.rfind(". ");
    if (end == std::string_view::npos || end < kMaxDescription / 2) end = cut.rfind(' ');
    if (end == std::string_view::npos) end = cut.size();
    const size_t keep = end < cut.size() && cut[end] == '.' ? end + 1 : end;
    text = StrCat(cut.substr(0, keep), "...");
  }
  return text;
}

// "reshape-not-bitcast" -> "ReshapeNotBitcast".
std::string PascalCase(std::string_view id) {
  std::string out;
  bool upper = true;
  for (char c : id) {
    if (c == '-' || c == '_') {
      upper = true;
      continue;
    }
    out.push_back(upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
    upper = false;
  }
  return out;
}

Json RuleJson(const RuleDescription& rule, const std::string& docs_url) {
  Json r;
  r["id"] = rule.id;
  r["name"] = PascalCase(rule.id);
  r["shortDescription"] = {{"text", rule.summary}};
  r["fullDescription"] = {{"text", FullDescription(rule)}};
  const std::string help = rule.documentation.empty() ? rule.summary : rule.documentation;
  r["help"] = {{"text", help}, {"markdown", help}};
  if (!docs_url.empty()) r["helpUri"] = RuleDocsUrl(docs_url, rule.id);
  r["defaultConfiguration"] = {{"level", SarifLevel(rule.default_severity)}};
  r["properties"] = {{"tags", {rule.category}}};
  return r;
}

class UriMaker {
 public:
  explicit UriMaker(const std::string& working_directory) : cwd_(working_directory) {}
  // Relative paths stay relative (to the repository root, for GitHub);
  // absolute ones under the working directory are made relative to it.
  std::string operator()(const std::string& path) const {
    return PathToUri(PathRelativeTo(path, cwd_, cwd_));
  }

 private:
  std::string cwd_;
};

Json Region(const ResolvedSpan& span) {
  Json region;
  region["startLine"] = std::max<uint32_t>(1, span.line);
  region["startColumn"] = std::max<uint32_t>(1, span.column);
  region["endLine"] = std::max(std::max<uint32_t>(1, span.line), span.end_line);
  uint32_t end_column = std::max<uint32_t>(1, span.end_column);
  if (span.end_line <= span.line) end_column = std::max(end_column, std::max<uint32_t>(1, span.column));
  region["endColumn"] = end_column;
  return region;
}

Json PhysicalLocation(const std::string& uri, const ResolvedSpan& span) {
  return {{"artifactLocation", {{"uri", uri}}}, {"region", Region(span)}};
}

}  // namespace

std::string RenderSarif(const ReportInput& input) {
  const UriMaker uri(input.working_directory);
  std::map<std::string, size_t, std::less<>> rule_index;
  Json rules = Json::array();
  for (const RuleDescription& rule : *input.rules) {
    rule_index[rule.id] = rules.size();
    rules.push_back(RuleJson(rule, input.rule_docs_url));
  }

  Json results = Json::array();
  Json notifications = Json::array();
  for (const FileResult& file : *input.files) {
    const std::string file_uri = uri(file.path);
    if (file.io_error) {
      Json n;
      n["level"] = "error";
      n["message"] = {{"text", StrCat(file.path, ": ", file.io_error_message)}};
      n["locations"] = Json::array(
          {{{"physicalLocation", {{"artifactLocation", {{"uri", file_uri}}}}}}});
      notifications.push_back(std::move(n));
    }
    std::map<std::string, uint32_t> occurrences;  // per fingerprint, within the file
    for (const Diagnostic& d : file.diagnostics) {
      Json r;
      r["ruleId"] = d.rule;
      if (auto it = rule_index.find(d.rule); it != rule_index.end()) r["ruleIndex"] = it->second;
      r["level"] = SarifLevel(d.severity);
      r["message"] = {{"text", d.message}};
      Json location;
      location["physicalLocation"] = PhysicalLocation(file_uri, d.resolved);
      if (!d.instruction.empty() || !d.computation.empty()) {
        std::string qualified = d.module;
        if (!d.computation.empty()) qualified += StrCat("/", d.computation);
        if (!d.instruction.empty()) qualified += StrCat("/", d.instruction);
        location["logicalLocations"] = Json::array(
            {{{"name", d.instruction.empty() ? d.computation : d.instruction},
              {"fullyQualifiedName", qualified}}});
      }
      // Json::array: a one-element brace list is a copy, not an array, for clang.
      r["locations"] = Json::array({location});
      Json related = Json::array();
      for (const DiagnosticNote& note : d.notes) {
        Json n;
        n["id"] = related.size() + 1;
        if (note.span) n["physicalLocation"] = PhysicalLocation(file_uri, note.resolved);
        n["message"] = {{"text", note.message}};
        related.push_back(std::move(n));
      }
      if (d.source) {
        Json n;
        n["id"] = related.size() + 1;
        Json physical;
        physical["artifactLocation"] = {{"uri", PathToUri(d.source->file)}};
        if (d.source->line > 0) physical["region"] = {{"startLine", d.source->line}};
        n["physicalLocation"] = std::move(physical);
        std::string text = "the op comes from here (metadata source_file/source_line)";
        if (!d.op_name.empty()) text = StrCat("op_name \"", d.op_name, "\" comes from here");
        n["message"] = {{"text", text}};
        related.push_back(std::move(n));
      }
      if (!related.empty()) r["relatedLocations"] = std::move(related);
      const uint32_t occurrence = ++occurrences[d.fingerprint];
      r["partialFingerprints"] = {
          {"hlolint/v1", d.fingerprint},
          // GitHub tracks alerts by this key; ours survives renumbered names
          // and shifted lines, unlike a hash of the line's text.
          {"primaryLocationLineHash", StrCat(d.fingerprint, ":", occurrence)}};
      Json properties = Json::object();
      if (!d.fix.empty()) properties["fix"] = d.fix;
      AddDumpFields(file, d, properties);  // dump, first_seen, last_seen, fixed_after, ...
      if (!properties.empty()) r["properties"] = std::move(properties);
      results.push_back(std::move(r));
    }
  }

  Json driver;
  driver["name"] = "hlolint";
  driver["version"] = input.tool_version;
  driver["semanticVersion"] = input.tool_version;
  if (!input.rule_docs_url.empty()) driver["informationUri"] = DocsHomeUrl(input.rule_docs_url);
  driver["rules"] = std::move(rules);

  Json invocation;
  invocation["executionSuccessful"] = notifications.empty();
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = std::move(notifications);

  Json run;
  run["tool"] = {{"driver", std::move(driver)}};
  run["invocations"] = Json::array({std::move(invocation)});
  run["columnKind"] = "utf16CodeUnits";
  run["results"] = std::move(results);

  Json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = Json::array({std::move(run)});
  return DumpJson(log, 2) + "\n";
}

}  // namespace hlolint
