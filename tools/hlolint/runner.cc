#include "runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <thread>

#include "api/settings.h"
#include "engine/baseline.h"
#include "engine/config.h"
#include "engine/dump_sequence.h"
#include "engine/selection.h"
#include "exit_status.h"
#include "inputs.h"
#include "lint_jobs.h"
#include "memory_command.h"
#include "show_settings.h"
#include "memory/allocator.h"
#include "output.h"
#include "report/dump_summary.h"
#include "report/report.h"
#include "rule_commands.h"
#include "rules/registry.h"
#include "source/source_file.h"
#include "statistics.h"
#include "util/strings.h"

namespace hlolint {
namespace {

void PrintError(const std::string& message) { std::cerr << "hlolint: error: " << message << "\n"; }

using api_internal::OptionsBuilder;
using api_internal::RuleSettings;

// The rule settings of the command line, validated once (with the API's
// checks and messages, under the flags' names).
bool ReadCliRuleSettings(const CliOptions& options, RuleSettings* out) {
  using api_internal::kFlagNames;
  std::string error;
  if (!api_internal::SetSelection(kFlagNames, options.select, options.extend_select,
                                  options.ignore, out, &error)) {
    PrintError(error);
    return false;
  }
  for (const std::string& item : options.severity_overrides) {
    const size_t eq = item.find('=');
    std::optional<Severity> level;
    if (eq != std::string::npos) level = SeverityFromName(std::string_view(item).substr(eq + 1));
    if (!level) {
      PrintError(StrCat("--severity-override: expected RULE=error|warning|note, got '", item, "'"));
      return false;
    }
    if (!api_internal::AddSeverityOverride(kFlagNames, item.substr(0, eq), *level, out, &error)) {
      PrintError(error);
      return false;
    }
  }
  if (options.xla_version &&
      !api_internal::SetXlaVersion(kFlagNames, *options.xla_version, out, &error)) {
    PrintError(error);
    return false;
  }
  if (options.backend && !api_internal::SetBackend(kFlagNames, *options.backend, out, &error)) {
    PrintError(error);
    return false;
  }
  if (options.fail_on) {
    out->fail_on = SeverityFromName(*options.fail_on);
    if (!out->fail_on) {
      PrintError(StrCat("--fail-on must be error, warning or note, not '", *options.fail_on, "'"));
      return false;
    }
  }
  return true;
}

// Reads standard input to its end, up to kMaxStreamBytes.
bool ReadStdin(std::string* out, std::string* error) {
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = StrCat("cannot read standard input: ", std::strerror(errno));
      return false;
    }
    if (out->size() + static_cast<size_t>(n) > kMaxStreamBytes) {
      *error = StrCat("standard input is larger than the ", kMaxStreamBytes >> 20,
                      " MiB hlolint reads into memory (save it to a file)");
      return false;
    }
    out->append(buffer, static_cast<size_t>(n));
  }
}

// The input that `output` names (the same file, under any name), if any:
// hlolint never writes its inputs.
const Input* InputAt(const std::string& output, const std::vector<Input>& inputs) {
  struct stat out;
  if (output.empty() || ::stat(output.c_str(), &out) != 0) return nullptr;
  for (const Input& input : inputs) {
    struct stat in;
    if (!input.is_stdin && ::stat(input.path.c_str(), &in) == 0 && in.st_dev == out.st_dev &&
        in.st_ino == out.st_ino) {
      return &input;
    }
  }
  return nullptr;
}

int DefaultJobs() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int>(cores);
}

}  // namespace

