// The editor's settings over the command line's: each key, the "hlolint"
// section, and what is wrong with them (named, the rest still applied).
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "lsp/settings.h"

using nlohmann::json;
using hlolint::api::ConfigSource;
using hlolint::api::Severity;
using hlolint::lsp::ApplySettings;
using hlolint::lsp::ServerSettings;

TEST_CASE("lsp settings: every key, under \"hlolint\" or not") {
  ServerSettings base;
  base.lint.config = ConfigSource::kDiscover;
  std::vector<std::string> errors;
  const json settings = {{"select", {"verify"}},
                         {"extendSelect", {"reshape-not-bitcast"}},
                         {"ignore", {"verify-shape"}},
                         {"severityOverrides", {{"verify", "warning"}}},
                         {"xlaVersion", "2026-06-03"},
                         {"backend", "gpu"},
                         {"assumePass", "after_layout-assignment"},
                         {"debounceMs", 0},
                         {"ruleDocsUrl", "https://example.org/{rule}"},
                         {"path", "/usr/bin/hlolint"}};
  for (const json& given : {settings, json{{"hlolint", settings}}}) {
    const ServerSettings out = ApplySettings(base, given, &errors);
    CHECK(errors.empty());
    CHECK(out.lint.select == std::vector<std::string>{"verify"});
    CHECK(out.lint.extend_select == std::vector<std::string>{"reshape-not-bitcast"});
    CHECK(out.lint.ignore == std::vector<std::string>{"verify-shape"});
    REQUIRE(out.lint.severity_overrides.size() == 1);
    CHECK(out.lint.severity_overrides[0] == std::pair<std::string, Severity>{"verify", Severity::kWarning});
    CHECK(out.lint.xla_version == "2026-06-03");
    CHECK(out.lint.backend == "gpu");
    CHECK(out.lint.assume_pass == "after_layout-assignment");
    CHECK(out.debounce_ms == 0);
    CHECK(out.rule_docs_url == "https://example.org/{rule}");
    CHECK(out.lint.config == ConfigSource::kDiscover);
  }
}

TEST_CASE("lsp settings: configuration files") {
  ServerSettings base;
  base.lint.config = ConfigSource::kDiscover;
  std::vector<std::string> errors;
  ServerSettings out = ApplySettings(base, {{"configFile", "/etc/hlolint.json"}}, &errors);
  CHECK(out.lint.config == ConfigSource::kFile);
  CHECK(out.lint.config_file == "/etc/hlolint.json");
  out = ApplySettings(out, {{"configFile", nullptr}}, &errors);  // null: not set here
  CHECK(out.lint.config == ConfigSource::kFile);
  out = ApplySettings(base, {{"useConfigFiles", false}}, &errors);
  CHECK(out.lint.config == ConfigSource::kNone);
  out = ApplySettings(out, {{"useConfigFiles", true}}, &errors);
  CHECK(out.lint.config == ConfigSource::kDiscover);
  CHECK(errors.empty());
}

TEST_CASE("lsp settings: what is wrong is named, the rest applies") {
  ServerSettings base;
  std::vector<std::string> errors;
  const ServerSettings out = ApplySettings(base,
                                           {{"selekt", {"verify"}},
                                            {"ignore", "verify-shape"},
                                            {"severityOverrides", {{"verify", "fatal"}}},
                                            {"debounceMs", -5},
                                            {"xlaVersion", 3},
                                            {"backend", "cpu"}},
                                           &errors);
  // In the order of the keys (nlohmann::json sorts them).
  CHECK(errors == std::vector<std::string>{
                      "setting 'debounceMs': expected a number of milliseconds from 0 to 60000",
                      "setting 'ignore': expected a list of rule ids or categories",
                      "unknown setting 'selekt'",
                      "setting 'severityOverrides.verify': expected \"error\", \"warning\" or "
                      "\"note\"",
                      "setting 'xlaVersion': expected a string or null"});
  CHECK(out.lint.backend == "cpu");
  CHECK(out.lint.ignore.empty());
  CHECK(out.debounce_ms == base.debounce_ms);
  std::vector<std::string> not_an_object;
  ApplySettings(base, json::array(), &not_an_object);
  CHECK(not_an_object == std::vector<std::string>{"settings: expected an object"});
}

TEST_CASE("lsp settings: null is not set here, so the layer below shows through") {
  ServerSettings base;
  base.lint.select = std::vector<std::string>{"verify"};
  base.lint.xla_version = "2026-06-03";
  base.debounce_ms = 7;
  std::vector<std::string> errors;
  const ServerSettings out = ApplySettings(base,
                                           {{"select", nullptr},
                                            {"xlaVersion", nullptr},
                                            {"debounceMs", nullptr},
                                            {"severityOverrides", nullptr},
                                            {"notASetting", nullptr}},
                                           &errors);
  CHECK(errors == std::vector<std::string>{"unknown setting 'notASetting'"});
  CHECK(out.lint.select == std::vector<std::string>{"verify"});
  CHECK(out.lint.xla_version == "2026-06-03");
  CHECK(out.debounce_ms == 7);
}
