// Golden-file test runner. Lints one HLO file and compares every diagnostic
// with the expectations written inline in the file, in the spirit of MLIR's
// -verify-diagnostics:
//
//   // RUN: select=reshape-not-bitcast,parse-error
//   // expected-error@+1:3 reshape-not-bitcast {{not a bitcast}}
//   %r = f16[2,3]{0,1} reshape(%x)
//   // expected-note@-1:5 {{operand produced here}}
//
// Syntax: `// expected-<error|warning|note>[@<+N|-N|N>][:<column>] [<rule>] {{<fragment>}}`.
// An error's or warning's fragment is looked for in "HEADLINE\nNOTE\n...
// help: FIX" (its notes without a location, its fix), `\n` written as such.
// The line defaults to the comment's own line; `@+N`/`@-N` are relative to
// it, `@N` is absolute. The column, when given, must match exactly. Errors
// and warnings must name their rule; notes match a note of any diagnostic.
// Every diagnostic must be expected and every expectation met.
// `// RUN: select=a,b` chooses the rules (default: every registered rule).
// `// RUN: options={json}` passes rule options ({"rule-id": {...}}).
// `// RUN: dump=<XLA dump file name>` lints the file as if it had that name
// (rules see the module, step and passes: engine/dump_context.h).
// `// RUN: xla-version=<latest|YYYY-MM-DD|jaxlib-X.Y.Z>` judges the file for
// that XLA, as `--xla-version` does (default: latest), and
// `// RUN: backend=<auto|cpu|gpu|tpu>` for that backend, as `--backend`
// (default: auto, from the dump name and the module).
// `// RUN: config={json}` reads the text as a .hlolint.json (validated as
// one) and takes its "verify-options" and "rules" options.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/config.h"
#include "engine/dump_sequence.h"
#include "engine/lint.h"
#include "fmt/format.h"
#include "rules/registry.h"
#include "xla/profile.h"

using namespace hlolint;

