// The command line of hlolint (docs/cli.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hlolint {

enum class ColorMode { kAuto, kAlways, kNever };

struct CliOptions {
  std::vector<std::string> paths;
  std::optional<std::string> format;  // unset: full on a terminal, else concise
  std::string output;                 // -o; empty: stdout
  std::string stdin_filename;
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
  std::string write_baseline;
  int jobs = 0;  // 0: every core
  bool statistics = false;
  ColorMode color = ColorMode::kAuto;
  bool quiet = false;
  bool silent = false;
  bool list_rules = false;
  std::string explain;
  bool show_files = false;
  bool show_settings = false;
  // Dump directories (docs/dump-directories.md).
  bool every_dump = false;
  bool no_sequence = false;
  std::string assume_pass;
  bool dump_summary = false;
};

// Parses argv. Returns an exit status when the program should stop now
// (0 after --help or --version, 2 after a usage error, printed to stderr),
// nullopt to go on.
std::optional<int> ParseCommandLine(int argc, char** argv, CliOptions* options);

}  // namespace hlolint
