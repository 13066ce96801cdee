// The example of docs/api.md, compiled and run: keep the two the same.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

// --- docs/api.md example begins ---
#include "hlolint/hlolint.h"

namespace api = hlolint::api;

// Lints a file as `hlolint --format concise` would, with the layout rules off.
int PrintFindings(const std::string& path) {
  api::LintOptions options;
  options.config = api::ConfigSource::kDiscover;  // the nearest .hlolint.json applies
  options.ignore = {"layout"};
  const api::Linter linter(options);
  const api::LintResult result = linter.LintFile(path);
  for (const api::LintError& error : result.errors) std::cerr << error.message << "\n";
  for (const api::Diagnostic& d : result.diagnostics) {
    std::cout << d.location.path << ":" << d.location.line << ":" << d.location.column << ": "
              << api::SeverityName(d.severity) << ": " << d.message << " [" << d.rule << "]\n";
  }
  return result.ok() ? 0 : 2;
}

// What an editor asks: what is under the cursor, who uses it, where a name
// is defined.
void Explore(const std::string& text, api::Position cursor) {
  const api::Module module = api::Module::FromText(text, "buffer.hlo");
  for (const api::ParseProblem& problem : module.errors()) std::cerr << problem.message << "\n";
  if (std::optional<api::InstructionId> id = module.InstructionAt(cursor)) {
    const api::InstructionInfo info = *module.instruction(*id);
    std::cout << info.name << " = " << info.shape << " " << info.opcode << "\n";
    for (api::InstructionId user : module.users(*id)) {
      std::cout << "  used by " << module.instruction(user)->name << "\n";
    }
  }
  if (std::optional<api::Location> where = module.DefinitionAt(cursor)) {
    std::cout << "  defined at " << where->line << ":" << where->column << "\n";
  }
}
// --- docs/api.md example ends ---

namespace {

constexpr const char* kText = R"(HloModule example

ENTRY main {
  p = f32[4]{0} parameter(0)
  twice = f32[5]{0} add(p, p)
  ROOT out = f32[5]{0} negate(twice)
}
)";

// Runs `run` and returns what it printed on std::cout.
template <typename F>
std::string Printed(F run) {
  std::ostringstream captured;
  std::streambuf* saved = std::cout.rdbuf(captured.rdbuf());
  run();
  std::cout.rdbuf(saved);
  return captured.str();
}

}  // namespace

TEST_CASE("api: the example of docs/api.md") {
  const std::string path =
      (std::filesystem::temp_directory_path() / "hlolint_api_example.hlo").string();
  {
    std::ofstream out(path);
    out << kText;
  }
  int status = -1;
  const std::string findings = Printed([&] { status = PrintFindings(path); });
  std::remove(path.c_str());
  CHECK(status == 0);
  CHECK(findings == path +
                        ":5:3: error: [ShapeVerifier::HandleElementwiseBinary] Expected "
                        "instruction to have shape equal to f32[4], actual shape is f32[5] "
                        "[verify-shape]\n");

  CHECK(Printed([] { Explore(kText, {5, 3}); }) ==
        "twice = f32[5]{0} add\n  used by out\n  defined at 5:3\n");
  CHECK(Printed([] { Explore(kText, {6, 31}); }) ==
        "out = f32[5]{0} negate\n  defined at 5:3\n");
}
