#include "engine/config.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "engine/located_json.h"
#include "util/strings.h"

namespace fs = std::filesystem;

namespace hlolint {
namespace {

constexpr std::string_view kKeys[] = {
    "$schema",          "select", "extend-select", "ignore",     "fail-on", "severity-overrides",
    "per-path-ignores", "rules",  "xla-version",   "backend", "rule-docs-url",
    "verify-options"};

// Reads one configuration, collecting every error with its position: a
// bad member is skipped and the rest still read, so one run lists them all.
class ConfigReader {
 public:
  ConfigReader(const LocatedJson& json, const std::string& path,
               const std::vector<const Rule*>& all, std::vector<ConfigError>* errors)
      : json_(json), path_(path), all_(all), errors_(errors) {}

  void Read(Config* out) {
    if (!json_.value.is_object()) {
      Fail("", "the configuration must be a JSON object");
      return;
    }
    for (const auto& [key, value] : json_.value.items()) {
      const std::string pointer = StrCat("/", JsonPointerToken(key));
      if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
        const std::vector<std::string_view> candidates(std::begin(kKeys), std::end(kKeys));
        Fail(pointer, WithSuggestion(StrCat("unknown key '", key, "'"), key, candidates));
      } else if (key == "$schema") {
        if (!value.is_string()) Fail(pointer, "'$schema' must be a string", true);
      } else if (key == "select") {
        std::vector<std::string> list;
        if (Specifiers(pointer, value, &list)) out->selection.select = std::move(list);
      } else if (key == "extend-select") {
        Specifiers(pointer, value, &out->selection.extend_select);
      } else if (key == "ignore") {
        Specifiers(pointer, value, &out->selection.ignore);
      } else if (key == "fail-on") {
        Severity level = Severity::kError;
        if (Level(pointer, value, &level)) out->fail_on = level;
      } else if (key == "severity-overrides") {
        SeverityOverrides(pointer, value, &out->severity_overrides);
      } else if (key == "per-path-ignores") {
        PathIgnores(pointer, value, &out->per_path_ignores);
      } else if (key == "rules") {
        RuleOptions(pointer, value, &out->rule_options);
      } else if (key == "xla-version") {
        if (value.is_string()) out->xla_version = XlaProfile::Parse(value.get_ref<const std::string&>());
        if (!out->xla_version) Fail(pointer, StrCat("expected ", kXlaVersionHelp), true);
      } else if (key == "rule-docs-url") {
        if (value.is_string()) {
          out->rule_docs_url = value.get<std::string>();
        } else {
          Fail(pointer, "'rule-docs-url' must be a URL string, with {rule} for the rule id", true);
        }
      } else if (key == "verify-options") {
        ReadVerifierOptions(pointer, value, &out->verifier_options);
      } else if (key == "backend") {
        if (value.is_string()) out->backend = ParseBackendSetting(value.get_ref<const std::string&>());
        if (!out->backend) Fail(pointer, StrCat("expected ", kBackendSettingHelp), true);
      }
    }
  }

 private:
  static std::string WithSuggestion(std::string message, std::string_view word,
                                    const std::vector<std::string_view>& candidates) {
    const std::string suggestion = ClosestMatch(word, candidates);
    if (!suggestion.empty()) message += StrCat(" (did you mean '", suggestion, "'?)");
    return message;
  }

  // Locates at the key of a member, or at the value when `at_value`.
  bool Fail(const std::string& pointer, std::string message, bool at_value = false) {
    const JsonPosition p = at_value ? json_.Value(pointer) : json_.KeyOrValue(pointer);
    errors_->push_back(ConfigError{path_, p.line, p.column, std::move(message)});
    return false;
  }

  // Keeps the known specifiers; false when any is not.
  bool Specifiers(const std::string& pointer, const nlohmann::json& value,
                  std::vector<std::string>* out) {
    if (!value.is_array()) {
      return Fail(pointer, "expected a list of rule ids or categories, e.g. [\"ALL\"]", true);
    }
    bool ok = true;
    for (size_t i = 0; i < value.size(); ++i) {
      const std::string item = StrCat(pointer, "/", i);
      if (!value[i].is_string()) {
        ok = Fail(item, "expected a rule id or category (a string)");
        continue;
      }
      const std::string& specifier = value[i].get_ref<const std::string&>();
      if (!IsKnownSpecifier(specifier, all_)) {
        ok = Fail(item, UnknownSpecifierMessage(specifier, all_));
        continue;
      }
      out->push_back(specifier);
    }
    return ok;
  }