namespace {

// A finding's headline says what is wrong and where, on one line a terminal
// shows whole; the evidence goes in notes and the remedy in the fix.
constexpr size_t kMaxHeadline = 120;

// Rules whose headline is XLA's own error text (its parser's, its
// verifier's), quoted so that it can be searched for: not held to the limit.
bool QuotesXlaMessage(std::string_view rule) {
  return rule == "parse-error" || rule == "unsupported-format" ||
         (rule.substr(0, 7) == "verify-" && rule != "verify-names" &&
          rule != "verify-entry-layout");
}

struct Expectation {
  std::string severity;  // error | warning | note
  uint32_t line = 0;
  uint32_t column = 0;   // 0 = any
  std::string rule;      // empty for notes
  std::string fragment;
  uint32_t written_at = 0;  // line of the comment
  bool matched = false;
};

struct Actual {
  std::string severity;
  uint32_t line;
  uint32_t column;
  std::string rule;
  std::string message;
  bool matched = false;
};

bool ParseExpectation(const std::string& text, uint32_t line_number, Expectation* out,
                      std::string* error) {
  size_t pos = text.find("// expected-");
  if (pos == std::string::npos) return false;
  pos += 12;
  size_t end = text.find_first_of("@: {", pos);
  out->severity = text.substr(pos, end - pos);
  if (out->severity != "error" && out->severity != "warning" && out->severity != "note") {
    *error = fmt::format("line {}: unknown expectation kind '{}'", line_number, out->severity);
    return true;
  }
  out->written_at = line_number;
  out->line = line_number;
  pos = end;
  if (pos < text.size() && text[pos] == '@') {
    ++pos;
    size_t num_end = text.find_first_of(": {", pos);
    std::string spec = text.substr(pos, num_end - pos);
    if (!spec.empty() && (spec[0] == '+' || spec[0] == '-')) {
      out->line = static_cast<uint32_t>(static_cast<int64_t>(line_number) + std::stoll(spec));
    } else {
      out->line = static_cast<uint32_t>(std::stoul(spec));
    }
    pos = num_end;
  }
  if (pos < text.size() && text[pos] == ':') {
    ++pos;
    size_t num_end = text.find_first_of(" {", pos);
    out->column = static_cast<uint32_t>(std::stoul(text.substr(pos, num_end - pos)));
    pos = num_end;
  }
  size_t open = text.find("{{", pos);
  size_t close = text.rfind("}}");
  if (open == std::string::npos || close == std::string::npos || close < open) {
    *error = fmt::format("line {}: expectation needs a {{{{message fragment}}}}", line_number);
    return true;
  }
  std::string middle = text.substr(pos, open - pos);
  size_t a = middle.find_first_not_of(' ');
  size_t b = middle.find_last_not_of(' ');
  out->rule = a == std::string::npos ? "" : middle.substr(a, b - a + 1);
  // "\n" in a fragment stands for the line break between a diagnostic's
  // headline, its notes and its fix.
  out->fragment = text.substr(open + 2, close - open - 2);
  for (size_t at = out->fragment.find("\\n"); at != std::string::npos;
       at = out->fragment.find("\\n", at + 1)) {
    out->fragment.replace(at, 2, "\n");
  }
  if (out->severity != "note" && out->rule.empty()) {
    *error = fmt::format("line {}: error and warning expectations must name a rule", line_number);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: golden_runner FILE.hlo\n";
    return 2;
  }
  const std::string path = argv[1];
  std::ifstream in(path);
  if (!in) {
    std::cerr << "cannot read " << path << "\n";
    return 2;
  }
  std::vector<Expectation> expectations;
  std::string select, options_json, dump_name, xla_version, backend, config_json;
  std::string line;
  uint32_t number = 0;
  std::vector<std::string> errors;
  while (std::getline(in, line)) {
    ++number;
    if (auto p = line.find("// RUN: select="); p != std::string::npos) {
      select = line.substr(p + 15);
      continue;
    }
    if (auto p = line.find("// RUN: options="); p != std::string::npos) {
      options_json = line.substr(p + 16);
      continue;
    }
    if (auto p = line.find("// RUN: dump="); p != std::string::npos) {
      dump_name = line.substr(p + 13);
      continue;
    }
    if (auto p = line.find("// RUN: xla-version="); p != std::string::npos) {
      xla_version = line.substr(p + 20);
      continue;
    }
    if (auto p = line.find("// RUN: backend="); p != std::string::npos) {
      backend = line.substr(p + 16);
      continue;
    }
    if (auto p = line.find("// RUN: config="); p != std::string::npos) {
      config_json = line.substr(p + 15);
      continue;
    }
    Expectation e;
    std::string error;
    if (ParseExpectation(line, number, &e, &error)) {
      if (!error.empty()) {
        errors.push_back(error);
      } else {
        expectations.push_back(e);
      }
    }
  }

  LintOptions options;
  if (select.empty()) {
    options.rules = AllRules();
  } else {
    std::stringstream ids(select);
    std::string id;
    while (std::getline(ids, id, ',')) {
      const Rule* rule = FindRule(id);
      if (rule == nullptr) {
        std::cerr << path << ": RUN line selects unknown rule '" << id << "'\n";
        return 2;
      }
      options.rules.push_back(rule);
    }
  }
  if (!options_json.empty()) options.rule_options = nlohmann::json::parse(options_json);
  if (!config_json.empty()) {
    Config config;
    std::vector<ConfigError> config_errors;
    if (!ParseConfig(config_json, path + " (RUN: config=)", AllRules(), &config, &config_errors)) {
      std::cerr << ConfigErrorsToString(config_errors);
      return 2;
    }
    options.verifier = config.verifier_options;
    if (!config.rule_options.empty()) options.rule_options = config.rule_options;
  }
  std::optional<DumpContext> dump;
  if (!dump_name.empty()) {
    dump = DumpContextFromFileName(dump_name);
    if (!dump) {
      std::cerr << path << ": RUN line dump= is not an XLA dump file name: " << dump_name << "\n";
      return 2;
    }
    options.dump = &*dump;
  }
  // As the CLI combines --xla-version and --backend.
  if (!xla_version.empty()) {
    const std::optional<XlaProfile> profile = XlaProfile::Parse(xla_version);
    if (!profile) {
      std::cerr << path << ": RUN line xla-version= must be " << kXlaVersionHelp << ", not "
                << xla_version << "\n";
      return 2;
    }
    options.xla = *profile;
  }
  if (!backend.empty()) {
    const std::optional<BackendSetting> setting = ParseBackendSetting(backend);
    if (!setting) {
      std::cerr << path << ": RUN line backend= must be " << kBackendSettingHelp << ", not "
                << backend << "\n";
      return 2;
    }
    options.detect_backend = setting->detect;
    options.xla = options.xla.WithBackend(setting->backend);
  }
  FileResult result = LintFile(path, path, options);
  if (result.io_error) {
    std::cerr << result.io_error_message << "\n";
    return 2;
  }

  std::vector<Actual> actual;
  for (const Diagnostic& d : result.diagnostics) {
    // An error or warning's fragment may be in its headline, in one of its
    // notes without a location, or in its fix ("help: ...").
    std::string text = d.message;
    for (const DiagnosticNote& n : d.notes) {
      if (!n.span) text += "\n" + n.message;
    }
    if (!d.fix.empty()) text += "\nhelp: " + d.fix;
    actual.push_back({std::string(SeverityName(d.severity)), d.resolved.line, d.resolved.column,
                      d.rule, text});
    if (!QuotesXlaMessage(d.rule) &&
        (d.message.size() > kMaxHeadline || d.message.find('\n') != std::string::npos)) {
      errors.push_back(fmt::format("{}:{}:{}: [{}] headline of {} characters (at most {}, one "
                                   "line; the evidence goes in notes): {}",
                                   path, d.resolved.line, d.resolved.column, d.rule,
                                   d.message.size(), kMaxHeadline, d.message));
    }
    for (const DiagnosticNote& n : d.notes) {
      if (n.span) actual.push_back({"note", n.resolved.line, n.resolved.column, "", n.message});
    }
  }
  for (Expectation& e : expectations) {
    for (Actual& a : actual) {
      if (a.matched || a.severity != e.severity || a.line != e.line) continue;
      if (e.column != 0 && a.column != e.column) continue;
      if (!e.rule.empty() && a.rule != e.rule) continue;
      if (a.message.find(e.fragment) == std::string::npos) continue;
      a.matched = e.matched = true;
      break;
    }
  }
  for (const Expectation& e : expectations) {
    if (!e.matched) {
      errors.push_back(fmt::format("{}:{}: expected {} {}at {}:{} not reported: {{{{{}}}}}", path,
                                   e.written_at, e.severity, e.rule.empty() ? "" : e.rule + " ",
                                   e.line, e.column == 0 ? std::string("*") : std::to_string(e.column),
                                   e.fragment));
    }
  }
  for (const Actual& a : actual) {
    if (!a.matched) {
      errors.push_back(fmt::format("{}:{}:{}: unexpected {} {}: {}", path, a.line, a.column,
                                   a.severity, a.rule.empty() ? "(note)" : "[" + a.rule + "]",
                                   a.message));
    }
  }
  for (const std::string& e : errors) std::cerr << e << "\n";
  if (!errors.empty()) return 1;
  std::cout << path << ": " << expectations.size() << " expectations met\n";
  return 0;
}
