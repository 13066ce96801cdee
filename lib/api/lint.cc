// api::Linter: the API's options validated into the engine's, each input
// linted through the entry point the command line uses (lint_input.h).
#include "hlolint/lint.h"

#include <exception>
#include <mutex>

#include "api/convert.h"
#include "api/lint_input.h"
#include "api/settings.h"
#include "engine/config.h"
#include "engine/dump_sequence.h"
#include "rules/registry.h"

namespace hlolint::api {

struct Linter::Impl {
  std::vector<LintError> option_errors;
  std::shared_ptr<const Config> fixed_config;  // ConfigSource::kFile
  std::optional<ConfigFinder> finder;          // ConfigSource::kDiscover
  bool dump_context_from_path = true;
  std::optional<DumpContext> assumed_pass;
  std::mutex mutex;  // guards the builder, which caches options per configuration
  std::optional<api_internal::OptionsBuilder> builder;

  explicit Impl(const LintOptions& options);
  // The engine's options for one input, or an error.
  const hlolint::LintOptions* OptionsFor(const std::string& location, LintResult* result);
  std::optional<DumpContext> DumpFor(const std::string& location) const;
  LintResult Lint(api_internal::InputToLint input);
};

namespace {

std::optional<std::string> ValidateInto(const LintOptions& options,
                                        api_internal::RuleSettings* settings) {
  using api_internal::kFieldNames;
  std::string error;
  if (!api_internal::SetSelection(kFieldNames, options.select, options.extend_select,
                                  options.ignore, settings, &error)) {
    return error;
  }
  for (const auto& [rule, level] : options.severity_overrides) {
    if (!api_internal::AddSeverityOverride(kFieldNames, rule, api_internal::FromApi(level),
                                           settings, &error)) {
      return error;
    }
  }
  if (options.xla_version &&
      !api_internal::SetXlaVersion(kFieldNames, *options.xla_version, settings, &error)) {
    return error;
  }
  if (options.backend &&
      !api_internal::SetBackend(kFieldNames, *options.backend, settings, &error)) {
    return error;
  }
  return std::nullopt;
}

}  // namespace

Linter::Impl::Impl(const LintOptions& options)
    : dump_context_from_path(options.dump_context_from_path) {
  api_internal::RuleSettings settings;
  if (std::optional<std::string> error = ValidateInto(options, &settings)) {
    option_errors.push_back({*error, std::nullopt});
  }
  if (options.assume_pass) {
    DumpContext assumed;
    std::string error;
    if (ParseAssumedPass(*options.assume_pass, &assumed, &error)) {
      assumed_pass = assumed;
    } else {
      option_errors.push_back({error, std::nullopt});  // names the setting --assume-pass
    }
  }
  if (options.config == ConfigSource::kFile) {
    auto config = std::make_shared<Config>();
    std::vector<ConfigError> errors;
    if (LoadConfig(options.config_file, AllRules(), config.get(), &errors)) {
      fixed_config = std::move(config);
    } else {
      for (const ConfigError& error : errors) option_errors.push_back(api_internal::ToApi(error));
    }
  } else if (options.config == ConfigSource::kDiscover) {
    finder.emplace(AllRules());
  }
  builder.emplace(std::move(settings));
}

const hlolint::LintOptions* Linter::Impl::OptionsFor(const std::string& location,
                                                     LintResult* result) {
  std::shared_ptr<const Config> config = fixed_config;
  if (finder) {
    std::vector<ConfigError> errors;
    bool failed = false;
    config = finder->ForInput(location, &errors, &failed);
    if (failed) {
      for (const ConfigError& error : errors) result->errors.push_back(api_internal::ToApi(error));
      return nullptr;
    }
  }
  std::lock_guard<std::mutex> lock(mutex);
  hlolint::Severity fail_on = hlolint::Severity::kError;  // for the CLI's exit status only
  std::string error;
  const hlolint::LintOptions* options = builder->For(config, location, &fail_on, &error);
  if (options == nullptr) result->errors.push_back({error, std::nullopt});
  return options;
}

std::optional<DumpContext> Linter::Impl::DumpFor(const std::string& location) const {
  std::optional<DumpContext> dump;
  if (dump_context_from_path) dump = PlanDumps({location}).contexts[0];
  if (assumed_pass) dump = ApplyAssumedPass(dump, *assumed_pass);
  return dump;
}

LintResult Linter::Impl::Lint(api_internal::InputToLint input) {
  LintResult failed;
  failed.path = input.display_path;
  if (!option_errors.empty()) {
    failed.errors = option_errors;
    return failed;
  }
  // The engine's own failures come back from LintInput as I/O errors; this
  // catches the rest (memory exhausted while converting, say).
  try {
    input.options = OptionsFor(input.display_path, &failed);
    if (input.options == nullptr) return failed;
    input.dump = DumpFor(input.display_path);
    const FileResult result = api_internal::LintInput(input, /*module_threads=*/1, nullptr);
    return api_internal::ToApi(result);
  } catch (const std::exception& e) {
    failed.errors.push_back({std::string("internal error while linting: ") + e.what(),
                             std::nullopt});
    return failed;
  }
}

Linter::Linter(LintOptions options) {
  try {
    impl_ = std::make_shared<Impl>(options);
  } catch (const std::exception& e) {
    impl_ = std::make_shared<Impl>(LintOptions());
    impl_->option_errors.push_back({std::string("internal error: ") + e.what(), std::nullopt});
  }
}
Linter::~Linter() = default;
Linter::Linter(const Linter&) = default;
Linter& Linter::operator=(const Linter&) = default;

const std::vector<LintError>& Linter::option_errors() const { return impl_->option_errors; }

LintResult Linter::LintText(std::string_view text, const std::string& display_path) const {
  api_internal::InputToLint input;
  input.display_path = display_path;
  input.text = text;
  return impl_->Lint(std::move(input));
}

LintResult Linter::LintFile(const std::string& path) const {
  api_internal::InputToLint input;
  input.path = path;
  input.display_path = path;
  return impl_->Lint(std::move(input));
}

LintResult LintText(std::string_view text, const std::string& display_path,
                    const LintOptions& options) {
  return Linter(options).LintText(text, display_path);
}

LintResult LintFile(const std::string& path, const LintOptions& options) {
  return Linter(options).LintFile(path);
}

}  // namespace hlolint::api
