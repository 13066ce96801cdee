#include "cli_options.h"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <map>
#include <regex>
#include <string_view>

#include "CLI/CLI.hpp"
#include "engine/selection.h"
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

// --output-format values: FORMAT[:FILE] (a format name has no ':'). A
// plain FORMAT is the stdout report, as --format; one report at most goes
// to stdout and one at most to each file. Returns the usage error, if any.
std::optional<std::string> ReadOutputFormats(const std::vector<std::string>& values,
                                             bool format_given, bool output_given,
                                             const std::string& formats, CliOptions* options) {
  bool plain_given = false;
  for (const std::string& value : values) {
    const size_t colon = value.find(':');
    const std::string name = value.substr(0, colon);
    if (!FormatFromName(name)) {
      return StrCat("--output-format: unknown format '", name, "' (expected one of ", formats,
                    ", optionally followed by :FILE)");
    }
    if (colon == std::string::npos) {
      if (plain_given || format_given) {
        return "only one report can go to standard output (--format or --output-format "
               "FORMAT); give the others a file with --output-format FORMAT:FILE";
      }
      plain_given = true;
      options->format = name;
      continue;
    }
    const std::string file = value.substr(colon + 1);
    if (file.empty()) return StrCat("--output-format ", value, ": the file name is missing");
    const bool taken = (output_given && file == options->output) ||
                       std::any_of(options->report_files.begin(), options->report_files.end(),
                                   [&](const ReportFile& r) { return r.file == file; });
    if (taken) return StrCat("--output-format ", value, ": ", file, " gets two reports");
    options->report_files.push_back({name, file});
  }
  options->main_report_requested =
      options->report_files.empty() || format_given || output_given || plain_given;
  return std::nullopt;
}

int UsageError(const std::string& message) {
  std::cerr << "hlolint: error: " << message << "\nRun 'hlolint --help' for usage.\n";
  return 2;
}

// The long name of every option, e.g. "--format".
std::vector<std::string> LongOptionNames(const CLI::App& app) {
  std::vector<std::string> names = {"--help", "--version"};
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  }
  return names;
}

// CLI11 says "The following arguments were not expected: ..."; an unknown
// option is named alone, with the nearest long option (a one-letter
// option is too short for a guess to mean anything).
std::string UnknownOptionMessage(const CLI::App& app, const std::vector<std::string>& extras,
                                 const std::string& fallback) {
  const auto unknown = std::find_if(extras.begin(), extras.end(), [](const std::string& arg) {
    return arg.size() > 1 && arg[0] == '-';
  });
  if (unknown == extras.end()) return fallback;
  const std::string name = unknown->substr(0, unknown->find('='));
  const std::vector<std::string> names = LongOptionNames(app);
  const std::string suggestion =
      name.starts_with("--")
          ? ClosestMatch(name, std::vector<std::string_view>(names.begin(), names.end()))
          : "";
  std::string message = StrCat("unknown option '", name, "'");
  if (!suggestion.empty()) message += StrCat(" (did you mean '", suggestion, "'?)");
  return message;
}

// CLI11 says "--format: 1 required FORMAT missing" of an option given last
// without its value.
std::string MissingValueMessage(const std::string& message) {
  static const std::regex kMissing(R"(^(-\S+): 1 required (\S+) missing$)");
  std::smatch match;
  if (!std::regex_match(message, match, kMissing)) return message;
  return StrCat(match[1].str(), " expects a value (", match[2].str(), ")");
}

