#include "runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <thread>

#include "memory/allocator.h"
#include "engine/baseline.h"
#include "engine/config.h"
#include "engine/dump_sequence.h"
#include "engine/selection.h"
#include "exit_status.h"
#include "inputs.h"
#include "lint_jobs.h"
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

// What the command line says about rules, validated once.
struct CliRuleSettings {
  SelectionLayer selection;
  std::map<std::string, Severity, std::less<>> severity_overrides;
  std::optional<Severity> fail_on;
  std::optional<XlaProfile> xla_version;
  std::optional<BackendSetting> backend;
};

bool ValidateSpecifiers(const char* flag, const std::vector<std::string>& specifiers) {
  for (const std::string& specifier : specifiers) {
    if (!IsKnownSpecifier(specifier, AllRules())) {
      PrintError(StrCat(flag, ": ", UnknownSpecifierMessage(specifier, AllRules())));
      return false;
    }
  }
  return true;
}

bool ReadCliRuleSettings(const CliOptions& options, CliRuleSettings* out) {
  if (options.select && !ValidateSpecifiers("--select", *options.select)) return false;
  if (!ValidateSpecifiers("--extend-select", options.extend_select)) return false;
  if (!ValidateSpecifiers("--ignore", options.ignore)) return false;
  out->selection.select = options.select;
  out->selection.extend_select = options.extend_select;
  out->selection.ignore = options.ignore;
  for (const std::string& item : options.severity_overrides) {
    const size_t eq = item.find('=');
    std::optional<Severity> level;
    if (eq != std::string::npos) level = SeverityFromName(std::string_view(item).substr(eq + 1));
    if (!level) {
      PrintError(StrCat("--severity-override: expected RULE=error|warning|note, got '", item, "'"));
      return false;
    }
    const std::string rule = item.substr(0, eq);
    absl::StatusOr<std::vector<const Rule*>> rules = MatchSpecifiers({rule}, AllRules());
    if (!rules.ok()) {
      PrintError(StrCat("--severity-override: ", UnknownSpecifierMessage(rule, AllRules())));
      return false;
    }
    for (const Rule* r : *rules) out->severity_overrides[std::string(r->info().id)] = *level;
  }
  if (options.xla_version) {
    out->xla_version = XlaProfile::Parse(*options.xla_version);
    if (!out->xla_version) {
      PrintError(StrCat("--xla-version must be ", kXlaVersionHelp, ", not '", *options.xla_version,
                        "'"));
      return false;
    }
  }
  if (options.backend) {
    out->backend = ParseBackendSetting(*options.backend);
    if (!out->backend) {
      PrintError(StrCat("--backend must be ", kBackendSettingHelp, ", not '", *options.backend, "'"));
      return false;
    }
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

// Settings shared by every file under one configuration.
struct Profile {
  std::vector<const Rule*> rules;
  LintOptions base;
  Severity fail_on = Severity::kError;
};

bool MakeProfile(const Config* config, const CliRuleSettings& cli, Profile* out) {
  std::vector<SelectionLayer> layers;
  if (config != nullptr) layers.push_back(config->selection);
  layers.push_back(cli.selection);
  absl::StatusOr<std::vector<const Rule*>> rules = ResolveSelection(AllRules(), layers);
  if (!rules.ok()) {
    PrintError(std::string(rules.status().message()));
    return false;
  }
  out->rules = *rules;
  out->base.known_rules = AllRules();
  if (config != nullptr) {
    out->base.severity_overrides = config->severity_overrides;
    out->base.rule_options = config->rule_options;
    if (config->fail_on) out->fail_on = *config->fail_on;
  }
  for (const auto& [rule, level] : cli.severity_overrides) out->base.severity_overrides[rule] = level;
  if (cli.fail_on) out->fail_on = *cli.fail_on;
  // The command line over the configuration, each of the two settings alone.
  std::optional<XlaProfile> version = cli.xla_version;
  if (!version && config != nullptr) version = config->xla_version;
  std::optional<BackendSetting> backend = cli.backend;
  if (!backend && config != nullptr) backend = config->backend;
  if (version) out->base.xla = *version;
  if (backend) {
    out->base.detect_backend = backend->detect;
    out->base.xla = out->base.xla.WithBackend(backend->backend);
  }
  return true;
}

// Builds the LintOptions of each input: its configuration's profile minus
// the per-path ignores that match it. Options are shared between inputs
// that end up with the same settings.
class OptionsBuilder {
 public:
  explicit OptionsBuilder(const CliRuleSettings& cli) : cli_(cli) {}

  const LintOptions* For(const std::shared_ptr<const Config>& config, const std::string& path,
                         Severity* fail_on) {
    auto found = profiles_.find(config.get());
    if (found == profiles_.end()) {
      Profile profile;
      if (!MakeProfile(config.get(), cli_, &profile)) return nullptr;
      found = profiles_.emplace(config.get(), std::move(profile)).first;
      configs_.push_back(config);  // keeps the key alive
    }
    const Profile& profile = found->second;
    *fail_on = profile.fail_on;
    std::vector<std::string> ignored;
    if (config) ignored = IgnoredRulesForPath(*config, path);
    std::vector<const Rule*> rules = profile.rules;
    if (!ignored.empty()) {
      absl::StatusOr<std::vector<const Rule*>> drop = MatchSpecifiers(ignored, AllRules());
      if (drop.ok()) {
        std::erase_if(rules, [&](const Rule* r) {
          return std::find(drop->begin(), drop->end(), r) != drop->end();
        });
      }
    }
    const std::pair<const Config*, std::vector<const Rule*>> key{config.get(), rules};
    auto cached = options_.find(key);
    if (cached != options_.end()) return cached->second;
    LintOptions& options = storage_.emplace_back(profile.base);
    options.rules = std::move(rules);
    options_[key] = &options;
    return &options;
  }

 private:
  const CliRuleSettings& cli_;
  std::map<const Config*, Profile> profiles_;
  std::vector<std::shared_ptr<const Config>> configs_;
  std::map<std::pair<const Config*, std::vector<const Rule*>>, const LintOptions*> options_;
  std::deque<LintOptions> storage_;  // stable addresses
};

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

  CliRuleSettings cli;
  if (!ReadCliRuleSettings(options, &cli)) return kExitError;
  if (options.dump_summary && options.format && *options.format != "json" &&
      *options.format != "full" && *options.format != "concise") {
    PrintError(StrCat("--dump-summary prints text or, with --format json, JSON; not '",
                      *options.format, "'"));
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
  std::vector<std::string> input_errors;
  const std::vector<Input> inputs = ExpandInputs(options.paths, &input_errors);
  for (const std::string& message : input_errors) PrintError(message);
  had_error = !input_errors.empty();
  if (const Input* overwritten = InputAt(options.output, inputs)) {
    PrintError(StrCat("--output ", options.output, " would overwrite the input ", overwritten->path));
    return kExitError;
  }
  if (options.show_files) {
    std::string list;
    for (const Input& input : inputs) list += input.is_stdin ? "-\n" : input.path + "\n";
    WriteStdout(list);
    return had_error ? kExitError : kExitClean;
  }

  // Configuration for each input.
  std::shared_ptr<const Config> fixed;  // --config
  if (!options.config.empty()) {
    auto config = std::make_shared<Config>();
    ConfigError error;
    if (!LoadConfig(options.config, AllRules(), config.get(), &error)) {
      std::cerr << error.ToString() << "\n";
      return kExitError;
    }
    fixed = std::move(config);
  }
  ConfigFinder finder(AllRules());
  OptionsBuilder builder(cli);
  std::string stdin_text;
  std::vector<LintTask> tasks;
  std::vector<Severity> fail_on;
  std::vector<std::string> locations;  // names that say whether a file is an XLA dump
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
      task.text = &stdin_text;
      task.display_path = options.stdin_filename.empty() ? "<stdin>" : options.stdin_filename;
      location = options.stdin_filename.empty() ? "<stdin>" : options.stdin_filename;
    }
    std::shared_ptr<const Config> config = fixed;
    if (!fixed && !options.no_config) {
      ConfigError error;
      bool failed = false;
      config = finder.ForInput(location, &error, &failed);
      if (failed) {
        std::cerr << error.ToString() << "\n";
        return kExitError;
      }
    }
    locations.push_back(location);
    Severity threshold = Severity::kError;
    task.options = builder.For(config, location, &threshold);
    if (task.options == nullptr) return kExitError;
    tasks.push_back(std::move(task));
    fail_on.push_back(threshold);
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
    sizes.push_back(task.text != nullptr ? task.text->size() : RegularFileSize(task.path));
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

  // Baselines.
  uint64_t baselined = 0;
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
    baselined = ApplyBaseline(baseline, results);
  }

  // Report.
  const bool to_terminal = options.output.empty() && StdoutIsTerminal();
  const Format format = options.format ? *FormatFromName(*options.format)
                                       : (to_terminal ? Format::kFull : Format::kConcise);
  const std::vector<RuleDescription> rules =
      format == Format::kSarif ? DescribeRules() : std::vector<RuleDescription>();
  ReportInput input;
  input.files = &results;
  input.fail_on = fail_on;
  input.rules = &rules;
  input.tool_version = HLOLINT_VERSION;
  std::error_code ec;
  input.working_directory = std::filesystem::current_path(ec).generic_string();
  input.color = ShouldColor(options.color, to_terminal);
  input.quiet = options.quiet;
  input.baselined = baselined;
  if (!options.output.empty()) {
    std::string error;
    if (!WriteFileAtomically(options.output, Render(format, input), &error)) {
      PrintError(error);
      had_error = true;
    }
  } else if (!options.silent) {
    if (!WriteStdout(Render(format, input))) had_error = true;
  }

  if (options.statistics) {
    const std::string text = StatisticsText(results, {seconds, jobs, baselined});
    if (IsHumanFormat(format) && options.output.empty() && !options.silent) {
      WriteStdout(text);
    } else {
      std::cerr << text;
    }
  }
  return StatusFor(results, fail_on, had_error, options.exit_zero);
}

}  // namespace hlolint
