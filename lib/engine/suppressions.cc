#include "engine/suppressions.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"

namespace hlolint {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool IsRuleIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '-' || c == '_';
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Offset where the line holding `offset` starts.
size_t LineStart(std::string_view text, size_t offset) {
  size_t nl = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  if (offset == 0 || nl == std::string_view::npos) return 0;
  return nl + 1;
}

// True when `slash` (the offset of "//") is outside any string literal of its
// line: an even number of unescaped quotes precedes it.
bool OutsideString(std::string_view line_prefix) {
  bool in_string = false;
  for (size_t i = 0; i < line_prefix.size(); ++i) {
    if (line_prefix[i] == '\\' && in_string) {
      ++i;
    } else if (line_prefix[i] == '"') {
      in_string = !in_string;
    }
  }
  return !in_string;
}

bool IsBlankOrComment(std::string_view line) {
  line = Trim(line);
  return line.empty() || line.substr(0, 2) == "//";
}

// Parses `ignore[a, b] reason` or `ignore-file[a, b] reason` starting at
// `pos` (just after the marker).
void ParseDirective(std::string_view text, size_t pos, size_t line_end, Suppression* s) {
  while (pos < line_end && IsSpace(text[pos])) ++pos;
  constexpr std::string_view kIgnore = "ignore[";
  constexpr std::string_view kIgnoreFile = "ignore-file[";
  if (text.substr(pos, kIgnoreFile.size()) == kIgnoreFile) {
    s->whole_file = true;
    pos += kIgnoreFile.size();
  } else if (text.substr(pos, kIgnore.size()) == kIgnore) {
    pos += kIgnore.size();
  } else {
    s->error = "expected `ignore[RULE, ...]` or `ignore-file[RULE, ...]` after `hlolint:`";
    return;
  }
  const size_t close = text.find(']', pos);
  if (close == std::string_view::npos || close >= line_end) {
    s->error = "missing `]` in `ignore[...]`";
    return;
  }
  while (pos < close) {
    while (pos < close && (IsSpace(text[pos]) || text[pos] == ',')) ++pos;
    const size_t begin = pos;
    while (pos < close && IsRuleIdChar(text[pos])) ++pos;
    if (pos == begin) {
      if (pos < close) {
        s->error = "rule ids in `ignore[...]` are separated by commas";
        return;
      }
      break;
    }
    SuppressedRule& rule = s->rules.emplace_back();
    rule.id = std::string(text.substr(begin, pos - begin));
    rule.span = SourceSpan{static_cast<uint32_t>(begin), static_cast<uint32_t>(pos)};
    while (pos < close && IsSpace(text[pos])) ++pos;
    if (pos < close && text[pos] != ',') {
      s->error = "rule ids in `ignore[...]` are separated by commas";
      return;
    }
  }
  if (s->rules.empty()) {
    s->error = "`ignore[]` names no rule; write `ignore[RULE]` or `ignore[ALL]`";
    return;
  }
  for (size_t i = 0; i < s->rules.size(); ++i) {
    // The id up to the next one (its comma and spaces), or from the end of
    // the one before: `[a, b]` loses "a, " or ", b".
    SourceSpan& removal = s->rules[i].removal;
    removal = s->rules[i].span;
    if (i + 1 < s->rules.size()) {
      removal.end = s->rules[i + 1].span.begin;
    } else if (i > 0) {
      removal.begin = s->rules[i - 1].span.end;
    }
  }
  s->reason = std::string(Trim(text.substr(close + 1, line_end - close - 1)));
  s->span.end = static_cast<uint32_t>(close + 1);
}

// A whole line with its line break.
SourceSpan LineRemoval(std::string_view text, size_t line_start, size_t line_end) {
  const size_t end = line_end < text.size() ? line_end + 1 : line_end;
  return {static_cast<uint32_t>(line_start), static_cast<uint32_t>(end)};
}

// A comment after code: from the spaces before `//` to the line's end (a
// `\r` before the line break stays).
SourceSpan TrailingCommentRemoval(std::string_view text, size_t line_start, size_t slash,
                                  size_t line_end) {
  size_t begin = slash;
  while (begin > line_start && IsSpace(text[begin - 1])) --begin;
  size_t end = line_end;
  if (end > slash && text[end - 1] == '\r') --end;
  return {static_cast<uint32_t>(begin), static_cast<uint32_t>(end)};
}

}  // namespace

