// full: clang/rustc-style diagnostics for people: the location line, the
// source line with the span underlined, notes, the op's program source from
// metadata, the fix hint, and a summary line.
#include <algorithm>

#include "report/dump_history.h"
#include "report/report.h"
#include "report/text_escape.h"
#include "util/strings.h"

namespace hlolint {
namespace {

struct Palette {
  std::string_view bold, reset, error, warning, note, caret, gutter;
};

constexpr Palette kPlain{"", "", "", "", "", "", ""};
constexpr Palette kAnsi{"\x1b[1m",    "\x1b[0m",    "\x1b[1;31m", "\x1b[1;35m",
                        "\x1b[1;36m", "\x1b[1;32m", "\x1b[1;34m"};

std::string_view SeverityColor(const Palette& p, Severity severity) {
  switch (severity) {
    case Severity::kError: return p.error;
    case Severity::kWarning: return p.warning;
    case Severity::kNote: return p.note;
  }
  return p.error;
}

// The source line with its span underlined: "^" under the first byte, "~"
// under the rest of the span on that line.
void AppendSnippet(const Diagnostic& d, const Palette& p, std::string* out) {
  std::string_view line = d.source_line;
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  const std::string number = StrCat(d.resolved.line);
  const std::string pad(number.size(), ' ');
  // The line as a terminal can show it; the caret goes under characters,
  // not bytes.
  std::vector<uint32_t> starts;
  const std::string shown = TerminalText(line, &starts);
  *out += StrCat(" ", p.gutter, number, " |", p.reset, " ", shown, "\n");

  const size_t column = d.resolved.column > 0 ? d.resolved.column - 1 : 0;
  size_t start = column >= d.source_line_offset ? column - d.source_line_offset : 0;
  start = std::min(start, line.size());
  size_t width = 1;
  if (d.resolved.end_line == d.resolved.line && d.resolved.end_column > d.resolved.column) {
    width = d.resolved.end_column - d.resolved.column;
  } else if (d.resolved.end_line > d.resolved.line && line.size() > start) {
    width = line.size() - start;
  }
  width = std::max<size_t>(1, std::min(width, line.size() > start ? line.size() - start : 1));
  // In characters: the span's bytes [start, start + width) of the line.
  const auto char_at = [&](size_t byte) -> size_t {
    if (byte < starts.size()) return starts[byte];
    return starts.empty() ? byte : starts.back() + 1 + (byte - starts.size());
  };
  const size_t end_char = char_at(start + width - 1) + 1;
  const size_t start_char = char_at(start);
  width = std::max<size_t>(1, end_char - start_char);
  // Keep tabs so the caret lines up with the text above it.
  std::string indent;
  for (size_t i = 0; i < start; ++i) {
    if (line[i] == '\t') {
      indent.push_back('\t');
    } else if (i == 0 || starts[i] != starts[i - 1]) {
      indent.push_back(' ');
    }
  }
  *out += StrCat(" ", p.gutter, pad, " |", p.reset, " ", indent, p.caret, "^",
                 std::string(width - 1, '~'), p.reset, "\n");
}

// Text from the file (messages quote it) as a terminal can show it, keeping
// the line breaks a message may have.
std::string Shown(std::string_view text) {
  std::string out;
  size_t begin = 0;
  while (true) {
    const size_t nl = text.find('\n', begin);
    out += TerminalText(text.substr(begin, nl == std::string_view::npos ? nl : nl - begin));
    if (nl == std::string_view::npos) return out;
    out += '\n';
    begin = nl + 1;
  }
}

}  // namespace

std::string RenderFull(const ReportInput& input) {
  const Palette& p = input.color ? kAnsi : kPlain;
  std::string out;
  // The files of a dump sequence come together; a sequence with something
  // to show gets a heading before its first diagnostic.
  const DumpSequenceInfo* headed = nullptr;
  for (const FileResult& file : *input.files) {
    for (const Diagnostic& d : file.diagnostics) {
      if (file.sequence != nullptr && file.sequence.get() != headed) {
        headed = file.sequence.get();
        out += StrCat(p.bold, "== ", SequenceHeadline(*headed), " ==", p.reset, "\n\n");
      }
      out += StrCat(p.bold, file.path, ":", d.resolved.line, ":", d.resolved.column, ":",
                    p.reset, " ", SeverityColor(p, d.severity), SeverityName(d.severity), ":",
                    p.reset, " ", p.bold, Shown(d.message), p.reset, " [", d.rule,
                    "]\n");
      if (d.resolved.line > 0) AppendSnippet(d, p, &out);
      for (const DiagnosticNote& note : d.notes) {
        if (note.span) {
          out += StrCat(p.bold, file.path, ":", note.resolved.line, ":", note.resolved.column,
                        ":", p.reset, " ", p.note, "note:", p.reset, " ",
                        Shown(note.message), "\n");
        } else {
          out += StrCat(p.note, "note:", p.reset, " ", Shown(note.message), "\n");
        }
      }
      if (d.source) {
        out += StrCat("  = source: ", Shown(d.source->file), ":", d.source->line);
        if (!d.op_name.empty()) out += StrCat(" (op_name \"", Shown(d.op_name), "\")");
        out += "\n";
      }
      for (const std::string& line : DumpHistoryLines(file, d)) {
        out += StrCat("  = ", Shown(line), "\n");
      }
      if (!d.fix.empty()) out += StrCat("  = help: ", Shown(d.fix), "\n");
      out += "\n";
    }
  }
  if (!input.quiet) {
    const Summary s = Summarize(*input.files);
    std::string line = s.errors + s.warnings + s.notes == 0
                           ? StrCat("No problems found")
                           : StrCat("Found ", CountsText(s));
    line += StrCat(" in ", s.files, s.files == 1 ? " file" : " files", " (", s.modules,
                   s.modules == 1 ? " module" : " modules", ", ", s.instructions,
                   s.instructions == 1 ? " instruction" : " instructions", ")");
    if (s.suppressed > 0) line += StrCat("; ", s.suppressed, " suppressed inline");
    if (input.baselined > 0) line += StrCat("; ", input.baselined, " in the baseline");
    uint64_t repeats = 0;
    for (const FileResult& file : *input.files) repeats += file.repeats_not_reported;
    if (repeats > 0) {
      line += StrCat("; ", repeats, repeats == 1 ? " repeat" : " repeats",
                     " in later dumps not shown (--every-dump)");
    }
    out += StrCat(p.bold, line, ".", p.reset, "\n");
  }
  return out;
}

}  // namespace hlolint
