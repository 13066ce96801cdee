// Rule settings as a caller gives them (the command line's flags, the
// API's LintOptions), validated, and the engine's LintOptions they make for
// each input under its configuration. The command line and the library API
// share this, so that both accept and reject the same settings with the
// same messages.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/config.h"
#include "engine/lint.h"
#include "engine/selection.h"
#include "xla/profile.h"

namespace hlolint::api_internal {

// The settings validated, before any configuration file is applied.
struct RuleSettings {
  SelectionLayer selection;
  std::map<std::string, Severity, std::less<>> severity_overrides;
  std::optional<Severity> fail_on;
  std::optional<XlaProfile> xla_version;
  std::optional<BackendSetting> backend;
};

// How error messages name each setting: the command line's flags or the
// API's fields.
struct SettingNames {
  std::string_view select;
  std::string_view extend_select;
  std::string_view ignore;
  std::string_view severity_override;
  std::string_view xla_version;
  std::string_view backend;
};
inline constexpr SettingNames kFlagNames{"--select",         "--extend-select",  "--ignore",
                                         "--severity-override", "--xla-version", "--backend"};
inline constexpr SettingNames kFieldNames{"select",            "extend_select", "ignore",
                                          "severity_overrides", "xla_version",  "backend"};

// Each returns false and sets *error to the message when the setting is
// invalid (an unknown rule or category, a bad version or backend).
bool SetSelection(const SettingNames& names, const std::optional<std::vector<std::string>>& select,
                  const std::vector<std::string>& extend_select,
                  const std::vector<std::string>& ignore, RuleSettings* out, std::string* error);
bool AddSeverityOverride(const SettingNames& names, const std::string& rule, Severity level,
                         RuleSettings* out, std::string* error);
bool SetXlaVersion(const SettingNames& names, const std::string& text, RuleSettings* out,
                   std::string* error);
bool SetBackend(const SettingNames& names, const std::string& text, RuleSettings* out,
                std::string* error);

// Builds the LintOptions of each input: its configuration's settings under
// the caller's, minus the per-path ignores that match it. Inputs that end
// up with the same settings share one LintOptions, which lives as long as
// the builder. Not thread-safe.
class OptionsBuilder {
 public:
  explicit OptionsBuilder(RuleSettings settings) : settings_(std::move(settings)) {}

  // Null with *error set when the selection of configuration and settings
  // together is invalid. `config` may be null (none); `path` is where the
  // input lives, for the per-path ignores.
  const LintOptions* For(const std::shared_ptr<const Config>& config, const std::string& path,
                         Severity* fail_on, std::string* error);

 private:
  // Settings shared by every input under one configuration.
  struct Profile {
    std::vector<const Rule*> rules;
    LintOptions base;
    Severity fail_on = Severity::kError;
  };
  bool MakeProfile(const Config* config, Profile* out, std::string* error) const;

  RuleSettings settings_;
  std::map<const Config*, Profile> profiles_;
  std::vector<std::shared_ptr<const Config>> configs_;  // keeps the keys alive
  std::map<std::pair<const Config*, std::vector<const Rule*>>, const LintOptions*> options_;
  std::deque<LintOptions> storage_;  // stable addresses
};

}  // namespace hlolint::api_internal
