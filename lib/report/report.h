// Output formats. Every reporter renders the same input (the FileResults of
// one run plus what it needs to know about the rules) into text; the CLI
// decides where the text goes. docs/output-formats.md describes each format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "engine/lint.h"

namespace hlolint {

enum class Format : uint8_t { kFull, kConcise, kJson, kJsonLines, kSarif, kGithub, kJunit };

std::optional<Format> FormatFromName(std::string_view name);
std::string_view FormatName(Format format);
// Names in the order --help lists them.
const std::vector<std::string_view>& FormatNames();
// Formats meant for people (a summary line, colour); the others are parsed
// by programs and carry nothing but their document.
bool IsHumanFormat(Format format);

// What reporters know about a rule (SARIF lists every registered rule).
struct RuleDescription {
  std::string id;
  std::string category;
  Severity default_severity = Severity::kError;
  std::string summary;
  std::string documentation;  // the docs/rules/<id>.md page; may be empty
};

struct ReportInput {
  const std::vector<FileResult>* files = nullptr;
  // Per file (same order as `files`): the level at or above which a finding
  // fails the run. Empty: kError for every file.
  std::vector<Severity> fail_on;
  const std::vector<RuleDescription>* rules = nullptr;  // every registered rule
  std::string tool_version;
  std::string working_directory;  // absolute; SARIF makes absolute paths relative to it
  // Absolute; github makes paths relative to it ($GITHUB_WORKSPACE, the
  // checkout's root). Empty: the working directory.
  std::string workspace;
  // A documentation URL with "{rule}" for the rule id (--rule-docs-url):
  // SARIF's rule helpUri and tool informationUri. Empty: none.
  std::string rule_docs_url;
  bool color = false;             // full and concise formats
  uint32_t width = 100;           // full format: terminal columns to fit source lines to
  bool quiet = false;             // human formats: no summary line
  uint64_t baselined = 0;         // findings hidden by --baseline (for summaries)
  uint64_t stale_baseline = 0;    // --baseline entries that match no finding any more

  Severity FailOn(size_t file_index) const {
    return file_index < fail_on.size() ? fail_on[file_index] : Severity::kError;
  }
};

struct Summary {
  uint64_t files = 0;
  uint64_t unreadable_files = 0;
  uint64_t modules = 0;
  uint64_t computations = 0;
  uint64_t instructions = 0;
  uint64_t bytes = 0;
  uint64_t errors = 0;
  uint64_t warnings = 0;
  uint64_t notes = 0;
  uint64_t suppressed = 0;
};

Summary Summarize(const std::vector<FileResult>& files);
// "2 errors, 1 warning" style counts ("no problems" when there are none).
std::string CountsText(const Summary& summary);

// The documentation URL of `rule`: `pattern` with every "{rule}" replaced.
std::string RuleDocsUrl(std::string_view pattern, std::string_view rule);
// The documentation's home for `pattern`: what precedes the first "{rule}",
// up to its last '/' ("https://x/rules/{rule}.md" -> "https://x/rules/"), or
// the whole pattern when it has no "{rule}".
std::string DocsHomeUrl(std::string_view pattern);

// Renders the whole report.
std::string Render(Format format, const ReportInput& input);

std::string RenderFull(const ReportInput& input);
std::string RenderConcise(const ReportInput& input);
std::string RenderJson(const ReportInput& input);
std::string RenderJsonLines(const ReportInput& input);
std::string RenderSarif(const ReportInput& input);
std::string RenderGithub(const ReportInput& input);
std::string RenderJunit(const ReportInput& input);

}  // namespace hlolint
