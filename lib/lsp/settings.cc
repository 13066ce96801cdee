#include "lsp/settings.h"

#include <optional>

namespace hlolint::lsp {
namespace {

// Keys the editor's client reads itself (docs/editors.md): not errors here.
bool IsClientSideKey(const std::string& key) {
  return key == "path" || key == "args" || key == "trace";
}

std::optional<api::Severity> SeverityFromName(const std::string& name) {
  if (name == "error") return api::Severity::kError;
  if (name == "warning") return api::Severity::kWarning;
  if (name == "note") return api::Severity::kNote;
  return std::nullopt;
}

std::optional<std::vector<std::string>> StringList(const nlohmann::json& value) {
  if (!value.is_array()) return std::nullopt;
  std::vector<std::string> out;
  for (const nlohmann::json& item : value) {
    if (!item.is_string()) return std::nullopt;
    out.push_back(item.get<std::string>());
  }
  return out;
}

class SettingsReader {
 public:
  SettingsReader(ServerSettings* out, std::vector<std::string>* errors)
      : out_(*out), errors_(*errors) {}

  void Read(const std::string& key, const nlohmann::json& value) {
    api::LintOptions& lint = out_.lint;
    if (key == "select") {
      if (value.is_null()) {
        lint.select.reset();
      } else if (auto list = List(key, value)) {
        lint.select = std::move(*list);
      }
    } else if (key == "extendSelect") {
      if (auto list = List(key, value)) lint.extend_select = std::move(*list);
    } else if (key == "ignore") {
      if (auto list = List(key, value)) lint.ignore = std::move(*list);
    } else if (key == "severityOverrides") {
      ReadSeverityOverrides(value);
    } else if (key == "xlaVersion") {
      if (auto text = OptionalString(key, value)) lint.xla_version = *text;
    } else if (key == "backend") {
      if (auto text = OptionalString(key, value)) lint.backend = *text;
    } else if (key == "assumePass") {
      if (auto text = OptionalString(key, value)) lint.assume_pass = *text;
    } else if (key == "configFile") {
      ReadConfigFile(value);
    } else if (key == "useConfigFiles") {
      ReadUseConfigFiles(value);
    } else if (key == "debounceMs") {
      if (value.is_number_integer() && value.get<int64_t>() >= 0 &&
          value.get<int64_t>() <= 60'000) {
        out_.debounce_ms = value.get<uint32_t>();
      } else {
        Error(key, "a number of milliseconds from 0 to 60000");
      }
    } else if (key == "ruleDocsUrl") {
      if (value.is_string()) {
        out_.rule_docs_url = value.get<std::string>();
      } else {
        Error(key, "a string");
      }
    } else if (!IsClientSideKey(key)) {
      errors_.push_back("unknown setting '" + key + "'");
    }
  }

 private:
  void Error(const std::string& key, const std::string& expected) {
    errors_.push_back("setting '" + key + "': expected " + expected);
  }

  std::optional<std::vector<std::string>> List(const std::string& key, const nlohmann::json& value) {
    std::optional<std::vector<std::string>> list = StringList(value);
    if (!list) Error(key, "a list of rule ids or categories");
    return list;
  }

  // A string, or null for "as on the command line".
  std::optional<std::optional<std::string>> OptionalString(const std::string& key,
                                                           const nlohmann::json& value) {
    if (value.is_null()) return std::optional<std::string>();
    if (value.is_string()) return value.get<std::string>();
    Error(key, "a string or null");
    return std::nullopt;
  }

  void ReadSeverityOverrides(const nlohmann::json& value) {
    if (!value.is_object()) {
      Error("severityOverrides", "an object of rule: \"error\" | \"warning\" | \"note\"");
      return;
    }
    std::vector<std::pair<std::string, api::Severity>> overrides;
    for (const auto& [rule, level] : value.items()) {
      const std::optional<api::Severity> severity =
          level.is_string() ? SeverityFromName(level.get<std::string>()) : std::nullopt;
      if (!severity) {
        Error("severityOverrides." + rule, "\"error\", \"warning\" or \"note\"");
        return;
      }
      overrides.emplace_back(rule, *severity);
    }
    out_.lint.severity_overrides = std::move(overrides);
  }

  void ReadConfigFile(const nlohmann::json& value) {
    if (value.is_null()) {
      if (out_.lint.config == api::ConfigSource::kFile) out_.lint.config = api::ConfigSource::kDiscover;
      out_.lint.config_file.clear();
    } else if (value.is_string()) {
      out_.lint.config = api::ConfigSource::kFile;
      out_.lint.config_file = value.get<std::string>();
    } else {
      Error("configFile", "a path or null");
    }
  }

  void ReadUseConfigFiles(const nlohmann::json& value) {
    if (!value.is_boolean()) {
      Error("useConfigFiles", "true or false");
    } else if (!value.get<bool>()) {
      out_.lint.config = api::ConfigSource::kNone;
    } else if (out_.lint.config == api::ConfigSource::kNone) {
      out_.lint.config = api::ConfigSource::kDiscover;
    }
  }

  ServerSettings& out_;
  std::vector<std::string>& errors_;
};

}  // namespace

ServerSettings ApplySettings(const ServerSettings& base, const nlohmann::json& settings,
                             std::vector<std::string>* errors) {
  ServerSettings out = base;
  if (settings.is_null()) return out;
  const nlohmann::json* section = &settings;
  if (settings.is_object() && settings.contains("hlolint")) section = &settings["hlolint"];
  if (section->is_null()) return out;
  if (!section->is_object()) {
    errors->push_back("settings: expected an object");
    return out;
  }
  SettingsReader reader(&out, errors);
  for (const auto& [key, value] : section->items()) reader.Read(key, value);
  return out;
}

}  // namespace hlolint::lsp