  bool Level(const std::string& pointer, const nlohmann::json& value, Severity* out) {
    std::optional<Severity> level;
    if (value.is_string()) level = SeverityFromName(value.get_ref<const std::string&>());
    if (!level) return Fail(pointer, "expected \"error\", \"warning\" or \"note\"", true);
    *out = *level;
    return true;
  }

  void SeverityOverrides(const std::string& pointer, const nlohmann::json& value,
                         std::map<std::string, Severity, std::less<>>* out) {
    if (!value.is_object()) {
      Fail(pointer, "expected an object mapping rule ids to levels", true);
      return;
    }
    for (const auto& [rule, level] : value.items()) {
      const std::string member = StrCat(pointer, "/", JsonPointerToken(rule));
      absl::StatusOr<std::vector<const Rule*>> rules = MatchSpecifiers({rule}, all_);
      if (!rules.ok()) Fail(member, UnknownSpecifierMessage(rule, all_));
      Severity severity = Severity::kError;
      if (!Level(member, level, &severity) || !rules.ok()) continue;
      for (const Rule* r : *rules) (*out)[std::string(r->info().id)] = severity;
    }
  }

  void PathIgnores(const std::string& pointer, const nlohmann::json& value,
                   std::vector<PathIgnore>* out) {
    if (!value.is_object()) {
      Fail(pointer, "expected an object mapping path globs to lists of rules", true);
      return;
    }
    for (const auto& [glob, rules] : value.items()) {
      const std::string member = StrCat(pointer, "/", JsonPointerToken(glob));
      if (glob.empty()) {
        Fail(member, "empty path glob");
        continue;
      }
      PathIgnore ignore{glob, {}};
      if (Specifiers(member, rules, &ignore.rules)) out->push_back(std::move(ignore));
    }
  }

  void RuleOptions(const std::string& pointer, const nlohmann::json& value, nlohmann::json* out) {
    if (!value.is_object()) {
      Fail(pointer, "expected an object mapping rule ids to their options", true);
      return;
    }
    for (const auto& [id, options] : value.items()) {
      const std::string member = StrCat(pointer, "/", JsonPointerToken(id));
      const Rule* rule = nullptr;
      std::vector<std::string_view> ids;
      for (const Rule* r : all_) {
        ids.push_back(r->info().id);
        if (r->info().id == id) rule = r;
      }
      if (rule == nullptr) {
        Fail(member, WithSuggestion(StrCat("unknown rule '", id, "'"), id, ids));
        continue;
      }
      if (!options.is_object()) {
        Fail(member, "rule options must be an object", true);
        continue;
      }
      if (KnownOptions(member, *rule, options)) (*out)[id] = options;
    }
  }

  // HloVerifierOpts names with boolean values.
  void ReadVerifierOptions(const std::string& pointer, const nlohmann::json& value,
                           VerifierOptions* out) {
    if (!value.is_object()) {
      Fail(pointer, "expected an object mapping HloVerifierOpts names to true or false", true);
      return;
    }
    for (const auto& [name, flag] : value.items()) {
      const std::string member = StrCat(pointer, "/", JsonPointerToken(name));
      const VerifierOptionInfo* option = FindVerifierOption(name);
      if (option == nullptr) {
        std::vector<std::string_view> names;
        for (const VerifierOptionInfo& o : VerifierOptionInfos()) names.push_back(o.name);
        Fail(member, WithSuggestion(StrCat("unknown verifier option '", name, "'"), name, names));
        continue;
      }
      if (!flag.is_boolean()) {
        Fail(member, StrCat("verifier option '", name, "' expects true or false"), true);
        continue;
      }
      out->*(option->field) = flag.get<bool>();
    }
  }