// A count of threads: digits only, 0 meaning one per core.
std::optional<int> ParseJobs(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || text[0] == '-' || ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

bool ListRulesSupports(std::string_view format) {
  return format == "full" || format == "concise" || format == "json";
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
  CLI::Option* format_option =
      app.add_option("--format", format,
                     "Output format: " + formats +
                         " (default: full on a terminal, concise otherwise)")
          ->type_name("FORMAT");
  std::vector<std::string> output_formats;
  app.add_option("--output-format", output_formats,
                 "Also write a report in FORMAT to FILE (atomically), from the same run; "
                 "repeatable. FORMAT alone is the report on stdout, like --format")
      ->type_name("FORMAT[:FILE]")
      ->type_size(1)
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  CLI::Option* output_option =
      app.add_option("-o,--output", options->output,
                     "Write the report to FILE (atomically) instead of stdout")
          ->type_name("FILE");
  std::string rule_docs_url;
  CLI::Option* rule_docs_url_option =
      app.add_option("--rule-docs-url", rule_docs_url,
                     "Link each rule to its documentation at URL, {rule} standing for the rule "
                     "id (SARIF helpUri and informationUri)")
          ->type_name("URL");
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
  app.add_flag("--fail-on-stale-baseline", options->fail_on_stale_baseline,
               "Exit with status 1 when entries of the --baseline file match no finding");
  app.add_option("--write-baseline", options->write_baseline,
                 "Record the current findings in FILE (then report only new ones, i.e. none)")
      ->type_name("FILE");

  std::string jobs;
  CLI::Option* jobs_option = app.add_option("-j,--jobs", jobs,
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
  app.add_option("--explain", options->explain,
                 "Print the documentation of a rule, or a category's summary and rules")
      ->type_name("RULE|CATEGORY");
  app.add_flag("--show-settings", options->show_settings,
               "Print the configuration file and the settings (rules, severities, fail-on, XLA "
               "version, backend, rule options) the first PATH would be linted with, and exit");
  app.add_flag("--show-files", options->show_files,
               "Print the files that would be linted, one per line, and exit");
  app.add_flag("--allow-empty", options->allow_empty,
               "Exit 0 when the paths hold no HLO file (by default that is an error, 2)");

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

  app.add_flag("--memory-report", options->memory_report,
               "Print each module's memory estimate instead of linting: total bytes as XLA's "
               "buffer assignment counts them, the peak, the largest live buffers "
               "(text, or JSON with --format json)");
  app.add_option("--memory-plot", options->memory_plot,
                 "With --memory-report, also write an SVG plot of live bytes along each "
                 "module's schedule to FILE")
      ->type_name("FILE");

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
  } catch (const CLI::ExtrasError& e) {
    return UsageError(UnknownOptionMessage(app, app.remaining(), e.what()));
  } catch (const CLI::ArgumentMismatch& e) {
    return UsageError(MissingValueMessage(e.what()));
  } catch (const CLI::ParseError& e) {
    return UsageError(e.what());
  }

  if (!generate.empty()) {
    std::optional<std::string> text = Generate(app, generate);
    if (!text) return UsageError(StrCat("--generate: expected ", kGeneratedKinds));
    std::cout << *text;
    return 0;
  }
  if (!format.empty()) {
    if (!FormatFromName(format)) {
      return UsageError(StrCat("unknown format '", format, "' (expected one of ", formats, ")"));
    }
    options->format = format;
  }
  if (std::optional<std::string> error =
          ReadOutputFormats(output_formats, format_option->count() > 0,
                            output_option->count() > 0, formats, options)) {
    return UsageError(*error);
  }
  if (rule_docs_url_option->count() > 0) options->rule_docs_url = rule_docs_url;
  if (select_option->count() > 0) options->select = select;
  if (fail_on_option->count() > 0) options->fail_on = fail_on;
  if (xla_version_option->count() > 0) options->xla_version = xla_version;
  if (backend_option->count() > 0) options->backend = backend;
  static const std::map<std::string, ColorMode> kColors = {
      {"auto", ColorMode::kAuto}, {"always", ColorMode::kAlways}, {"never", ColorMode::kNever}};
  auto mode = kColors.find(color);
  if (mode == kColors.end()) {
    return UsageError(StrCat("--color must be auto, always or never, not '", color, "'"));
  }
  options->color = mode->second;
  if (jobs_option->count() > 0) {
    const std::optional<int> threads = ParseJobs(jobs);
    if (!threads) {
      return UsageError(
          StrCat("--jobs expects a number of threads (0 for one per core), not '", jobs, "'"));
    }
    options->jobs = *threads;
  }
  if (options->list_rules && options->format && !ListRulesSupports(*options->format)) {
    return UsageError(StrCat("--list-rules prints a table (--format full or concise) or JSON "
                              "(--format json), not --format ",
                              *options->format));
  }
  if (!options->memory_plot.empty() && !options->memory_report) {
    return UsageError("--memory-plot goes with --memory-report");
  }
  if (!options->config.empty() && options->no_config) {
    return UsageError("--config and --no-config contradict each other");
  }
  return std::nullopt;
}

}  // namespace hlolint