int Run(const CliOptions& options) {
  const bool json_requested = options.format && *options.format == "json";
  if (options.list_rules) return WriteStdout(ListRules(json_requested)) ? kExitClean : kExitError;
  if (!options.explain.empty()) return Explain(options.explain);

  RuleSettings cli;
  if (!ReadCliRuleSettings(options, &cli)) return kExitError;
  if (options.show_settings) return ShowSettings(options, cli);
  if (options.memory_report) return RunMemoryReport(options, cli);
  if (options.dump_summary && options.format && *options.format != "json" &&
      *options.format != "full" && *options.format != "concise") {
    PrintError(StrCat("--dump-summary prints text or, with --format json, JSON; not '",
                      *options.format, "'"));
    return kExitError;
  }
  if (options.dump_summary && !options.report_files.empty()) {
    PrintError("--dump-summary writes one report; use --format and -o, not --output-format "
               "FORMAT:FILE");
    return kExitError;
  }
  if (options.no_sequence && (options.every_dump || options.dump_summary)) {
    PrintError(StrCat("--no-sequence cannot be combined with ",
                      options.every_dump ? "--every-dump" : "--dump-summary"));
    return kExitError;
  }
  if (options.paths.empty()) {
    PrintError("no input: pass HLO files, directories, or - for standard input\n"
               "Run 'hlolint --help' for usage.");
    return kExitError;
  }

  bool had_error = false;
  std::vector<InputError> input_errors;
  const ExpandedInputs expanded = ExpandInputs(options.paths, &input_errors);
  const std::vector<Input>& inputs = expanded.files;
  for (const InputError& error : input_errors) PrintError(error.ToString());
  had_error = !input_errors.empty();
  // Nothing to lint, though every path was there: a CI gate must not pass.
  const bool nothing_found = inputs.empty() && !had_error && !options.allow_empty;
  if (const Input* overwritten = InputAt(options.output, inputs)) {
    PrintError(StrCat("--output ", options.output, " would overwrite the input ", overwritten->path));
    return kExitError;
  }
  for (const ReportFile& report : options.report_files) {
    if (const Input* overwritten = InputAt(report.file, inputs)) {
      PrintError(StrCat("--output-format ", report.format, ":", report.file,
                        " would overwrite the input ", overwritten->path));
      return kExitError;
    }
  }
  if (options.show_files) {
    std::string list;
    for (const Input& input : inputs) list += input.is_stdin ? "-\n" : input.path + "\n";
    WriteStdout(list);
    // On stderr: stdout stays a list of the files linted, for scripts.
    for (const std::string& path : expanded.skipped) {
      std::cerr << "hlolint: skipped (not HLO): " << path << "\n";
    }
    if (nothing_found) PrintError(NoHloFilesMessage(options.paths));
    return had_error || nothing_found ? kExitError : kExitClean;
  }
  if (nothing_found) {
    PrintError(NoHloFilesMessage(options.paths));
    return kExitError;
  }

  // Configuration for each input.
  std::shared_ptr<const Config> fixed;  // --config
  if (!options.config.empty()) {
    auto config = std::make_shared<Config>();
    std::vector<ConfigError> errors;
    if (!LoadConfig(options.config, AllRules(), config.get(), &errors)) {
      std::cerr << ConfigErrorsToString(errors);
      return kExitError;
    }
    fixed = std::move(config);
  }
  ConfigFinder finder(AllRules());
  OptionsBuilder builder(std::move(cli));
  std::string stdin_text;
  std::vector<LintTask> tasks;
  std::vector<Severity> fail_on;
  std::vector<std::string> locations;  // names that say whether a file is an XLA dump
  std::string rule_docs_url = options.rule_docs_url.value_or("");
  for (const Input& input : inputs) {
    LintTask task;
    task.path = input.path;
    task.display_path = input.path;
    // Where the input lives, for configuration discovery and path globs.
    std::string location = input.path;
    if (input.is_stdin) {
      std::string error;
      if (!ReadStdin(&stdin_text, &error)) {
        PrintError(error);
        return kExitError;
      }
      task.text = std::string_view();  // standard input's, once all of it is read
      task.display_path = options.stdin_filename.empty() ? "<stdin>" : options.stdin_filename;
      location = options.stdin_filename.empty() ? "<stdin>" : options.stdin_filename;
    }
    std::shared_ptr<const Config> config = fixed;
    if (!fixed && !options.no_config) {
      std::vector<ConfigError> errors;
      bool failed = false;
      config = finder.ForInput(location, &errors, &failed);
      if (failed) {
        std::cerr << ConfigErrorsToString(errors);
        return kExitError;
      }
    }
    // The run has one documentation URL: the command line's, else the
    // first configuration's that sets one.
    if (config && config->rule_docs_url && rule_docs_url.empty()) {
      rule_docs_url = *config->rule_docs_url;
    }
    locations.push_back(location);
    Severity threshold = Severity::kError;
    std::string options_error;
    task.options = builder.For(config, location, &threshold, &options_error);
    if (task.options == nullptr) {
      PrintError(options_error);
      return kExitError;
    }
    tasks.push_back(std::move(task));
    fail_on.push_back(threshold);
  }

  for (LintTask& task : tasks) {
    if (task.text) task.text = stdin_text;
  }

  // Dump names: which module and pass each file is, and dump sequences.
  DumpPlan plan = PlanDumps(locations, !options.no_sequence);
  if (!options.assume_pass.empty()) {
    DumpContext assumed;
    std::string error;
    if (!ParseAssumedPass(options.assume_pass, &assumed, &error)) {
      PrintError(error);
      return kExitError;
    }
    if (tasks.size() != 1) {
      PrintError(StrCat("--assume-pass applies to a single file, but ", tasks.size(),
                        " files are to be linted"));
      return kExitError;
    }
    plan.contexts[0] = ApplyAssumedPass(plan.contexts[0], assumed);
  }
  for (size_t i = 0; i < tasks.size(); ++i) tasks[i].dump = plan.contexts[i];

  const int jobs = options.jobs > 0 ? options.jobs : DefaultJobs();
  std::vector<uint64_t> sizes;
  for (const LintTask& task : tasks) {
    sizes.push_back(task.text ? task.text->size() : RegularFileSize(task.path));
  }
  ConfigureMemoryForInputs(sizes);
  const auto start = std::chrono::steady_clock::now();
  std::vector<FileResult> results = LintAll(tasks, jobs);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const FileResult& result : results) {
    if (result.io_error) {
      PrintError(StrCat(result.path, ": ", result.io_error_message));
      had_error = true;
    }
  }

  // Dump sequences: one report per finding, where it first appears; the
  // files of each sequence together, in step order.
  const std::vector<DumpGroupStats> dump_stats =
      TrackDumpSequences(plan, results, options.every_dump);
  if (options.dump_summary) {
    const bool json = options.format && *options.format == "json";
    const std::string text = json ? RenderDumpSummaryJson(plan, dump_stats, results, HLOLINT_VERSION)
                                  : RenderDumpSummaryText(plan, dump_stats, results);
    if (!options.output.empty()) {
      std::string error;
      if (!WriteFileAtomically(options.output, text, &error)) {
        PrintError(error);
        had_error = true;
      }
    } else if (!options.silent && !WriteStdout(text)) {
      had_error = true;
    }
    return StatusFor(results, fail_on, had_error, options.exit_zero);
  }
  if (plan.has_sequences()) {
    const std::vector<size_t> order = GroupedOrder(plan);
    std::vector<FileResult> grouped;
    std::vector<Severity> grouped_fail_on;
    grouped.reserve(results.size());
    for (size_t i : order) {
      grouped.push_back(std::move(results[i]));
      grouped_fail_on.push_back(fail_on[i]);
    }
    results = std::move(grouped);
    fail_on = std::move(grouped_fail_on);
  }

  // Paths that could not be expanded are in every report, as unreadable
  // files, after the files linted.
  for (const InputError& error : input_errors) {
    FileResult unreadable;
    unreadable.path = error.path;
    unreadable.io_error = true;
    unreadable.io_error_message = error.message;
    results.push_back(std::move(unreadable));
    fail_on.push_back(Severity::kError);
  }

  // Baselines.
  uint64_t baselined = 0;
  uint64_t stale_baseline = 0;
  if (!options.write_baseline.empty()) {
    std::string error;
    if (!WriteFileAtomically(options.write_baseline, BaselineDocument(results), &error)) {
      PrintError(error);
      return kExitError;
    }
    Baseline recorded;
    for (const FileResult& result : results) {
      for (const Diagnostic& d : result.diagnostics) ++recorded.counts[d.fingerprint];
    }
    baselined = ApplyBaseline(recorded, results);
    if (!options.quiet && !options.silent) {
      std::cerr << "hlolint: recorded " << baselined << " finding" << (baselined == 1 ? "" : "s")
                << " in " << options.write_baseline << "\n";
    }
  } else if (!options.baseline.empty()) {
    Baseline baseline;
    std::string error;
    if (!LoadBaseline(options.baseline, &baseline, &error)) {
      std::cerr << error << "\n";
      return kExitError;
    }
    baselined = ApplyBaseline(baseline, results, &stale_baseline);
    if (stale_baseline > 0 && !options.silent) {
      std::cerr << "hlolint: " << options.baseline << ": " << stale_baseline
                << (stale_baseline == 1 ? " entry no longer matches" : " entries no longer match")
                << " any finding (refresh with --write-baseline)\n";
    }
  }

  // Reports: each rendered from the one run, each file written atomically.
  const bool to_terminal = options.output.empty() && StdoutIsTerminal();
  const Format format = options.format ? *FormatFromName(*options.format)
                                       : (to_terminal ? Format::kFull : Format::kConcise);
  struct Report {
    Format format;
    std::string file;  // empty: stdout
    bool color;        // --color applies to the report of --format
    uint32_t width;    // columns the full format fits source lines to
  };
  std::vector<Report> reports;
  if (options.main_report_requested) {
    reports.push_back({format, options.output, ShouldColor(options.color, to_terminal),
                       ReportWidth(to_terminal)});
  }
  for (const ReportFile& report : options.report_files) {
    reports.push_back({*FormatFromName(report.format), report.file, false, ReportWidth(false)});
  }
  const bool any_sarif = std::any_of(reports.begin(), reports.end(),
                                     [](const Report& r) { return r.format == Format::kSarif; });
  const std::vector<RuleDescription> rules =
      any_sarif ? DescribeRules() : std::vector<RuleDescription>();
  ReportInput input;
  input.files = &results;
  input.fail_on = fail_on;
  input.rules = &rules;
  input.tool_version = HLOLINT_VERSION;
  std::error_code ec;
  input.working_directory = std::filesystem::current_path(ec).generic_string();
  if (const char* workspace = std::getenv("GITHUB_WORKSPACE");
      workspace != nullptr && workspace[0] == '/') {
    input.workspace = workspace;
  }
  input.quiet = options.quiet;
  input.rule_docs_url = rule_docs_url;
  input.baselined = baselined;
  input.stale_baseline = stale_baseline;
  bool human_on_stdout = false;
  for (const Report& report : reports) {
    input.color = report.color;
    input.width = report.width;
    if (!report.file.empty()) {
      std::string error;
      if (!WriteFileAtomically(report.file, Render(report.format, input), &error)) {
        PrintError(error);
        had_error = true;
      }
    } else if (!options.silent) {
      human_on_stdout = IsHumanFormat(report.format);
      if (!WriteStdout(Render(report.format, input))) had_error = true;
    }
  }

  if (options.statistics) {
    const std::string text = StatisticsText(
        results, {seconds, jobs, baselined, expanded.skipped.size(), stale_baseline});
    if (human_on_stdout) {
      WriteStdout(text);
    } else {
      std::cerr << text;
    }
  }
  ExitStatus status = StatusFor(results, fail_on, had_error, options.exit_zero);
  if (status == kExitClean && options.fail_on_stale_baseline && stale_baseline > 0 &&
      !options.exit_zero) {
    status = kExitFindings;
  }
  return status;
}

}  // namespace hlolint
