#include "report/report.h"

#include "util/strings.h"

namespace hlolint {
namespace {

struct FormatEntry {
  Format format;
  std::string_view name;
};

constexpr FormatEntry kFormats[] = {
    {Format::kFull, "full"},     {Format::kConcise, "concise"}, {Format::kJson, "json"},
    {Format::kJsonLines, "json-lines"}, {Format::kSarif, "sarif"}, {Format::kGithub, "github"},
    {Format::kJunit, "junit"},
};

std::string Plural(uint64_t n, std::string_view word) {
  return StrCat(n, " ", word, n == 1 ? "" : "s");
}

}  // namespace

std::optional<Format> FormatFromName(std::string_view name) {
  for (const FormatEntry& entry : kFormats) {
    if (entry.name == name) return entry.format;
  }
  return std::nullopt;
}

std::string_view FormatName(Format format) {
  for (const FormatEntry& entry : kFormats) {
    if (entry.format == format) return entry.name;
  }
  return "concise";
}

const std::vector<std::string_view>& FormatNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const FormatEntry& entry : kFormats) all.push_back(entry.name);
    return all;
  }();
  return names;
}

bool IsHumanFormat(Format format) { return format == Format::kFull || format == Format::kConcise; }

Summary Summarize(const std::vector<FileResult>& files) {
  Summary s;
  for (const FileResult& file : files) {
    ++s.files;
    if (file.io_error) ++s.unreadable_files;
    s.modules += file.modules;
    s.computations += file.computations;
    s.instructions += file.instructions;
    s.bytes += file.bytes;
    s.suppressed += file.suppressed;
    for (const Diagnostic& d : file.diagnostics) {
      switch (d.severity) {
        case Severity::kError: ++s.errors; break;
        case Severity::kWarning: ++s.warnings; break;
        case Severity::kNote: ++s.notes; break;
      }
    }
  }
  return s;
}

std::string CountsText(const Summary& s) {
  std::vector<std::string> parts;
  if (s.errors > 0) parts.push_back(Plural(s.errors, "error"));
  if (s.warnings > 0) parts.push_back(Plural(s.warnings, "warning"));
  if (s.notes > 0) parts.push_back(Plural(s.notes, "note"));
  if (parts.empty()) return "no problems";
  return StrJoin(parts, ", ");
}

std::string RuleDocsUrl(std::string_view pattern, std::string_view rule) {
  std::string url(pattern);
  for (size_t at = url.find("{rule}"); at != std::string::npos; at = url.find("{rule}", at)) {
    url.replace(at, 6, rule);
    at += rule.size();
  }
  return url;
}

std::string DocsHomeUrl(std::string_view pattern) {
  const size_t rule = pattern.find("{rule}");
  if (rule == std::string_view::npos) return std::string(pattern);
  const size_t slash = pattern.rfind('/', rule);
  return std::string(pattern.substr(0, slash == std::string_view::npos ? rule : slash + 1));
}

std::string Render(Format format, const ReportInput& input) {
  switch (format) {
    case Format::kFull: return RenderFull(input);
    case Format::kConcise: return RenderConcise(input);
    case Format::kJson: return RenderJson(input);
    case Format::kJsonLines: return RenderJsonLines(input);
    case Format::kSarif: return RenderSarif(input);
    case Format::kGithub: return RenderGithub(input);
    case Format::kJunit: return RenderJunit(input);
  }
  return RenderConcise(input);
}

}  // namespace hlolint
