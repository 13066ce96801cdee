// full: clang/rustc-style diagnostics for people: the location line, the
// source line with the span underlined, notes, the op's program source from
// metadata, the fix hint, and a summary line.
#include <algorithm>

#include "report/dump_history.h"
#include "report/palette.h"
#include "report/report.h"
#include "report/text_escape.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// The byte offset in `text` (UTF-8) of each character, and text.size() last.
std::vector<size_t> CharacterOffsets(std::string_view text) {
  std::vector<size_t> offsets;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) offsets.push_back(i);
  }
  offsets.push_back(text.size());
  return offsets;
}

// One source line with a span underlined: "^" under its first character,
// "~" under the rest of it on that line, then the span's label. A line wider
// than the report is clipped around the span, "…" marking each cut side, so
// that the caret stays next to its code (dumps have lines of thousands of
// characters).
struct Snippet {
  uint32_t line_number = 0;
  const SourceExcerpt* excerpt = nullptr;
  ResolvedSpan span;
  std::string_view label;
  std::string_view caret_color;
};

void AppendSnippet(const Snippet& snippet, const Palette& p, uint32_t width, std::string* out) {
  const std::string_view line = snippet.excerpt->text;
  const ResolvedSpan& at = snippet.span;
  const std::string number = StrCat(snippet.line_number);
  const std::string pad(number.size(), ' ');
  // The line as a terminal can show it; the caret goes under characters,
  // not bytes.
  std::vector<uint32_t> starts;
  const std::string shown = TerminalText(line, &starts);
  const std::vector<size_t> chars = CharacterOffsets(shown);
  const size_t total = chars.size() - 1;

  const size_t column = at.column > 0 ? at.column - 1 : 0;
  size_t start = column >= snippet.excerpt->offset ? column - snippet.excerpt->offset : 0;
  start = std::min(start, line.size());
  size_t span_bytes = 1;
  if (at.end_line == at.line && at.end_column > at.column) {
    span_bytes = at.end_column - at.column;
  } else if (at.end_line > at.line && line.size() > start) {
    span_bytes = line.size() - start;
  }
  span_bytes = std::max<size_t>(1, std::min(span_bytes, line.size() > start ? line.size() - start : 1));
  const auto char_at = [&](size_t byte) -> size_t {
    if (byte < starts.size()) return starts[byte];
    return starts.empty() ? byte : starts.back() + 1 + (byte - starts.size());
  };
  const size_t start_char = std::min(char_at(start), total);
  const size_t end_char = std::max(start_char + 1, char_at(start + span_bytes - 1) + 1);

  // The window [first, last) of characters shown.
  const size_t room = width > number.size() + 4 ? width - number.size() - 4 : 1;
  size_t first = 0;
  size_t last = total;
  bool cut_before = snippet.excerpt->clipped_before;
  bool cut_after = snippet.excerpt->clipped_after;
  if (total > room || cut_before || cut_after) {
    const size_t budget = room > 12 ? room - 2 : 10;  // the two "…"
    if (total > budget) {
      const size_t context = budget / 3;  // code shown before the span
      first = start_char > context ? start_char - context : 0;
      last = std::min(total, first + budget);
      if (last - first < budget) first = last > budget ? last - budget : 0;
    }
    cut_before = cut_before || first > 0;
    cut_after = cut_after || last < total;
  }
  constexpr std::string_view kEllipsis = "\u2026";
  *out += StrCat(" ", p.gutter, number, " |", p.reset, " ", cut_before ? kEllipsis : "",
                 std::string_view(shown).substr(chars[first], chars[last] - chars[first]),
                 cut_after ? kEllipsis : "", "\n");

  // Keep tabs so the caret lines up with the text above it.
  std::string indent(cut_before ? 1 : 0, ' ');
  for (size_t c = first; c < start_char && c < last; ++c) {
    indent.push_back(shown[chars[c]] == '\t' ? '\t' : ' ');
  }
  const size_t underline = std::max<size_t>(1, std::min(end_char, last) - std::min(start_char, last));
  *out += StrCat(" ", p.gutter, pad, " |", p.reset, " ", indent, snippet.caret_color, "^",
                 std::string(underline - 1, '~'), snippet.label.empty() ? "" : " ",
                 TerminalText(OneLine(snippet.label)), p.reset, "\n");
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
  const Palette& p = input.color ? kAnsiPalette : kPlainPalette;
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
      // The headline: location, severity, what is wrong. Then the evidence
      // with its source lines, the reasons, and the fix, said once.
      out += StrCat(p.bold, file.path, ":", d.resolved.line, ":", d.resolved.column, ":",
                    p.reset, " ", SeverityColor(p, d.severity), SeverityName(d.severity), ":",
                    p.reset, " ", p.bold, Shown(d.message), p.reset, " [", d.rule, "]\n");
      const SourceExcerpt primary{d.source_line, d.source_line_offset,
                                  d.source_line_offset > 0, d.source_line_clipped_after};
      if (d.resolved.line > 0) {
        AppendSnippet({d.resolved.line, &primary, d.resolved, d.label, p.caret}, p, input.width,
                      &out);
      }
      for (const DiagnosticNote& note : d.notes) {
        if (!note.span) continue;
        out += StrCat(p.bold, file.path, ":", note.resolved.line, ":", note.resolved.column,
                      ":", p.reset, " ", p.note, "note:", p.reset, " ", Shown(note.message),
                      "\n");
        if (note.resolved.line > 0) {
          AppendSnippet({note.resolved.line, &note.excerpt, note.resolved, "", p.note}, p,
                        input.width, &out);
        }
      }
      for (const DiagnosticNote& note : d.notes) {
        if (!note.span) out += StrCat("  = ", p.bold, "note", p.reset, ": ", Shown(note.message), "\n");
      }
      if (d.source) {
        out += StrCat("  = source: ", Shown(d.source->file), ":", d.source->line);
        if (!d.op_name.empty()) out += StrCat(" (op_name \"", Shown(d.op_name), "\")");
        out += "\n";
      }
      for (const std::string& line : DumpHistoryLines(file, d)) {
        out += StrCat("  = ", Shown(line), "\n");
      }
      if (!d.fix.empty()) out += StrCat("  = ", p.bold, "help", p.reset, ": ", Shown(d.fix), "\n");
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
