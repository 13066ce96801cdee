// The machine formats: json, json-lines, sarif, github and junit.
#include <catch2/catch.hpp>

#include "nlohmann/json.hpp"
#include "report/report.h"
#include "report_test_util.h"

namespace hlolint {
namespace {

struct Fixture {
  std::vector<FileResult> files = report_test::SampleResults();
  std::vector<RuleDescription> rules = report_test::SampleRules();
  ReportInput input;
  Fixture() {
    input.files = &files;
    input.rules = &rules;
    input.tool_version = "9.9.9";
    input.working_directory = "/work";
  }
};

TEST_CASE("json carries every documented field") {
  Fixture f;
  const nlohmann::json doc = nlohmann::json::parse(RenderJson(f.input));
  CHECK(doc["version"] == 1);
  CHECK(doc["tool"]["version"] == "9.9.9");
  REQUIRE(doc["files"].size() == 2);
  CHECK(doc["files"][1]["path"] == "dumps/clean.hlo");
  CHECK(doc["files"][1]["modules"] == 2);
  REQUIRE(doc["diagnostics"].size() == 2);
  const nlohmann::json& d = doc["diagnostics"][0];
  CHECK(d["rule"] == "reshape-not-bitcast");
  CHECK(d["severity"] == "error");
  CHECK(d["file"] == "dumps/a,b:c.hlo");
  CHECK(d["line"] == 4);
  CHECK(d["column"] == 3);
  CHECK(d["end_line"] == 4);
  CHECK(d["end_column"] == 4);
  CHECK(d["module"] == "m");
  CHECK(d["computation"] == "e");
  CHECK(d["instruction"] == "r");
  CHECK(d["source"]["file"] == "model.py");
  CHECK(d["source"]["line"] == 42);
  CHECK(d["fingerprint"] == "0123456789abcdef");
  CHECK(d["fix"] == "give 'r' the layout {1,0}");
  REQUIRE(d["notes"].size() == 2);
  CHECK(d["notes"][0]["line"] == 3);
  CHECK(!d["notes"][1].contains("line"));
  CHECK(!doc["diagnostics"][1].contains("fix"));
  CHECK(!doc["diagnostics"][1].contains("source"));
  CHECK(doc["summary"]["errors"] == 1);
  CHECK(doc["summary"]["warnings"] == 1);
  CHECK(doc["summary"]["notes"] == 0);
  CHECK(doc["summary"]["modules"] == 3);
}

TEST_CASE("json-lines prints the json diagnostics one per line") {
  Fixture f;
  const std::string text = RenderJsonLines(f.input);
  const nlohmann::json doc = nlohmann::json::parse(RenderJson(f.input));
  size_t start = 0;
  for (const nlohmann::json& expected : doc["diagnostics"]) {
    const size_t end = text.find('\n', start);
    REQUIRE(end != std::string::npos);
    CHECK(nlohmann::json::parse(text.substr(start, end - start)) == expected);
    start = end + 1;
  }
  CHECK(start == text.size());
}

TEST_CASE("sarif lists the rules and locates results with fingerprints") {
  Fixture f;
  const nlohmann::json log = nlohmann::json::parse(RenderSarif(f.input));
  CHECK(log["version"] == "2.1.0");
  const nlohmann::json& run = log["runs"][0];
  const nlohmann::json& rules = run["tool"]["driver"]["rules"];
  REQUIRE(rules.size() == 2);
  CHECK(rules[0]["id"] == "reshape-not-bitcast");
  CHECK(rules[0]["name"] == "ReshapeNotBitcast");
  CHECK(rules[0]["shortDescription"]["text"] == "Reshape that is not a bitcast");
  CHECK(rules[0]["fullDescription"]["text"] == "A reshape whose layouts move data.\n\nMore text.");
  CHECK(rules[0]["help"]["markdown"] == f.rules[0].documentation);
  CHECK(rules[0]["defaultConfiguration"]["level"] == "error");
  CHECK(rules[1]["fullDescription"]["text"] == "Suppression that silences nothing");
  CHECK(rules[1]["help"]["text"] == "Suppression that silences nothing");
  const nlohmann::json& results = run["results"];
  REQUIRE(results.size() == 2);
  const nlohmann::json& r = results[0];
  CHECK(r["ruleId"] == "reshape-not-bitcast");
  CHECK(r["ruleIndex"] == 0);
  CHECK(r["level"] == "error");
  const nlohmann::json& location = r["locations"][0]["physicalLocation"];
  CHECK(location["artifactLocation"]["uri"] == "dumps/a,b%3Ac.hlo");
  CHECK(location["region"] == nlohmann::json{{"startLine", 4}, {"startColumn", 3},
                                             {"endLine", 4}, {"endColumn", 4}});
  CHECK(r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "m/e/r");
  REQUIRE(r["relatedLocations"].size() == 3);  // two notes and the program source
  CHECK(r["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 3);
  CHECK(!r["relatedLocations"][1].contains("physicalLocation"));
  CHECK(r["relatedLocations"][2]["physicalLocation"]["artifactLocation"]["uri"] == "model.py");
  CHECK(r["partialFingerprints"]["hlolint/v1"] == "0123456789abcdef");
  CHECK(r["partialFingerprints"]["primaryLocationLineHash"] == "0123456789abcdef:1");
  CHECK(results[1]["ruleIndex"] == 1);
  CHECK(results[1]["level"] == "warning");
  CHECK(run["invocations"][0]["executionSuccessful"] == true);
}

TEST_CASE("sarif makes absolute paths under the working directory relative") {
  Fixture f;
  f.files[0].path = "/work/dumps/x.hlo";
  f.files[1].path = "/elsewhere/y.hlo";
  f.files[1].diagnostics = f.files[0].diagnostics;
  const nlohmann::json log = nlohmann::json::parse(RenderSarif(f.input));
  const nlohmann::json& results = log["runs"][0]["results"];
  CHECK(results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "dumps/x.hlo");
  CHECK(results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "file:///elsewhere/y.hlo");
}

TEST_CASE("github escapes data and properties and summarises") {
  Fixture f;
  const std::string text = RenderGithub(f.input);
  CHECK(text.find("::error file=dumps/a%2Cb%3Ac.hlo,line=4,col=3,endLine=4,endColumn=4,"
                  "title=hlolint (reshape-not-bitcast)::reshape 'r' is not a bitcast (100%25 "
                  "sure)%0Anote: dumps/a,b:c.hlo:3:3: operand produced here%0Anote: a note "
                  "without a place%0Asource: model.py:42%0Ahelp: give 'r' the layout {1,0}\n") == 0);
  CHECK(text.find("::warning file=dumps/a%2Cb%3Ac.hlo,line=7,col=10,endLine=7,endColumn=16,"
                  "title=hlolint (unused-suppression)::first line%0Asecond line\n") !=
        std::string::npos);
  CHECK(text.find("hlolint: 1 error, 1 warning in 2 files\n") != std::string::npos);
  CHECK(text.find("GitHub shows only") == std::string::npos);
}

TEST_CASE("github warns when annotations would be dropped") {
  Fixture f;
  for (int i = 0; i < 10; ++i) f.files[0].diagnostics.push_back(f.files[0].diagnostics[1]);
  const std::string text = RenderGithub(f.input);
  CHECK(text.find("hlolint: 11 warning annotations, but GitHub shows only 10 per severity and "
                  "step") != std::string::npos);
  CHECK(text.find("error annotations") == std::string::npos);
}

TEST_CASE("junit has a test case per failing finding, one per other file, an error per unreadable file") {
  Fixture f;
  std::string xml = RenderJunit(f.input);
  CHECK(xml.find("<testsuites name=\"hlolint\" tests=\"2\" failures=\"1\" errors=\"0\">") !=
        std::string::npos);
  CHECK(xml.find("<testcase name=\"dumps/clean.hlo\" classname=\"hlolint\"/>") !=
        std::string::npos);
  CHECK(xml.find(" file=") == std::string::npos);  // not in the Jenkins schema
  CHECK(xml.find("<failure type=\"reshape-not-bitcast\"") != std::string::npos);
  CHECK(xml.find("<failure type=\"unused-suppression\"") == std::string::npos);
  CHECK(xml.find("<system-out>dumps/a,b:c.hlo:7:10: warning: first line&#10;second line") !=
        std::string::npos);
  f.input.fail_on = {Severity::kWarning, Severity::kWarning};
  xml = RenderJunit(f.input);
  CHECK(xml.find("<failure type=\"unused-suppression\"") != std::string::npos);
  CHECK(xml.find("tests=\"3\" failures=\"2\"") != std::string::npos);  // one case each
  f.files[1].io_error = true;
  f.files[1].io_error_message = "No such file <x>";
  xml = RenderJunit(f.input);
  CHECK(xml.find("errors=\"1\"") != std::string::npos);
  CHECK(xml.find("<error type=\"unreadable\" message=\"No such file &lt;x&gt;\"/>") !=
        std::string::npos);
}

}  // namespace
}  // namespace hlolint
