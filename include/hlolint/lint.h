// Linting HLO text through the hlolint library: options in, diagnostics out
// as plain structs. Never throws and never aborts on any input; problems
// with the options, the configuration or reading the input come back in
// LintResult::errors.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hlolint/location.h"

namespace hlolint::api {

// Where the rule settings come from.
enum class ConfigSource {
  kNone,       // only these options (the command line's --no-config)
  kFile,       // LintOptions::config_file (--config)
  kDiscover,   // the nearest .hlolint.json above each linted path (the CLI's default)
};

// What to lint for, as on the command line (docs/cli.md). Rule specifiers
// are rule ids, category names or ALL.
struct LintOptions {
  std::optional<std::vector<std::string>> select;  // --select: replaces the default set
  std::vector<std::string> extend_select;          // --extend-select
  std::vector<std::string> ignore;                 // --ignore
  // --severity-override: rule specifier and the severity its findings get.
  std::vector<std::pair<std::string, Severity>> severity_overrides;
  ConfigSource config = ConfigSource::kNone;
  std::string config_file;                 // with ConfigSource::kFile
  std::optional<std::string> xla_version;  // --xla-version: "latest", "2026-06-03", "jaxlib-0.10.2"
  std::optional<std::string> backend;      // --backend: "auto", "cpu", "gpu", "tpu"
  // Read what an XLA per-pass dump file name says (module, pass) from the
  // path, as the CLI does for a single file (docs/dump-directories.md).
  bool dump_context_from_path = true;
  // --assume-pass: where in compilation the text was dumped: "P" or
  // "after_P" (after pass P), "before_Q", "after_P.before_Q" (docs/cli.md).
  std::optional<std::string> assume_pass;
};

struct Note {
  std::string message;
  std::optional<Location> location;  // none: a note without a location
};

// A fix that is a text edit: replace `location`'s range with `new_text`.
struct TextEdit {
  Location location;
  std::string new_text;
};

// Where the instruction came from in the user's program: its `metadata`'s
// source_file and source_line.
struct ProgramSource {
  std::string file;
  int64_t line = 0;
};

// What the name of an XLA dump file says (docs/dump-directories.md): the
// command line's JSON `dump` object. Strings are empty where the name says
// nothing.
struct DumpInfo {
  std::string module_id;    // "0042" in module_0042.<name>...
  std::string module_name;
  std::string kind;         // "between_passes", "within_pass", "before_optimizations", ...
  std::optional<int64_t> step;
  std::string pipeline;
  std::string after_pass;
  std::string before_pass;
  std::string during_pass;  // within-pass dumps
  std::string step_name;    // within-pass dumps
  std::string platform;     // e.g. "cpu" in cpu_after_optimizations
  std::string timestamp;
  std::string next_pass;    // the pass of the next dump of the module (dump sequences only)
};

struct Diagnostic {
  std::string rule;  // e.g. "reshape-not-bitcast"
  Severity severity = Severity::kError;
  std::string message;
  Location location;
  std::string label;  // what the primary span is, shown under it; may be empty
  // Where it is in the IR: empty when not at an instruction.
  std::string module;
  std::string computation;
  std::string instruction;
  std::string op_name;                  // the instruction's metadata op_name; may be empty
  std::optional<ProgramSource> source;  // none without source_file in its metadata
  std::vector<Note> notes;
  std::string fix;          // a one-line hint; may be empty
  std::optional<TextEdit> edit;  // where the fix is a mechanical edit of the text
  std::string fingerprint;  // stable across line moves (the CLI's baselines use it)
  std::optional<DumpInfo> dump;  // the dump its text is, when named like an XLA dump
};

// A problem that stopped linting or part of it: invalid options, a
// configuration error (located in the configuration file), an unreadable
// input. Parse errors in the HLO text are diagnostics (rule parse-error).
struct LintError {
  std::string message;
  std::optional<Location> location;
};

struct LintResult {
  std::string path;  // the display path
  std::vector<Diagnostic> diagnostics;  // by position, then rule
  std::vector<LintError> errors;        // empty when the input was linted
  uint32_t modules = 0;
  uint32_t computations = 0;
  uint64_t instructions = 0;
  uint32_t suppressed = 0;  // findings silenced by `// hlolint: ignore[...]`
  std::optional<DumpInfo> dump;  // when the path is named like an XLA dump
  bool ok() const { return errors.empty(); }
};

// Lints with one set of options, validated once. Copies share their state;
// Lint calls may run concurrently from several threads.
class Linter {
 public:
  explicit Linter(LintOptions options = {});
  ~Linter();
  Linter(const Linter&);
  Linter& operator=(const Linter&);

  // What is wrong with the options (an unknown rule, a bad version, an
  // unreadable configuration file); when not empty, every Lint call
  // returns these errors and lints nothing.
  const std::vector<LintError>& option_errors() const;

  // Lints text held by the caller; `display_path` names it in diagnostics
  // and, with ConfigSource::kDiscover, is where the configuration search
  // starts. The text may be anything (empty, binary, truncated).
  LintResult LintText(std::string_view text, const std::string& display_path) const;
  // Reads and lints a file.
  LintResult LintFile(const std::string& path) const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

// One-off forms of Linter(options).LintText / LintFile.
LintResult LintText(std::string_view text, const std::string& display_path,
                    const LintOptions& options = {});
LintResult LintFile(const std::string& path, const LintOptions& options = {});

}  // namespace hlolint::api
