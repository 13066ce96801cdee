// Linting one input: parse every module, run the rules, collect findings.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "engine/dump_context.h"
#include "engine/rule.h"
#include "parse/value_parser.h"
#include "xla/profile.h"
#include "xla/verifier_options.h"

namespace hlolint {

class ReadBuffer;

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
  // The XLA judged for (--xla-version, --backend); with detect_backend
  // (--backend auto) each module's backend comes from its dump name or its
  // contents (analysis/backend.h), kUnknown when neither tells.
  XlaProfile xla = XlaProfile::Latest();
  bool detect_backend = true;
  // "verify-options": the HloVerifierOpts the verify-* rules mirror.
  VerifierOptions verifier;
  // Threads one module may use for its parse and its rules (the CLI gives
  // the cores its file workers leave idle to a file's modules). 1: none.
  // With 2 or more, the rules of a module of at least
  // parallel_rules_min_bytes of text run on that many threads (the calling
  // thread included), each rule on one thread; the findings are the same,
  // in the same order, as on one thread.
  int module_threads = 1;
  // Smaller modules run their rules on the calling thread: below this the
  // threads cost more than they save (see docs/performance.md). Tests set 0.
  uint32_t parallel_rules_min_bytes = kParallelRulesMinBytes;
  static constexpr uint32_t kParallelRulesMinBytes = 8u << 20;
};

// A dump sequence (several dumps of one module, see engine/dump_sequence.h)
// as reporters name it: the files of one sequence come together in step
// order and share one of these.
struct DumpSequenceInfo {
  std::string directory;
  std::string timestamp;
  std::string module_id;
  std::string module_name;
  uint32_t dumps = 0;
  std::optional<int64_t> first_step;
  std::optional<int64_t> last_step;
  uint32_t missing_steps = 0;  // gaps in the step numbers
  uint32_t findings = 0;       // distinct findings over the sequence (a return after a fix counts again)
  uint32_t fixed = 0;          // of which gone by the last dump
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
  // Modules that did not parse (or are not HLO text), whether or not
  // parse-error is selected: dump sequences must not take a finding that
  // is missing from such a file as fixed.
  uint32_t unparsed_modules = 0;
  uint32_t suppressed = 0;  // diagnostics silenced by `// hlolint: ignore[...]`
  // Sorted by position, then rule; positions resolved, fingerprints set.
  std::vector<Diagnostic> diagnostics;
  // What the file's XLA dump name (or --assume-pass) says about it.
  std::optional<DumpContext> dump;
  // Set for the files of a dump sequence.
  std::shared_ptr<const DumpSequenceInfo> sequence;
  // Sequence mode: diagnostics not reported here because an earlier dump of
  // the sequence reported the same finding (--every-dump reports them).
  uint32_t repeats_not_reported = 0;
};

// Runs options.rules on one parsed module and appends their findings to
// `out` (positions not resolved), all of one rule's before the next rule's,
// in the order of options.rules. A large module's rules run on up to
// options.module_threads threads; the result is the same as on one. An
// exception thrown by a rule, on whatever thread, is rethrown here.
void RunRules(const Module& module, const LintOptions& options, std::vector<Diagnostic>* out);

// Parses and lints one file: rules, engine-level diagnostics (parse-error,
// unsupported-format, unused-suppression), inline suppressions, severity
// overrides, positions and fingerprints. The file is made to watch for the
// suppression markers (WatchForSuppressions) before it is parsed.
FileResult LintSource(SourceFile& file, const LintOptions& options);
// Opens `path` read-only and lints it; I/O failures are reported in the result.
// A `buffer` (one per thread) is reused for small files (SourceFile::Open).
FileResult LintFile(const std::string& path, const std::string& display_path,
                    const LintOptions& options, ReadBuffer* buffer = nullptr);

}  // namespace hlolint
