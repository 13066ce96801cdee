// The "Example" of every rule page (docs/rules/<id>.md, shown by --explain)
// is true: linting its HLO block gives the diagnostic its second block shows,
// at the same place, with the same severity, message, notes and fix. The
// pages of the rules listed in `required` must have such an example.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/lint.h"
#include "rules/registry.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

// Consecutive whitespace (line wraps in the page) as one space.
std::string Collapse(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// The fenced code blocks of the page's "## Example" section.
std::vector<std::string> ExampleBlocks(const std::string& page) {
  std::vector<std::string> blocks;
  size_t at = page.find("\n## Example\n");
  if (at == std::string::npos) return blocks;
  const size_t end = page.find("\n## ", at + 1);
  while (true) {
    const size_t open = page.find("```", at);
    if (open == std::string::npos || open >= end) break;
    const size_t body = page.find('\n', open) + 1;
    const size_t close = page.find("\n```", body);
    if (close == std::string::npos) break;
    blocks.push_back(page.substr(body, close + 1 - body));
    at = close + 4;
  }
  return blocks;
}

// The diagnostic block, in either form the pages use: concise wrapped over
// lines with "  note: ..." lines, or full with the source line, caret,
// "file:line:col: note: ..." lines and "  = help: ...".
struct Shown {
  std::string file;
  uint32_t line = 0, column = 0;
  std::string severity, message, help;
  std::vector<std::string> notes;
};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// "file:line:col: note: text" -> "text"; else empty.
std::string LocatedNote(const std::string& line) {
  const size_t at = line.find(": note: ");
  if (at == std::string::npos || line.find(' ') < at) return "";
  return line.substr(at + 8);
}

// A source line (" 7 |   ROOT ...") or its caret line ("   |   ^").
bool IsSnippet(const std::string& line) {
  const size_t bar = line.find(" |");
  if (bar == std::string::npos) return false;
  for (size_t i = 0; i < bar; ++i) {
    if (line[i] != ' ' && (line[i] < '0' || line[i] > '9')) return false;
  }
  return true;
}

bool ParseShown(const std::string& block, Shown* out) {
  const std::vector<std::string> lines = Lines(block);
  if (lines.empty()) return false;
  const std::string& head = lines[0];
  const size_t c1 = head.find(':'), c2 = head.find(':', c1 + 1), c3 = head.find(':', c2 + 1),
               c4 = head.find(':', c3 + 1);
  if (c4 == std::string::npos) return false;
  out->file = head.substr(0, c1);
  out->line = static_cast<uint32_t>(std::stoul(head.substr(c1 + 1, c2 - c1 - 1)));
  out->column = static_cast<uint32_t>(std::stoul(head.substr(c2 + 1, c3 - c2 - 1)));
  out->severity = Collapse(head.substr(c3 + 1, c4 - c3 - 1));
  std::string message = head.substr(c4 + 1);
  bool in_message = true;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const std::string located = LocatedNote(line);
    if (StartsWith(line, "  = note: ")) {
      out->notes.push_back(Collapse(line.substr(10)));
    } else if (!located.empty()) {
      out->notes.push_back(Collapse(located));
    } else if (StartsWith(line, "  = help: ")) {
      out->help = Collapse(line.substr(10));
    } else if (in_message && !IsSnippet(line)) {
      message += " " + line;
      continue;
    }
    in_message = false;
  }
  out->message = Collapse(message);
  // A trailing "[rule-id]" is presentation.
  if (!out->message.empty() && out->message.back() == ']') {
    out->message = out->message.substr(0, out->message.rfind(" ["));
  }
  return true;
}

std::string ReadPage(const std::string& id) {
  std::ifstream file(std::string(HLOLINT_SOURCE_DIR) + "/docs/rules/" + id + ".md");
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST_CASE("rule pages: each Example shows what hlolint reports on it") {
  const std::set<std::string> required = {
      "reshape-not-bitcast", "unclaimed-output-alias", "dead-in-place-past-root",
      "missed-in-place-pair", "donation-not-used", "entry-parameter-copied", "parse-error",
      "unused-suppression", "unsupported-format",
      "verify-alias-config", "verify-async-pairs", "verify-buffers", "verify-call-signature",
      "verify-channels", "verify-collectives", "verify-entry-layout", "verify-layout",
      "verify-names", "verify-operand-count", "verify-schedule", "verify-shape",
      "verify-sharding", "host-offload-leak"};
  int checked = 0;
  for (const Rule* rule : AllRules()) {
    const std::string id(rule->info().id);
    INFO("docs/rules/" << id << ".md");
    const std::vector<std::string> blocks = ExampleBlocks(ReadPage(id));
    if (blocks.size() < 2) {
      CHECK(required.count(id) == 0);
      continue;
    }
    Shown shown;
    REQUIRE(ParseShown(blocks[1], &shown));
    auto file = SourceFile::FromString(shown.file, blocks[0]);
    LintOptions options;
    options.rules = AllRules();
    const FileResult result = LintSource(*file, options);
    const Diagnostic* match = nullptr;
    for (const Diagnostic& d : result.diagnostics) {
      if (d.rule == id && d.resolved.line == shown.line && d.resolved.column == shown.column) {
        match = &d;
      }
    }
    REQUIRE(match != nullptr);
    CHECK(SeverityName(match->severity) == shown.severity);
    CHECK(Collapse(match->message) == shown.message);
    for (const std::string& note : shown.notes) {
      bool found = false;
      for (const DiagnosticNote& n : match->notes) {
        found |= Collapse(n.message) == note;
      }
      INFO("note: " << note);
      CHECK(found);
    }
    if (!shown.help.empty()) CHECK(Collapse(match->fix) == shown.help);
    ++checked;
  }
  CHECK(checked >= static_cast<int>(required.size()));
}

}  // namespace
}  // namespace hlolint