  // Every option is one the rule declares, with a value of its type.
  bool KnownOptions(const std::string& pointer, const Rule& rule, const nlohmann::json& options) {
    const std::span<const RuleOption> declared = rule.info().options;
    bool ok = true;
    for (const auto& [key, value] : options.items()) {
      const std::string& name = key;  // clang 14 cannot capture structured bindings
      const std::string member = StrCat(pointer, "/", JsonPointerToken(name));
      const auto option = std::find_if(declared.begin(), declared.end(),
                                       [&](const RuleOption& o) { return o.name == name; });
      if (option == declared.end()) {
        std::vector<std::string_view> names;
        for (const RuleOption& o : declared) names.push_back(o.name);
        std::string message = StrCat("unknown option '", name, "' of rule '", rule.info().id, "'");
        message = names.empty() ? StrCat(message, " (it has no options)")
                                : WithSuggestion(std::move(message), name, names);
        ok = Fail(member, message);
        continue;
      }
      ok = OptionValue(member, *option, value) && ok;
    }
    return ok;
  }

  bool OptionValue(const std::string& pointer, const RuleOption& option,
                   const nlohmann::json& value) {
    switch (option.type) {
      case RuleOptionType::kStringList:
        if (value.is_array() &&
            std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_string(); })) {
          return true;
        }
        return Fail(pointer, StrCat("option '", option.name, "' expects a list of strings"), true);
      case RuleOptionType::kByteCount:
        if (value.is_number_unsigned()) return true;
        return Fail(pointer,
                    StrCat("option '", option.name, "' expects a non-negative integer (bytes)"),
                    true);
    }
    return true;
  }

  const LocatedJson& json_;
  const std::string& path_;
  const std::vector<const Rule*>& all_;
  std::vector<ConfigError>* errors_;
};

bool MatchClass(std::string_view pattern, size_t* p, char c) {
  // pattern[*p] == '['; on return *p is past the closing ']'.
  size_t i = *p + 1;
  bool negate = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
    negate = true;
    ++i;
  }
  bool matched = false;
  bool first = true;
  while (i < pattern.size() && (pattern[i] != ']' || first)) {
    first = false;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      if (pattern[i] <= c && c <= pattern[i + 2]) matched = true;
      i += 3;
    } else {
      if (pattern[i] == c) matched = true;
      ++i;
    }
  }
  *p = i < pattern.size() ? i + 1 : i;
  return matched != negate;
}

