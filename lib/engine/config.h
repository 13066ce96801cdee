// .hlolint.json: the per-directory configuration (docs/configuration.md).
//
//   {
//     "select": ["ALL"], "extend-select": [], "ignore": ["layout"],
//     "severity-overrides": {"missed-in-place-pair": "note"},
//     "per-path-ignores": {"generated/**": ["unused-suppression"]},
//     "fail-on": "warning", "xla-version": "2026-06-03", "backend": "gpu",
//     "rules": {"unclaimed-output-alias": {"writes_through_inputs": ["my_kernel"]}},
//     "verify-options": {"verify_broadcast_dimensions_order": true}
//   }
//
// Every error (syntax, unknown key, bad value, unknown rule or option) is
// located at file:line:col of the offending key or value.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "engine/rule.h"
#include "engine/selection.h"
#include "nlohmann/json.hpp"
#include "xla/profile.h"
#include "xla/verifier_options.h"

namespace hlolint {

inline constexpr std::string_view kConfigFileName = ".hlolint.json";

struct PathIgnore {
  std::string glob;                 // relative to the configuration's directory
  std::vector<std::string> rules;   // rule ids, categories or ALL
};

struct Config {
  std::string path;       // the file it was read from; empty for "no configuration"
  std::string directory;  // absolute, lexically normal; globs are relative to it
  SelectionLayer selection;
  std::map<std::string, Severity, std::less<>> severity_overrides;  // rule id -> level
  std::vector<PathIgnore> per_path_ignores;
  std::optional<Severity> fail_on;
  nlohmann::json rule_options = nlohmann::json::object();  // {"rule-id": {...}}
  std::optional<XlaProfile> xla_version;   // "xla-version" (its backend: kUnknown)
  std::optional<BackendSetting> backend;   // "backend"
  std::optional<std::string> rule_docs_url;  // "rule-docs-url": reports link rules there
  VerifierOptions verifier_options;          // "verify-options"
};

struct ConfigError {
  std::string file;
  uint32_t line = 0;  // 0: no position (e.g. the file cannot be read)
  uint32_t column = 0;
  std::string message;
  // "file:line:col: error: message" (or "file: error: message").
  std::string ToString() const;
};

// Parses the text of a configuration file; `path` names it in errors and
// its directory anchors the per-path globs. `all` is every registered rule.
// False with every error in `errors`, in file order: a syntax error is
// the only one reported (what follows it cannot be read), otherwise each
// bad key, value, rule or option is.
bool ParseConfig(std::string_view text, const std::string& path,
                 const std::vector<const Rule*>& all, Config* out,
                 std::vector<ConfigError>* errors);
// Reads and parses a configuration file.
bool LoadConfig(const std::string& path, const std::vector<const Rule*>& all, Config* out,
                std::vector<ConfigError>* errors);
// One line per error.
std::string ConfigErrorsToString(const std::vector<ConfigError>& errors);

// Matches a path (with '/' separators) against a glob: `*` matches within one
// path component, `**` any number of components, `?` one character, and
// `[abc]`/`[a-z]`/`[!a]` a character class. A pattern without '/' matches the
// last component anywhere (like .gitignore).
bool GlobMatch(std::string_view pattern, std::string_view path);

// The rules `config` turns off for `path` through per-path-ignores. `path`
// is made absolute against the working directory first.
std::vector<std::string> IgnoredRulesForPath(const Config& config, const std::string& path);

// Finds the configuration of each input: the nearest .hlolint.json in the
// input's directory or any parent. Thread-safe; caches per directory, so a
// large tree costs one lookup per directory.
class ConfigFinder {
 public:
  explicit ConfigFinder(const std::vector<const Rule*>& all) : all_(all) {}
  // The configuration that applies to `input` (a file path, possibly
  // relative), or null when there is none; `*failed` with `errors` set when
  // that configuration is broken.
  std::shared_ptr<const Config> ForInput(const std::string& input,
                                         std::vector<ConfigError>* errors, bool* failed);

 private:
  std::shared_ptr<const Config> ForDirectory(const std::string& directory,
                                             std::vector<ConfigError>* errors, bool* failed);
  const std::vector<const Rule*>& all_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Config>> by_directory_;  // null: none found
  std::map<std::string, std::vector<ConfigError>> errors_;             // by config path
};

// The absolute, lexically normal form of a path (no filesystem access).
std::string AbsolutePath(const std::string& path);

}  // namespace hlolint
