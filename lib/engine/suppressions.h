// Inline suppressions for hand-written repro files:
//
//   // hlolint: ignore[rule-a, rule-b] reason
//
// A comment that follows code on its line silences that line; a comment on a
// line of its own silences the next line that is not blank and not a comment
// (so several suppression comments can be stacked). `ignore[ALL]` silences
// every rule. Anywhere in the file,
//
//   // hlolint: ignore-file[rule-a, rule-b] reason
//
// silences those rules in the whole file (as ruff's `# ruff: noqa: CODE`). A suppression that silences nothing is reported by the engine
// as `unused-suppression` (see docs/rules/unused-suppression.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "source/source_file.h"

namespace hlolint {

// The id of the diagnostic for a directive that silenced nothing.
inline constexpr std::string_view kUnusedSuppression = "unused-suppression";

struct SuppressedRule {
  std::string id;     // a rule id, or "ALL"
  SourceSpan span;    // of the id inside the comment
  SourceSpan removal;  // what to delete to take the id out: with its comma
  bool used = false;  // silenced at least one diagnostic
};

struct Suppression {
  SourceSpan span;             // the whole `hlolint:` directive
  // What to delete to remove the comment: its whole line when it stands
  // alone, else the comment and the spaces before it.
  SourceSpan removal;
  uint32_t comment_line = 0;
  uint32_t target_line = 0;    // the line it silences (0: none, e.g. at end of file)
  bool whole_file = false;     // `ignore-file[...]`: every line (target_line stays 0)
  std::vector<SuppressedRule> rules;
  std::string reason;          // text after `]`, trimmed
  std::string error;           // non-empty for a malformed directive
};

// The text that starts a suppression directive in a comment.
inline constexpr std::string_view kSuppressionMarker = "hlolint:";

// Makes the file find the suppression markers (its directive marker,
// SourceFile::SetDirectiveMarker) while it is read. Call it before the file
// is parsed: the parser's lexer then notes the markers in the comments it
// skips, and text released behind the parser is searched while resident.
void WatchForSuppressions(SourceFile& file);

// Every `// hlolint:` directive in the file, in text order. Linear in the
// file size; files without the marker are skipped at memchr speed. Watches
// for suppressions itself when nobody did (the file is then searched from
// the front).
std::vector<Suppression> FindSuppressions(SourceFile& file);

// Removes the diagnostics (positions already resolved) that a suppression
// silences and marks those suppressions used. Returns how many were removed.
// `unused-suppression` diagnostics themselves are never silenced.
uint32_t ApplySuppressions(std::vector<Suppression>& suppressions,
                           std::vector<Diagnostic>& diagnostics);

}  // namespace hlolint
