// .hlolint.json: values, located errors, globs and rule selection layers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/config.h"
#include "engine/located_json.h"
#include "engine/selection.h"
#include "nlohmann/json.hpp"
#include "rules/registry.h"

namespace hlolint {
namespace {

bool Parse(const std::string& text, Config* config, std::vector<ConfigError>* errors) {
  return ParseConfig(text, "/project/.hlolint.json", AllRules(), config, errors);
}

// Every error, one per line.
std::string ErrorsOf(const std::string& text) {
  Config config;
  std::vector<ConfigError> errors;
  if (Parse(text, &config, &errors)) return "(no error)";
  return ConfigErrorsToString(errors);
}

// The only error.
std::string ErrorOf(const std::string& text) {
  std::string errors = ErrorsOf(text);
  if (!errors.empty() && errors.back() == '\n') errors.pop_back();
  return errors;
}

std::vector<std::string> Ids(const std::vector<const Rule*>& rules) {
  std::vector<std::string> ids;
  for (const Rule* rule : rules) ids.emplace_back(rule->info().id);
  return ids;
}

TEST_CASE("A full configuration is read") {
  Config config;
  std::vector<ConfigError> error;
  REQUIRE(Parse(R"({
    // comments are allowed
    "$schema": "x",
    "select": ["parse"],
    "extend-select": ["unused-suppression"],
    "ignore": ["unsupported-format"],
    "fail-on": "warning",
    "severity-overrides": {"parse-error": "note", "meta": "error"},
    "per-path-ignores": {"generated/**": ["ALL"], "*.txt": ["parse-error"]},
    "rules": {"unclaimed-output-alias": {"writes_through_inputs": ["k1", "k2",],},},
  })", &config, &error));
  CHECK(config.path == "/project/.hlolint.json");
  CHECK(config.directory == "/project");
  REQUIRE(config.selection.select.has_value());
  CHECK(*config.selection.select == std::vector<std::string>{"parse"});
  CHECK(config.selection.extend_select == std::vector<std::string>{"unused-suppression"});
  CHECK(config.selection.ignore == std::vector<std::string>{"unsupported-format"});
  CHECK(config.fail_on == Severity::kWarning);
  CHECK(config.severity_overrides.at("parse-error") == Severity::kNote);
  CHECK(config.severity_overrides.at("unused-suppression") == Severity::kError);  // category
  REQUIRE(config.per_path_ignores.size() == 2);
  CHECK(config.rule_options["unclaimed-output-alias"]["writes_through_inputs"][1] == "k2");
}

TEST_CASE("Configuration errors are located at the offending key or value") {
  CHECK(ErrorOf("{\n  \"selct\": []\n}") ==
        "/project/.hlolint.json:2:3: error: unknown key 'selct' (did you mean 'select'?)");
  CHECK(ErrorOf("{\"select\": \"ALL\"}") ==
        "/project/.hlolint.json:1:12: error: expected a list of rule ids or categories, e.g. "
        "[\"ALL\"]");
  CHECK(ErrorOf("{\"select\": [\"ALL\",\n   \"parse-eror\"]}") ==
        "/project/.hlolint.json:2:4: error: unknown rule or category 'parse-eror' (did you mean "
        "'parse-error'?)");
  CHECK(ErrorOf("{\"fail-on\": \"fatal\"}") ==
        "/project/.hlolint.json:1:13: error: expected \"error\", \"warning\" or \"note\"");
  CHECK(ErrorOf("{\"severity-overrides\": {\"parse-error\": \"loud\"}}") ==
        "/project/.hlolint.json:1:40: error: expected \"error\", \"warning\" or \"note\"");
  CHECK(ErrorOf("{\"rules\": {\"no-such-rule\": {}}}") ==
        "/project/.hlolint.json:1:12: error: unknown rule 'no-such-rule'");
  CHECK(ErrorOf("{\"rules\": {\"parse-error\": []}}") ==
        "/project/.hlolint.json:1:27: error: rule options must be an object");
  CHECK(ErrorOf("{\"per-path-ignores\": {\"*.hlo\": [\"nope\"]}}") ==
        "/project/.hlolint.json:1:33: error: unknown rule or category 'nope'");
  CHECK(ErrorOf("[]") == "/project/.hlolint.json:1:1: error: the configuration must be a JSON object");
}

TEST_CASE("Every configuration error is reported, in file order") {
  // Keys are read in their sorted order; the errors come out in the file's.
  CHECK(ErrorsOf(R"({
  "selct": ["ALL"],
  "ignore": ["layuot", 3],
  "fail-on": "fatal",
  "backend": "gpu",
  "rules": {
    "unclaimed-output-alias": {"writes_through_input": ["k"], "writes_through_inputs": "k"},
    "parse-error": {"x": 1}
  },
  "severity-overrides": {"nope": "loud"},
})") == "/project/.hlolint.json:2:3: error: unknown key 'selct' (did you mean 'select'?)\n"
        "/project/.hlolint.json:3:14: error: unknown rule or category 'layuot' (did you mean "
        "'layout'?)\n"
        "/project/.hlolint.json:3:24: error: expected a rule id or category (a string)\n"
        "/project/.hlolint.json:4:14: error: expected \"error\", \"warning\" or \"note\"\n"
        "/project/.hlolint.json:7:32: error: unknown option 'writes_through_input' of rule "
        "'unclaimed-output-alias' (did you mean 'writes_through_inputs'?)\n"
        "/project/.hlolint.json:7:88: error: option 'writes_through_inputs' expects a list of "
        "strings\n"
        "/project/.hlolint.json:8:21: error: unknown option 'x' of rule 'parse-error' (it has no "
        "options)\n"
        "/project/.hlolint.json:10:26: error: unknown rule or category 'nope'\n"
        "/project/.hlolint.json:10:34: error: expected \"error\", \"warning\" or \"note\"\n");
}

TEST_CASE("A byte-count option takes a non-negative integer") {
  CHECK(ErrorsOf(R"({"rules": {"entry-parameter-copied": {"min_bytes": 1048576}}})") ==
        "(no error)");
  CHECK(ErrorsOf(R"({"rules": {"entry-parameter-copied": {"min_bytes": 0}}})") == "(no error)");
  CHECK(ErrorsOf(R"({
  "rules": {"entry-parameter-copied": {"min_bytes": -1}},
})") == "/project/.hlolint.json:2:53: error: option 'min_bytes' expects a non-negative integer "
        "(bytes)\n");
  CHECK(ErrorsOf(R"({"rules": {"entry-parameter-copied": {"min_bytes": "64M"}}})") ==
        "/project/.hlolint.json:1:52: error: option 'min_bytes' expects a non-negative integer "
        "(bytes)\n");
  CHECK(ErrorsOf(R"({"rules": {"entry-parameter-copied": {"min_bytes": 1.5}}})") ==
        "/project/.hlolint.json:1:52: error: option 'min_bytes' expects a non-negative integer "
        "(bytes)\n");
}

