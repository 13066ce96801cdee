#include "lsp/settings.h"

#include <map>
#include <optional>
#include <string_view>

namespace hlolint::lsp {
namespace {

// Keys the editor's client reads itself (docs/editors.md): not errors here.
bool IsClientSideKey(const std::string& key) {
  return key == "path" || key == "args" || key == "trace";
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

// Reads one setting into ServerSettings: what is wrong goes to `errors`.
class SettingsReader {
 public:
  SettingsReader(ServerSettings* out, std::vector<std::string>* errors)
      : out_(*out), errors_(*errors) {}

  void Read(const std::string& key, const nlohmann::json& value) {
    using Setter = void (SettingsReader::*)(const std::string&, const nlohmann::json&);
    static const std::map<std::string_view, Setter> kSetters = {
        {"select", &SettingsReader::Select},
        {"extendSelect", &SettingsReader::ExtendSelect},
        {"ignore", &SettingsReader::Ignore},
        {"severityOverrides", &SettingsReader::SeverityOverrides},
        {"xlaVersion", &SettingsReader::XlaVersion},
        {"backend", &SettingsReader::Backend},
        {"assumePass", &SettingsReader::AssumePass},
        {"configFile", &SettingsReader::ConfigFile},
        {"useConfigFiles", &SettingsReader::UseConfigFiles},
        {"debounceMs", &SettingsReader::DebounceMs},
        {"ruleDocsUrl", &SettingsReader::RuleDocsUrl},
    };
    const auto setter = kSetters.find(key);
    if (setter == kSetters.end()) {
      if (!IsClientSideKey(key)) errors_.push_back("unknown setting '" + key + "'");
      return;
    }
    // null: not set here (an editor declares every key, the unset ones null).
    if (!value.is_null()) (this->*setter->second)(key, value);
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

  std::optional<std::string> String(const std::string& key, const nlohmann::json& value) {
    if (value.is_string()) return value.get<std::string>();
    Error(key, "a string or null");
    return std::nullopt;
  }

  void Select(const std::string& key, const nlohmann::json& value) {
    if (auto list = List(key, value)) out_.lint.select = std::move(*list);
  }
  void ExtendSelect(const std::string& key, const nlohmann::json& value) {
    if (auto list = List(key, value)) out_.lint.extend_select = std::move(*list);
  }
  void Ignore(const std::string& key, const nlohmann::json& value) {
    if (auto list = List(key, value)) out_.lint.ignore = std::move(*list);
  }
  void XlaVersion(const std::string& key, const nlohmann::json& value) {
    if (auto text = String(key, value)) out_.lint.xla_version = *text;
  }
  void Backend(const std::string& key, const nlohmann::json& value) {
    if (auto text = String(key, value)) out_.lint.backend = *text;
  }
  void AssumePass(const std::string& key, const nlohmann::json& value) {
    if (auto text = String(key, value)) out_.lint.assume_pass = *text;
  }
  void RuleDocsUrl(const std::string& key, const nlohmann::json& value) {
    if (auto text = String(key, value)) out_.rule_docs_url = *text;
  }

  void DebounceMs(const std::string& key, const nlohmann::json& value) {
    if (value.is_number_integer() && value.get<int64_t>() >= 0 && value.get<int64_t>() <= 60'000) {
      out_.debounce_ms = value.get<uint32_t>();
    } else {
      Error(key, "a number of milliseconds from 0 to 60000");
    }
  }

  void SeverityOverrides(const std::string& key, const nlohmann::json& value) {
    if (!value.is_object()) {
      Error(key, "an object of rule: \"error\" | \"warning\" | \"note\"");
      return;
    }
    std::vector<std::pair<std::string, api::Severity>> overrides;
    for (const auto& [rule, level] : value.items()) {
      const std::optional<api::Severity> severity =
          level.is_string() ? api::SeverityFromName(level.get<std::string>()) : std::nullopt;
      if (!severity) {
        Error(key + "." + rule, "\"error\", \"warning\" or \"note\"");
        return;
      }
      overrides.emplace_back(rule, *severity);
    }
    out_.lint.severity_overrides = std::move(overrides);
  }

  void ConfigFile(const std::string& key, const nlohmann::json& value) {
    if (value.is_string()) {
      out_.lint.config = api::ConfigSource::kFile;
      out_.lint.config_file = value.get<std::string>();
    } else {
      Error(key, "a path or null");
    }
  }

  void UseConfigFiles(const std::string& key, const nlohmann::json& value) {
    if (!value.is_boolean()) {
      Error(key, "true or false");
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
