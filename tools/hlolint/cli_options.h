// The command line of hlolint (docs/cli.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hlolint {

enum class ColorMode { kAuto, kAlways, kNever };

// One report of `--output-format FORMAT:FILE`.
struct ReportFile {
  std::string format;  // a valid format name
  std::string file;
};

struct CliOptions {
  std::vector<std::string> paths;
  std::optional<std::string> format;  // unset: full on a terminal, else concise
  std::string output;                 // -o; empty: stdout
  // Further reports of the same run (--output-format FORMAT:FILE). A plain
  // `--output-format FORMAT` sets `format`, as --format does. When there are
  // such reports, the report of `format`/`output` is written only if
  // --format, -o or a plain --output-format asked for it.
  std::vector<ReportFile> report_files;
  bool main_report_requested = true;
  std::string stdin_filename;
  std::optional<std::string> rule_docs_url;  // --rule-docs-url; overrides the configuration's
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
  std::vector<std::string> severity_overrides;  // "rule=level"
  std::optional<std::string> fail_on;
  std::optional<std::string> xla_version;
  std::optional<std::string> backend;
  bool exit_zero = false;
  std::string config;
  bool no_config = false;
  std::string baseline;
  bool fail_on_stale_baseline = false;
  std::string write_baseline;
  int jobs = 0;  // 0: every core
  bool statistics = false;
  ColorMode color = ColorMode::kAuto;
  bool quiet = false;
  bool silent = false;
  bool list_rules = false;
  std::string explain;
  bool show_files = false;
  bool allow_empty = false;  // no HLO file among the inputs is not an error
  bool show_settings = false;
  // Dump directories (docs/dump-directories.md).
  bool every_dump = false;
  bool no_sequence = false;
  std::string assume_pass;
  bool dump_summary = false;
  // The memory report (docs/memory-report.md) instead of a lint.
  bool memory_report = false;
  std::string memory_plot;  // --memory-plot: an SVG of the timelines
};

// Parses argv. Returns an exit status when the program should stop now
// (0 after --help or --version, 2 after a usage error, printed to stderr),
// nullopt to go on.
std::optional<int> ParseCommandLine(int argc, char** argv, CliOptions* options);

}  // namespace hlolint