// fnmatch within one path component (no '/' in either argument).
bool MatchComponent(std::string_view pattern, std::string_view name) {
  size_t p = 0, n = 0;
  size_t star_p = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star_p = ++p;
      star_n = n;
      continue;
    }
    if (p < pattern.size()) {
      if (pattern[p] == '?') {
        ++p;
        ++n;
        continue;
      }
      if (pattern[p] == '[' && pattern.find(']', p + 2) != std::string_view::npos) {
        size_t next = p;
        if (MatchClass(pattern, &next, name[n])) {
          p = next;
          ++n;
          continue;
        }
      } else if (pattern[p] == name[n]) {
        ++p;
        ++n;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    p = star_p;
    n = ++star_n;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool MatchComponents(const std::vector<std::string_view>& pattern, size_t pi,
                     const std::vector<std::string_view>& path, size_t ni) {
  while (pi < pattern.size()) {
    if (pattern[pi] == "**") {
      // Collapse repeated ** and try every split point.
      while (pi < pattern.size() && pattern[pi] == "**") ++pi;
      if (pi == pattern.size()) return true;
      for (size_t k = ni; k < path.size(); ++k) {
        if (MatchComponents(pattern, pi, path, k)) return true;
      }
      return false;
    }
    if (ni >= path.size() || !MatchComponent(pattern[pi], path[ni])) return false;
    ++pi;
    ++ni;
  }
  return ni == path.size();
}

std::vector<std::string_view> Components(std::string_view path) {
  std::vector<std::string_view> parts;
  for (std::string_view part : Split(path, '/')) {
    if (!part.empty() && part != ".") parts.push_back(part);
  }
  return parts;
}

}  // namespace

std::string ConfigError::ToString() const {
  if (line == 0) return StrCat(file, ": error: ", message);
  return StrCat(file, ":", line, ":", column, ": error: ", message);
}

bool ParseConfig(std::string_view text, const std::string& path,
                 const std::vector<const Rule*>& all, Config* out,
                 std::vector<ConfigError>* errors) {
  errors->clear();
  LocatedJson json;
  JsonSyntaxError syntax;
  if (!ParseLocatedJson(text, &json, &syntax)) {
    errors->push_back(ConfigError{path, syntax.position.line, syntax.position.column,
                                  StrCat("invalid JSON: ", syntax.message)});
    return false;
  }
  *out = Config();
  out->path = path;
  out->directory = fs::path(AbsolutePath(path)).parent_path().generic_string();
  ConfigReader(json, path, all, errors).Read(out);
  // Members are read in key order; errors are reported in file order.
  std::stable_sort(errors->begin(), errors->end(), [](const ConfigError& a, const ConfigError& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  return errors->empty();
}

bool LoadConfig(const std::string& path, const std::vector<const Rule*>& all, Config* out,
                std::vector<ConfigError>* errors) {
  errors->clear();
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    errors->push_back(ConfigError{path, 0, 0, "is a directory, not a configuration file"});
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    errors->push_back(ConfigError{path, 0, 0, "cannot read the configuration file"});
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    errors->push_back(ConfigError{path, 0, 0, "cannot read the configuration file"});
    return false;
  }
  return ParseConfig(text.str(), path, all, out, errors);
}

std::string ConfigErrorsToString(const std::vector<ConfigError>& errors) {
  std::string out;
  for (const ConfigError& error : errors) out += error.ToString() + "\n";
  return out;
}

bool GlobMatch(std::string_view pattern, std::string_view path) {
  const std::vector<std::string_view> names = Components(path);
  if (pattern.find('/') == std::string_view::npos) {
    return !names.empty() && MatchComponent(pattern, names.back());
  }
  return MatchComponents(Components(pattern), 0, names, 0);
}

std::vector<std::string> IgnoredRulesForPath(const Config& config, const std::string& path) {
  std::vector<std::string> ignored;
  if (config.per_path_ignores.empty()) return ignored;
  const std::string relative =
      fs::path(AbsolutePath(path)).lexically_relative(config.directory).generic_string();
  for (const PathIgnore& ignore : config.per_path_ignores) {
    if (GlobMatch(ignore.glob, relative)) {
      ignored.insert(ignored.end(), ignore.rules.begin(), ignore.rules.end());
    }
  }
  return ignored;
}

std::string AbsolutePath(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) absolute = fs::path(path);
  return absolute.lexically_normal().generic_string();
}

std::shared_ptr<const Config> ConfigFinder::ForInput(const std::string& input,
                                                     std::vector<ConfigError>* errors,
                                                     bool* failed) {
  const fs::path absolute(AbsolutePath(input));
  return ForDirectory(absolute.parent_path().generic_string(), errors, failed);
}

std::shared_ptr<const Config> ConfigFinder::ForDirectory(const std::string& start,
                                                         std::vector<ConfigError>* errors,
                                                         bool* failed) {
  std::lock_guard<std::mutex> lock(mutex_);
  *failed = false;
  std::vector<std::string> visited;
  std::shared_ptr<const Config> found;
  std::string config_path;
  fs::path directory(start);
  while (true) {
    const std::string key = directory.generic_string();
    auto cached = by_directory_.find(key);
    if (cached != by_directory_.end()) {
      found = cached->second;
      if (found) config_path = found->path;
      break;
    }
    visited.push_back(key);
    const fs::path candidate = directory / kConfigFileName;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) {
      config_path = candidate.generic_string();
      auto broken = errors_.find(config_path);
      if (broken == errors_.end()) {
        auto config = std::make_shared<Config>();
        std::vector<ConfigError> problems;
        if (LoadConfig(config_path, all_, config.get(), &problems)) {
          found = std::move(config);
        } else {
          errors_[config_path] = std::move(problems);
        }
      }
      break;
    }
    if (!directory.has_parent_path() || directory.parent_path() == directory) break;
    directory = directory.parent_path();
  }
  auto broken = errors_.find(config_path);
  if (!config_path.empty() && broken != errors_.end()) {
    *errors = broken->second;
    *failed = true;
    return nullptr;
  }
  for (const std::string& key : visited) by_directory_[key] = found;
  return found;
}

}  // namespace hlolint