TEST_CASE("Trailing commas are accepted in objects and arrays") {
  Config config;
  std::vector<ConfigError> errors;
  REQUIRE(Parse("{\"select\": [\"parse\", /* c */ ], \"fail-on\": \"note\", // c\n}", &config,
                &errors));
  CHECK(*config.selection.select == std::vector<std::string>{"parse"});
  CHECK(config.fail_on == Severity::kNote);
  CHECK(ErrorOf("[1,]") == "/project/.hlolint.json:1:1: error: the configuration must be a JSON object");
}

TEST_CASE("JSON syntax errors are located") {
  CHECK(ErrorOf("{\n  \"select\": [\"ALL\",,]\n}") ==
        "/project/.hlolint.json:2:20: error: invalid JSON: unexpected character ','");
  CHECK(ErrorOf("{,}") == "/project/.hlolint.json:1:2: error: invalid JSON: expected a quoted key");
  CHECK(ErrorOf("{\"a\": 1, \"a\": 2}") ==
        "/project/.hlolint.json:1:10: error: invalid JSON: duplicate key 'a'");
  CHECK(ErrorOf("{\"select\": [\"ALL\"]") ==
        "/project/.hlolint.json:1:19: error: invalid JSON: expected ',' or '}'");
  CHECK(ErrorOf("/* never closed") ==
        "/project/.hlolint.json:1:1: error: invalid JSON: unterminated /* comment");
}

TEST_CASE("LocatedJson reads strings, numbers and escapes") {
  LocatedJson json;
  JsonSyntaxError error;
  REQUIRE(ParseLocatedJson(R"({"s": "a\"b\\c\u00e9\ud83d\ude00", "n": -1.5e2, "t": [true, false, null]})",
                           &json, &error));
  CHECK(json.value["s"] == "a\"b\\c\xC3\xA9\xF0\x9F\x98\x80");
  CHECK(json.value["n"] == -150.0);
  CHECK(json.value["t"][2].is_null());
  CHECK(json.Value("/t/1").column == 61);
  CHECK(json.keys.at("/n").column == 36);
}

