// github: GitHub Actions workflow commands, which GitHub turns into
// annotations on the pull request:
//   ::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=hlolint (rule)::message
// GitHub shows at most 10 annotations of each severity per step and drops
// the rest silently, so a summary line says when that happens.
#include <array>

#include "report/dump_history.h"
#include "report/relative_path.h"
#include "report/report.h"
#include "util/strings.h"

namespace hlolint {
namespace {

constexpr uint64_t kAnnotationLimit = 10;

// Escaping of @actions/core: data escapes %, CR and LF; property values
// also ':' and ','.
std::string EscapeData(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string EscapeProperty(std::string_view text) {
  std::string out;
  for (char c : EscapeData(text)) {
    switch (c) {
      case ':': out += "%3A"; break;
      case ',': out += "%2C"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string_view Command(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "notice";
  }
  return "error";
}

}  // namespace

std::string RenderGithub(const ReportInput& input) {
  std::string out;
  std::array<uint64_t, 3> per_severity{};  // by Severity value
  const std::string& base = input.workspace.empty() ? input.working_directory : input.workspace;
  for (const FileResult& file : *input.files) {
    // GitHub places annotations by the path from the checkout's root.
    const std::string path = PathRelativeTo(file.path, base, input.working_directory);
    if (file.io_error) {
      ++per_severity[static_cast<size_t>(Severity::kError)];
      out += StrCat("::error file=", EscapeProperty(path), ",title=",
                    EscapeProperty("hlolint (unreadable file)"), "::",
                    EscapeData(StrCat(path, ": ", file.io_error_message)), "\n");
    }
    for (const Diagnostic& d : file.diagnostics) {
      ++per_severity[static_cast<size_t>(d.severity)];
      std::string message = d.message;
      for (const DiagnosticNote& note : d.notes) {
        message += note.span ? StrCat("\nnote: ", path, ":", note.resolved.line, ":",
                                      note.resolved.column, ": ", note.message)
                             : StrCat("\nnote: ", note.message);
      }
      for (const std::string& line : DumpHistoryLines(file, d)) message += StrCat("\nnote: ", line);
      if (d.source) message += StrCat("\nsource: ", d.source->file, ":", d.source->line);
      if (!d.fix.empty()) message += StrCat("\nhelp: ", d.fix);
      out += StrCat("::", Command(d.severity), " file=", EscapeProperty(path),
                    ",line=", d.resolved.line, ",col=", d.resolved.column,
                    ",endLine=", d.resolved.end_line, ",endColumn=", d.resolved.end_column,
                    ",title=", EscapeProperty(StrCat("hlolint (", d.rule, ")")),
                    "::", EscapeData(message), "\n");
    }
  }
  const Summary s = Summarize(*input.files);
  out += StrCat("hlolint: ", CountsText(s), " in ", s.files, s.files == 1 ? " file" : " files");
  if (input.baselined > 0) out += StrCat(" (", input.baselined, " more in the baseline)");
  out += "\n";
  constexpr std::array<Severity, 3> kOrder = {Severity::kError, Severity::kWarning,
                                              Severity::kNote};
  for (Severity severity : kOrder) {
    const uint64_t count = per_severity[static_cast<size_t>(severity)];
    if (count > kAnnotationLimit) {
      out += StrCat("hlolint: ", count, " ", Command(severity),
                    " annotations, but GitHub shows only ", kAnnotationLimit,
                    " per severity and step; the rest are dropped. Upload SARIF "
                    "(--format sarif) to code scanning to see them all.\n");
    }
  }
  return out;
}

}  // namespace hlolint
