#include "api/settings.h"

#include <algorithm>

#include "rules/registry.h"
#include "util/strings.h"

namespace hlolint::api_internal {
namespace {

bool ValidateSpecifiers(std::string_view name, const std::vector<std::string>& specifiers,
                        std::string* error) {
  for (const std::string& specifier : specifiers) {
    if (!IsKnownSpecifier(specifier, AllRules())) {
      *error = StrCat(name, ": ", UnknownSpecifierMessage(specifier, AllRules()));
      return false;
    }
  }
  return true;
}

}  // namespace

bool SetSelection(const SettingNames& names, const std::optional<std::vector<std::string>>& select,
                  const std::vector<std::string>& extend_select,
                  const std::vector<std::string>& ignore, RuleSettings* out, std::string* error) {
  if (select && !ValidateSpecifiers(names.select, *select, error)) return false;
  if (!ValidateSpecifiers(names.extend_select, extend_select, error)) return false;
  if (!ValidateSpecifiers(names.ignore, ignore, error)) return false;
  out->selection.select = select;
  out->selection.extend_select = extend_select;
  out->selection.ignore = ignore;
  return true;
}

bool AddSeverityOverride(const SettingNames& names, const std::string& rule, Severity level,
                         RuleSettings* out, std::string* error) {
  absl::StatusOr<std::vector<const Rule*>> rules = MatchSpecifiers({rule}, AllRules());
  if (!rules.ok()) {
    *error = StrCat(names.severity_override, ": ", UnknownSpecifierMessage(rule, AllRules()));
    return false;
  }
  for (const Rule* r : *rules) out->severity_overrides[std::string(r->info().id)] = level;
  return true;
}

bool SetXlaVersion(const SettingNames& names, const std::string& text, RuleSettings* out,
                   std::string* error) {
  out->xla_version = XlaProfile::Parse(text);
  if (out->xla_version) return true;
  *error = StrCat(names.xla_version, " must be ", kXlaVersionHelp, ", not '", text, "'");
  return false;
}

bool SetBackend(const SettingNames& names, const std::string& text, RuleSettings* out,
                std::string* error) {
  out->backend = ParseBackendSetting(text);
  if (out->backend) return true;
  *error = StrCat(names.backend, " must be ", kBackendSettingHelp, ", not '", text, "'");
  return false;
}

bool OptionsBuilder::MakeProfile(const Config* config, Profile* out, std::string* error) const {
  std::vector<SelectionLayer> layers;
  if (config != nullptr) layers.push_back(config->selection);
  layers.push_back(settings_.selection);
  absl::StatusOr<std::vector<const Rule*>> rules = ResolveSelection(AllRules(), layers);
  if (!rules.ok()) {
    *error = std::string(rules.status().message());
    return false;
  }
  out->rules = *rules;
  out->base.known_rules = AllRules();
  if (config != nullptr) {
    out->base.severity_overrides = config->severity_overrides;
    out->base.rule_options = config->rule_options;
    out->base.verifier = config->verifier_options;
    if (config->fail_on) out->fail_on = *config->fail_on;
  }
  for (const auto& [rule, level] : settings_.severity_overrides) {
    out->base.severity_overrides[rule] = level;
  }
  if (settings_.fail_on) out->fail_on = *settings_.fail_on;
  // The caller's settings over the configuration, each of the two alone.
  std::optional<XlaProfile> version = settings_.xla_version;
  if (!version && config != nullptr) version = config->xla_version;
  std::optional<BackendSetting> backend = settings_.backend;
  if (!backend && config != nullptr) backend = config->backend;
  if (version) out->base.xla = *version;
  if (backend) {
    out->base.detect_backend = backend->detect;
    out->base.xla = out->base.xla.WithBackend(backend->backend);
  }
  return true;
}

const LintOptions* OptionsBuilder::For(const std::shared_ptr<const Config>& config,
                                       const std::string& path, Severity* fail_on,
                                       std::string* error) {
  auto found = profiles_.find(config.get());
  if (found == profiles_.end()) {
    Profile profile;
    if (!MakeProfile(config.get(), &profile, error)) return nullptr;
    found = profiles_.emplace(config.get(), std::move(profile)).first;
    configs_.push_back(config);
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

}  // namespace hlolint::api_internal