TEST_CASE("GlobMatch follows .gitignore-like rules") {
  CHECK(GlobMatch("*.hlo", "a/b/c.hlo"));
  CHECK(!GlobMatch("*.hlo", "a/b/c.txt"));
  CHECK(GlobMatch("dumps/*.txt", "dumps/x.txt"));
  CHECK(!GlobMatch("dumps/*.txt", "dumps/sub/x.txt"));
  CHECK(GlobMatch("dumps/**/*.txt", "dumps/sub/deeper/x.txt"));
  CHECK(GlobMatch("dumps/**/*.txt", "dumps/x.txt"));
  CHECK(GlobMatch("dumps/**", "dumps/a/b"));
  CHECK(GlobMatch("module_????.*", "module_0042.jit_f.txt"));
  CHECK(GlobMatch("[ab]*.hlo", "b1.hlo"));
  CHECK(!GlobMatch("[!ab]*.hlo", "b1.hlo"));
  CHECK(GlobMatch("[0-9]x", "7x"));
  CHECK(GlobMatch("./generated/*", "generated/a"));
}

TEST_CASE("Per-path ignores are relative to the configuration's directory") {
  Config config;
  std::vector<ConfigError> error;
  REQUIRE(ParseConfig(R"({"per-path-ignores": {"gen/*.hlo": ["parse"], "*.txt": ["meta"]}})",
                      "/project/.hlolint.json", AllRules(), &config, &error));
  CHECK(IgnoredRulesForPath(config, "/project/gen/a.hlo") == std::vector<std::string>{"parse"});
  CHECK(IgnoredRulesForPath(config, "/project/other/gen/a.hlo").empty());
  CHECK(IgnoredRulesForPath(config, "/project/x/y.txt") == std::vector<std::string>{"meta"});
}

TEST_CASE("Selection layers: select replaces, extend-select adds, ignore removes") {
  const std::vector<const Rule*>& all = AllRules();
  auto resolve = [&](std::vector<SelectionLayer> layers) {
    absl::StatusOr<std::vector<const Rule*>> rules = ResolveSelection(all, layers);
    REQUIRE(rules.ok());
    return Ids(*rules);
  };
  CHECK(resolve({}).size() == all.size());
  CHECK(resolve({{std::vector<std::string>{"parse-error"}, {}, {}}}) ==
        std::vector<std::string>{"parse-error"});
  CHECK(resolve({{std::vector<std::string>{"parse"}, {"meta"}, {"unsupported-format"}}}) ==
        std::vector<std::string>{"parse-error", "unused-suppression"});
  // A later layer's select discards the earlier layer, ignores included.
  CHECK(resolve({{std::nullopt, {}, {"parse-error"}},
                 {std::vector<std::string>{"parse-error"}, {}, {}}}) ==
        std::vector<std::string>{"parse-error"});
  // An earlier ignore holds when the later layer only extends.
  const std::vector<std::string> without = resolve({{std::nullopt, {}, {"parse"}}, {}});
  CHECK(std::find(without.begin(), without.end(), "parse-error") == without.end());
  CHECK(resolve({{std::vector<std::string>{"ALL"}, {}, {"ALL"}}}).empty());

  absl::StatusOr<std::vector<const Rule*>> bad =
      ResolveSelection(all, {{std::vector<std::string>{"parse-eror"}, {}, {}}});
  REQUIRE(!bad.ok());
  CHECK(std::string(bad.status().message()) ==
        "unknown rule or category 'parse-eror' (did you mean 'parse-error'?)");
}

TEST_CASE("ClosestMatch suggests only plausible typos") {
  CHECK(ClosestMatch("reshape-not-bitcat", {"reshape-not-bitcast", "parse-error"}) ==
        "reshape-not-bitcast");
  CHECK(ClosestMatch("completely-different", {"parse-error"}).empty());
}

TEST_CASE("ConfigFinder picks the nearest .hlolint.json and reports broken ones") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "hlolint_config_finder_test";
  fs::remove_all(root);
  fs::create_directories(root / "a" / "b");
  fs::create_directories(root / "c");
  std::ofstream(root / ".hlolint.json") << R"({"fail-on": "note"})";
  std::ofstream(root / "a" / "b" / ".hlolint.json") << R"({"fail-on": "warning"})";
  std::ofstream(root / "c" / ".hlolint.json") << R"({"fail-on": 3})";
  ConfigFinder finder(AllRules());
  std::vector<ConfigError> error;
  bool failed = false;
  auto top = finder.ForInput((root / "a" / "x.hlo").string(), &error, &failed);
  REQUIRE(!failed);
  REQUIRE(top);
  CHECK(top->fail_on == Severity::kNote);
  auto nearest = finder.ForInput((root / "a" / "b" / "y.hlo").string(), &error, &failed);
  REQUIRE(nearest);
  CHECK(nearest->fail_on == Severity::kWarning);
  CHECK(finder.ForInput((root / "a" / "z.hlo").string(), &error, &failed) == top);  // cached
  CHECK(finder.ForInput((root / "c" / "w.hlo").string(), &error, &failed) == nullptr);
  CHECK(failed);
  REQUIRE(error.size() == 1);
  CHECK(error[0].line == 1);
  CHECK(error[0].column == 13);
  fs::remove_all(root);
}

// docs/hlolint-config.schema.json is written by hand: it must list what the
// registry declares, options included (tests/cli checks it validates alike).
TEST_CASE("The configuration schema lists every rule, category and rule option") {
  std::ifstream in(std::string(HLOLINT_SOURCE_DIR) + "/docs/hlolint-config.schema.json");
  REQUIRE(in);
  const nlohmann::json schema = nlohmann::json::parse(in);
  const nlohmann::json& rules = schema["properties"]["rules"]["properties"];
  std::vector<std::string> ids;
  for (const auto& item : rules.items()) ids.push_back(item.key());
  std::vector<std::string> specifiers = schema["definitions"]["specifier"]["enum"];
  std::vector<std::string> expected_specifiers = {"ALL"};
  for (RuleCategory category : kRuleCategories) {
    expected_specifiers.emplace_back(CategoryName(category));
  }
  std::vector<std::string> expected_ids;
  for (const Rule* rule : AllRules()) {
    expected_ids.emplace_back(rule->info().id);
    expected_specifiers.emplace_back(rule->info().id);
    const nlohmann::json& options = rules[std::string(rule->info().id)]["properties"];
    std::vector<std::string> names;
    for (const auto& item : options.items()) names.push_back(item.key());
    std::vector<std::string> declared;
    for (const RuleOption& option : rule->info().options) {
      declared.emplace_back(option.name);
      CHECK(options[std::string(option.name)]["description"] == option.description);
      const char* type = option.type == RuleOptionType::kByteCount ? "integer" : "array";
      CHECK(options[std::string(option.name)]["type"] == type);
    }
    std::sort(names.begin(), names.end());
    std::sort(declared.begin(), declared.end());
    CHECK(names == declared);
  }
  std::sort(ids.begin(), ids.end());
  std::sort(expected_ids.begin(), expected_ids.end());
  CHECK(ids == expected_ids);
  std::sort(specifiers.begin(), specifiers.end());
  std::sort(expected_specifiers.begin(), expected_specifiers.end());
  CHECK(specifiers == expected_specifiers);
  // "verify-options": every HloVerifierOpts name hlolint reads, with its
  // description and hlolint's default.
  const nlohmann::json& verify = schema["properties"]["verify-options"]["properties"];
  std::vector<std::string> listed;
  for (const auto& item : verify.items()) listed.push_back(item.key());
  std::vector<std::string> known;
  for (const VerifierOptionInfo& option : VerifierOptionInfos()) {
    known.emplace_back(option.name);
    const nlohmann::json& entry = verify[std::string(option.name)];
    CHECK(entry["description"] == option.description);
    CHECK(entry["default"] == VerifierOptions{}.*(option.field));
  }
  std::sort(listed.begin(), listed.end());
  std::sort(known.begin(), known.end());
  CHECK(listed == known);
}

TEST_CASE("verify-options sets HloVerifierOpts and rejects unknown names and non-booleans") {
  const std::vector<const Rule*> all = AllRules();
  Config config;
  std::vector<ConfigError> errors;
  REQUIRE(ParseConfig(R"({"verify-options": {"allow_mixed_precision": false,
      "verify_unique_channel_ids": true}})", "c.json", all, &config, &errors));
  VerifierOptions expected;
  expected.allow_mixed_precision = false;
  expected.verify_unique_channel_ids = true;
  CHECK(config.verifier_options == expected);
  CHECK_FALSE(ParseConfig(R"({"verify-options": {"layout_sensitiv": true, "layout_sensitive": 1}})",
                          "c.json", all, &config, &errors));
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].ToString() ==
        "c.json:1:21: error: unknown verifier option 'layout_sensitiv' (did you mean "
        "'layout_sensitive'?)");
  CHECK(errors[1].ToString() ==
        "c.json:1:66: error: verifier option 'layout_sensitive' expects true or false");
}

}  // namespace
}  // namespace hlolint
