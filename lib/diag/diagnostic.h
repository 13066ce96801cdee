// What hlolint reports: one finding with its location, notes and evidence.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "source/source_file.h"

namespace hlolint {

enum class Severity : uint8_t { kNote, kWarning, kError };
std::string_view SeverityName(Severity severity);
std::optional<Severity> SeverityFromName(std::string_view name);

// A byte range [begin, end) in the source file.
struct SourceSpan {
  uint32_t begin = 0;
  uint32_t end = 0;
};

// Positions resolved from a span: 1-based, end column exclusive.
struct ResolvedSpan {
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t end_line = 0;
  uint32_t end_column = 0;
};

// The text of a span's first line, copied so reports need not keep the file.
// Long lines are cut to a window around the span.
struct SourceExcerpt {
  std::string text;     // the line (or its window), without the line break
  uint32_t offset = 0;  // byte offset of `text` in its line
  bool clipped_before = false;  // the line goes on before `text`
  bool clipped_after = false;   // ... and after it
};

// Evidence for a finding: located notes point at the code that explains it
// (reports show their source lines); notes without a location explain why.
struct DiagnosticNote {
  std::string message;
  std::optional<SourceSpan> span;  // none: a note without a location
  ResolvedSpan resolved;           // filled by Resolve()
  SourceExcerpt excerpt;           // filled by Resolve() for a located note
};

// Where the op came from in the user's program (instruction metadata).
struct ProgramSource {
  std::string file;
  int64_t line = 0;
};

// One dump of a dump sequence, as a finding's history names it.
struct DumpPoint {
  std::string file;                  // the dump's path, as shown
  std::optional<int64_t> step;
  std::string pipeline;
  std::string after_pass;
  std::string before_pass;
  std::string description;           // "after pass 'P' (pipeline 'Q', step N)", ...
  // Steps missing from the sequence just before this dump (the previous
  // dump has step missing_from - 1): a pass in that gap may be the one.
  std::optional<int64_t> missing_from;
  std::optional<int64_t> missing_to;
};

// Where a finding of a dump sequence (the per-pass dumps of one module)
// appears: set in sequence mode, shared by every report of the finding.
struct DumpHistory {
  DumpPoint first_seen;
  bool in_first_dump = false;   // already in the sequence's first dump
  DumpPoint last_seen;
  bool in_last_dump = false;    // still in the sequence's last dump
  std::optional<DumpPoint> fixed_after;  // the first dump without it, after its last appearance
  uint32_t dumps = 0;           // how many dumps of the sequence have it
  uint32_t sequence_dumps = 0;  // how many dumps the sequence has
  Severity first_severity = Severity::kError;
  // A finding that was fixed and came back: this history is of its return
  // (first_seen is where it came back). earliest_seen is where it first
  // appeared in the sequence, earlier_fixed_after where it was last fixed.
  std::optional<DumpPoint> earliest_seen;
  std::optional<DumpPoint> earlier_fixed_after;
};

// A fix that is a text edit: replace the bytes of `span` with `text`.
// Offered where the edit is mechanical and certainly right (an editor
// applies it on request); the prose `fix` says what it does.
struct Replacement {
  SourceSpan span;
  std::string text;
  ResolvedSpan resolved;  // filled by Resolve()
};

struct Diagnostic {
  std::string rule;  // e.g. "reshape-not-bitcast"
  Severity severity = Severity::kError;
  // The headline: what is wrong and where, one line of at most about 120
  // characters. The evidence goes in notes, the remedy in `fix`.
  std::string message;
  SourceSpan span;
  // A short text shown at the primary span (what the span is), e.g. "not a
  // bitcast of its operand"; may be empty.
  std::string label;
  std::string module;
  std::string computation;
  std::string instruction;
  std::vector<DiagnosticNote> notes;
  std::optional<ProgramSource> source;
  std::string fix;  // optional one-line fix hint
  std::optional<Replacement> replacement;
  // Inputs of the line-independent fingerprint (see diag/fingerprint.h).
  std::string opcode;
  std::string shape;
  std::string op_name;
  // Filled by Resolve().
  ResolvedSpan resolved;
  std::string source_line;  // text of the primary line (clipped)
  uint32_t source_line_offset = 0;  // byte offset of source_line in its line
  bool source_line_clipped_after = false;  // the line goes on after source_line
  std::string fingerprint;
  // Sequence mode only (see engine/dump_sequence.h).
  std::shared_ptr<const DumpHistory> history;
};

// Computes line/column of every span and copies the primary source line, so
// the diagnostic no longer needs the file.
void Resolve(const SourceFile& file, Diagnostic& diagnostic);

}  // namespace hlolint
