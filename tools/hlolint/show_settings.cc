#include "show_settings.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "engine/config.h"
#include "exit_status.h"
#include "output.h"
#include "rules/registry.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// A directory stands for the files directly in it: their configuration
// is the directory's, and per-path globs see a file there.
std::string LocationOf(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return (std::filesystem::path(path) / "<file>").generic_string();
  }
  return path;
}

std::string Describe(const std::string& path, const Config* config, const CliOptions& options,
                     const LintOptions& lint, Severity fail_on) {
  std::string out = StrCat("path: ", path, "\n");
  if (config != nullptr) {
    out += StrCat("configuration: ", config->path, options.config.empty() ? "" : " (--config)",
                  "\n");
  } else {
    out += StrCat("configuration: none", options.no_config ? " (--no-config)" : "", "\n");
  }
  out += StrCat("fail-on: ", SeverityName(fail_on), "\n");
  out += StrCat("xla-version: ",
                lint.xla.is_latest() ? std::string("latest") : lint.xla.date().ToString(), "\n");
  out += StrCat("backend: ",
                lint.detect_backend ? std::string_view("auto") : BackendName(lint.xla.backend()),
                "\n");
  size_t width = 0;
  for (const Rule* rule : lint.rules) width = std::max(width, rule->info().id.size());
  out += StrCat("rules: ", lint.rules.size(), " of ", AllRules().size(), "\n");
  for (const Rule* rule : lint.rules) {
    const auto level = lint.severity_overrides.find(rule->info().id);
    const bool overridden = level != lint.severity_overrides.end();
    out += fmt::format("  {:<{}}  {}{}\n", rule->info().id, width,
                       SeverityName(overridden ? level->second : rule->info().default_severity),
                       overridden ? " (overridden)" : "");
  }
  // The HloVerifierOpts set otherwise than by default, as configured.
  std::string verify_options;
  for (const VerifierOptionInfo& option : VerifierOptionInfos()) {
    const bool value = lint.verifier.*(option.field);
    if (value == VerifierOptions{}.*(option.field)) continue;
    verify_options += StrCat(verify_options.empty() ? "" : ", ", option.name, "=",
                             value ? "true" : "false");
  }
  out += StrCat("verify options: ", verify_options.empty() ? "defaults" : verify_options, "\n");
  out += StrCat("rule options: ", lint.rule_options.empty() ? "none" : lint.rule_options.dump(),
                "\n");
  return out;
}

}  // namespace

int ShowSettings(const CliOptions& options, const api_internal::RuleSettings& cli) {
  const std::string path = options.paths.empty() ? "." : options.paths.front();
  const std::string location = LocationOf(path == "-" && !options.stdin_filename.empty()
                                              ? options.stdin_filename
                                              : path);
  std::shared_ptr<const Config> config;
  std::vector<ConfigError> errors;
  if (!options.config.empty()) {
    auto loaded = std::make_shared<Config>();
    if (!LoadConfig(options.config, AllRules(), loaded.get(), &errors)) {
      std::cerr << ConfigErrorsToString(errors);
      return kExitError;
    }
    config = std::move(loaded);
  } else if (!options.no_config) {
    ConfigFinder finder(AllRules());
    bool failed = false;
    config = finder.ForInput(location, &errors, &failed);
    if (failed) {
      std::cerr << ConfigErrorsToString(errors);
      return kExitError;
    }
  }
  api_internal::OptionsBuilder builder(cli);
  Severity fail_on = Severity::kError;
  std::string error;
  const LintOptions* lint = builder.For(config, location, &fail_on, &error);
  if (lint == nullptr) {
    std::cerr << "hlolint: error: " << error << "\n";
    return kExitError;
  }
  return WriteStdout(Describe(path, config.get(), options, *lint, fail_on)) ? kExitClean
                                                                             : kExitError;
}

}  // namespace hlolint