void WatchForSuppressions(SourceFile& file) { file.SetDirectiveMarker(kSuppressionMarker); }

std::vector<Suppression> FindSuppressions(SourceFile& file) {
  WatchForSuppressions(file);
  std::vector<Suppression> found;
  const std::string_view text = file.text();
  for (const uint32_t at : file.DirectiveMarkers()) {
    const size_t line_start = LineStart(text, at);
    // The marker must directly follow `//` (spaces allowed in between).
    size_t before = at;
    while (before > line_start && IsSpace(text[before - 1])) --before;
    if (before < line_start + 2 || text.substr(before - 2, 2) != "//") continue;
    const size_t slash = before - 2;
    if (!OutsideString(text.substr(line_start, slash - line_start))) continue;
    size_t line_end = text.find('\n', at);
    if (line_end == std::string_view::npos) line_end = text.size();

    Suppression s;
    s.span = {static_cast<uint32_t>(slash), static_cast<uint32_t>(line_end)};
    s.comment_line = file.Locate(static_cast<uint32_t>(slash)).line;
    ParseDirective(text, at + kSuppressionMarker.size(), line_end, &s);
    const bool standalone = Trim(text.substr(line_start, slash - line_start)).empty();
    s.target_line = standalone || s.whole_file ? 0 : s.comment_line;
    s.removal = standalone ? LineRemoval(text, line_start, line_end)
                           : TrailingCommentRemoval(text, line_start, slash, line_end);
    found.push_back(std::move(s));
  }
  // A standalone comment silences the next code line. Walk backwards so a
  // stack of comments resolves through the one below it: linear overall.
  // Without one, the line index (a pass over the whole text) is not needed.
  auto line_to_find = [](const Suppression& s) { return s.target_line == 0 && !s.whole_file; };
  const bool any_standalone = std::any_of(found.begin(), found.end(), line_to_find);
  if (!any_standalone) return found;
  const uint32_t line_count = file.LineCount();
  uint32_t next_scan_stop = line_count + 1;  // line of the previous standalone comment
  uint32_t next_target = 0;
  for (auto it = found.rbegin(); it != found.rend(); ++it) {
    if (!line_to_find(*it)) continue;
    uint32_t target = 0;
    for (uint32_t line = it->comment_line + 1; line <= line_count; ++line) {
      if (line == next_scan_stop) {
        target = next_target;
        break;
      }
      if (!IsBlankOrComment(file.Line(line))) {
        target = line;
        break;
      }
    }
    it->target_line = target;
    next_scan_stop = it->comment_line;
    next_target = target;
  }
  return found;
}

uint32_t ApplySuppressions(std::vector<Suppression>& suppressions,
                           std::vector<Diagnostic>& diagnostics) {
  if (suppressions.empty() || diagnostics.empty()) return 0;
  absl::flat_hash_map<uint32_t, std::vector<size_t>> by_line;
  std::vector<size_t> whole_file;
  for (size_t i = 0; i < suppressions.size(); ++i) {
    if (!suppressions[i].error.empty()) continue;
    if (suppressions[i].whole_file) {
      whole_file.push_back(i);
    } else if (suppressions[i].target_line != 0) {
      by_line[suppressions[i].target_line].push_back(i);
    }
  }
  // Every directive that covers a diagnostic is marked used, line and file
  // ones alike, so neither is reported as unused.
  auto match = [&](const std::vector<size_t>& indices, const Diagnostic& d) {
    bool any = false;
    for (size_t index : indices) {
      for (SuppressedRule& rule : suppressions[index].rules) {
        if (rule.id == d.rule || rule.id == "ALL") {
          rule.used = true;
          any = true;
        }
      }
    }
    return any;
  };
  uint32_t removed = 0;
  auto silenced = [&](const Diagnostic& d) {
    if (d.rule == kUnusedSuppression) return false;
    auto it = by_line.find(d.resolved.line);
    const bool by_its_line = it != by_line.end() && match(it->second, d);
    return match(whole_file, d) || by_its_line;
  };
  auto end = std::remove_if(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
    if (!silenced(d)) return false;
    ++removed;
    return true;
  });
  diagnostics.erase(end, diagnostics.end());
  return removed;
}

}  // namespace hlolint
