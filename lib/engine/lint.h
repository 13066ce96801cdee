// Linting one input: parse every module, run the rules, collect findings.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "engine/dump_context.h"
#include "engine/rule.h"
#include "parse/value_parser.h"

namespace hlolint {

struct LintOptions {
  ParseLimits limits;
  // Rules to run, in registry order. Engine-level rules (parse-error,
  // unsupported-format) are reported only when listed here.
  std::vector<const Rule*> rules;
  // Every registered rule, to tell an unknown rule id in a suppression
  // comment from one that is merely not selected. Empty: `rules` are all
  // the rules there are.
  std::vector<const Rule*> known_rules;
  std::map<std::string, Severity, std::less<>> severity_overrides;  // by rule id
  nlohmann::json rule_options = nlohmann::json::object();          // {"rule-id": {...}}
  const DumpContext* dump = nullptr;
};

// Everything reported for one input file. Self-contained: holds no IR and
// no file contents, so results of many files can be kept cheaply.
struct FileResult {
  std::string path;            // as given by the user
  bool io_error = false;       // the file could not be read
  std::string io_error_message;
  uint32_t modules = 0;
  uint32_t computations = 0;
  uint64_t instructions = 0;
  uint64_t bytes = 0;
  uint32_t suppressed = 0;  // diagnostics silenced by `// hlolint: ignore[...]`
  // Sorted by position, then rule; positions resolved, fingerprints set.
  std::vector<Diagnostic> diagnostics;
};

// Parses and lints one file: rules, engine-level diagnostics (parse-error,
// unsupported-format, unused-suppression), inline suppressions, severity
// overrides, positions and fingerprints.
FileResult LintSource(const SourceFile& file, const LintOptions& options);
// Opens `path` read-only and lints it; I/O failures are reported in the result.
FileResult LintFile(const std::string& path, const std::string& display_path,
                    const LintOptions& options);

}  // namespace hlolint
