#include "cli_options.h"

#include <iostream>
#include <map>

#include "CLI/CLI.hpp"
#include "build_info.h"
#include "cli_generate.h"
#include "report/report.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// Comma-separated list options: repeatable, one value per occurrence, so a
// path after `--select a` is never taken for a rule.
CLI::Option* AddList(CLI::App& app, const std::string& name, std::vector<std::string>* into,
                     const std::string& help) {
  return app.add_option(name, *into, help)
      ->type_size(1)
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->delimiter(',')
      ->type_name("LIST");
}

}  // namespace

std::optional<int> ParseCommandLine(int argc, char** argv, CliOptions* options) {
  CLI::App app{"hlolint: a verifier and linter for XLA HLO text dumps.\n"
               "Exit status: 0 nothing at or above --fail-on, 1 findings at or above it, "
               "2 usage, configuration, I/O or internal error.",
               "hlolint"};
  app.set_version_flag("--version", VersionLine());
  app.add_option("paths", options->paths,
                 "HLO files, directories (searched for *.hlo and *.txt), or - for stdin")
      ->type_name("PATH");

  std::string formats = StrJoin(FormatNames(), "|");
  std::string format;
  app.add_option("--format,--output-format", format,
                 "Output format: " + formats +
                     " (default: full on a terminal, concise otherwise)")
      ->type_name("FORMAT");
  app.add_option("-o,--output", options->output,
                 "Write the report to FILE (atomically) instead of stdout")
      ->type_name("FILE");
  app.add_option("--stdin-filename", options->stdin_filename,
                 "Name for input read from - (used in diagnostics and to find .hlolint.json)")
      ->type_name("NAME");

  std::vector<std::string> select;
  CLI::Option* select_option =
      AddList(app, "--select", &select, "Rules to run: rule ids, categories or ALL (default ALL)");
  AddList(app, "--extend-select", &options->extend_select, "Rules to run in addition");
  AddList(app, "--ignore", &options->ignore, "Rules not to run");
  AddList(app, "--severity-override", &options->severity_overrides,
          "Change a rule's severity: RULE=error|warning|note")
      ->type_name("RULE=LEVEL");
  std::string fail_on;
  CLI::Option* fail_on_option =
      app.add_option("--fail-on", fail_on,
                     "Lowest severity that makes the exit status 1: error|warning|note "
                     "(default error)")
          ->type_name("LEVEL");
  std::string xla_version;
  CLI::Option* xla_version_option =
      app.add_option("--xla-version", xla_version,
                     "The XLA to judge for: latest (default), a date of XLA's main branch "
                     "(YYYY-MM-DD) or jaxlib-X.Y.Z (docs/xla-versions.md)")
          ->type_name("VERSION");
  std::string backend;
  CLI::Option* backend_option =
      app.add_option("--backend", backend,
                     "The XLA backend that compiled the inputs: auto (default: from dump names "
                     "and contents)|cpu|gpu|tpu")
          ->type_name("BACKEND");
  app.add_flag("--exit-zero", options->exit_zero,
               "Exit with status 0 even when findings are reported (2 still means an error)");

  app.add_option("--config", options->config,
                 "Use this configuration file for every input instead of the nearest "
                 ".hlolint.json")
      ->type_name("FILE");
  app.add_flag("--no-config", options->no_config, "Ignore every .hlolint.json");
  app.add_option("--baseline", options->baseline,
                 "Report only findings not recorded in this baseline file")
      ->type_name("FILE");
  app.add_option("--write-baseline", options->write_baseline,
                 "Record the current findings in FILE (then report only new ones, i.e. none)")
      ->type_name("FILE");

  app.add_option("-j,--jobs", options->jobs,
                 "Threads: files linted in parallel, idle ones run a large module's rules "
                 "(default: every core)")
      ->type_name("N");
  app.add_flag("--statistics", options->statistics,
               "Print per-rule counts, files, modules, instructions, bytes and wall time "
               "(to stderr for machine formats)");
  std::string color = "auto";
  app.add_option("--color", color,
                 "Colour for the full format: auto|always|never (auto honours NO_COLOR, "
                 "FORCE_COLOR and CLICOLOR_FORCE)")
      ->type_name("WHEN");
  app.add_flag("-q,--quiet", options->quiet, "Print diagnostics only, no summary line");
  app.add_flag("-s,--silent", options->silent,
               "Print nothing on stdout (the exit status still tells); -o still writes");

  app.add_flag("--list-rules", options->list_rules,
               "List every rule: id, category, default severity, summary (as JSON with "
               "--format json)");
  app.add_option("--explain", options->explain, "Print the documentation of a rule")
      ->type_name("RULE");
  app.add_flag("--show-files", options->show_files,
               "Print the files that would be linted, one per line, and exit");

  app.add_flag("--every-dump", options->every_dump,
               "In a dump sequence, report each finding in every dump that has it, not only "
               "where it first appears");
  app.add_flag("--no-sequence", options->no_sequence,
               "Lint every XLA dump as a plain file: no dump sequences, no de-duplication "
               "across dumps");
  app.add_option("--assume-pass", options->assume_pass,
                 "Lint a single file as the dump taken after pass P: P, after_P, before_Q or "
                 "after_P.before_Q")
      ->type_name("SPEC");
  app.add_flag("--dump-summary", options->dump_summary,
               "Print a map of XLA dumps: modules, their pass sequences and finding counts per "
               "pass (text, or JSON with --format json)");

  // Hidden: the man page and completions the build installs (cli_generate.h).
  std::string generate;
  app.add_option("--generate", generate)->group("");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << "hlolint: error: " << e.what() << "\nRun 'hlolint --help' for usage.\n";
    return 2;
  }

  auto usage_error = [](const std::string& message) {
    std::cerr << "hlolint: error: " << message << "\nRun 'hlolint --help' for usage.\n";
    return 2;
  };
  if (!generate.empty()) {
    std::optional<std::string> text = Generate(app, generate);
    if (!text) return usage_error(StrCat("--generate: expected ", kGeneratedKinds));
    std::cout << *text;
    return 0;
  }
  if (!format.empty()) {
    if (!FormatFromName(format)) {
      return usage_error(StrCat("unknown format '", format, "' (expected one of ", formats, ")"));
    }
    options->format = format;
  }
  if (select_option->count() > 0) options->select = select;
  if (fail_on_option->count() > 0) options->fail_on = fail_on;
  if (xla_version_option->count() > 0) options->xla_version = xla_version;
  if (backend_option->count() > 0) options->backend = backend;
  static const std::map<std::string, ColorMode> kColors = {
      {"auto", ColorMode::kAuto}, {"always", ColorMode::kAlways}, {"never", ColorMode::kNever}};
  auto mode = kColors.find(color);
  if (mode == kColors.end()) {
    return usage_error(StrCat("--color must be auto, always or never, not '", color, "'"));
  }
  options->color = mode->second;
  if (options->jobs < 0) return usage_error("--jobs must be at least 1");
  if (!options->config.empty() && options->no_config) {
    return usage_error("--config and --no-config contradict each other");
  }
  return std::nullopt;
}

}  // namespace hlolint
