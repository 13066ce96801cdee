// hlolint command line (minimal contract; see docs/cli.md).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "engine/lint.h"
#include "fmt/format.h"
#include "nlohmann/json.hpp"
#include "rules/registry.h"

namespace fs = std::filesystem;
using namespace hlolint;

namespace {

void CollectInputs(const std::string& arg, std::vector<std::string>* out) {
  std::error_code ec;
  if (fs::is_directory(arg, ec)) {
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(arg, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      const fs::path& p = it->path();
      std::string name = p.filename().string();
      if (!name.empty() && name[0] == '.') {
        if (it->is_directory(ec)) it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(ec)) continue;
      std::string ext = p.extension().string();
      if (ext == ".hlo" || ext == ".txt") found.push_back(p.string());
    }
    std::sort(found.begin(), found.end());
    out->insert(out->end(), found.begin(), found.end());
    return;
  }
  out->push_back(arg);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hlolint: a verifier and linter for XLA HLO text dumps"};
  std::vector<std::string> paths;
  std::string format = "concise";
  std::string select;
  bool exit_zero = false;
  app.add_option("paths", paths, "HLO files or directories")->required();
  app.add_option("--format", format, "Output format")->check(CLI::IsMember({"concise", "json"}));
  app.add_option("--select", select, "Comma-separated rule ids to report");
  app.add_flag("--exit-zero", exit_zero, "Exit with status 0 even when errors are reported");
  CLI11_PARSE(app, argc, argv);

  std::vector<std::string> inputs;
  for (const auto& p : paths) CollectInputs(p, &inputs);

  LintOptions options;
  options.rules = AllRules();
  bool io_failure = false;
  std::vector<FileResult> results;
  for (const auto& input : inputs) {
    FileResult r = LintFile(input, input, options);
    if (r.io_error) {
      std::cerr << "hlolint: " << r.io_error_message << "\n";
      io_failure = true;
    }
    if (!select.empty()) {
      std::vector<Diagnostic> kept;
      for (auto& d : r.diagnostics) {
        if (("," + select + ",").find("," + d.rule + ",") != std::string::npos) kept.push_back(std::move(d));
      }
      r.diagnostics = std::move(kept);
    }
    results.push_back(std::move(r));
  }

  size_t errors = 0, warnings = 0, notes = 0;
  for (const auto& r : results) {
    for (const auto& d : r.diagnostics) {
      if (d.severity == Severity::kError) ++errors;
      if (d.severity == Severity::kWarning) ++warnings;
      if (d.severity == Severity::kNote) ++notes;
    }
  }
  if (format == "json") {
    nlohmann::json doc;
    doc["version"] = 1;
    doc["tool"] = {{"name", "hlolint"}, {"version", "0.1.0"}};
    doc["files"] = nlohmann::json::array();
    doc["diagnostics"] = nlohmann::json::array();
    uint64_t modules = 0, computations = 0, instructions = 0;
    for (const auto& r : results) {
      doc["files"].push_back({{"path", r.path}, {"modules", r.modules}});
      modules += r.modules;
      computations += r.computations;
      instructions += r.instructions;
      for (const auto& d : r.diagnostics) {
        doc["diagnostics"].push_back({{"rule", d.rule},
                                      {"severity", SeverityName(d.severity)},
                                      {"message", d.message},
                                      {"file", r.path},
                                      {"line", d.resolved.line},
                                      {"column", d.resolved.column},
                                      {"module", d.module},
                                      {"computation", d.computation},
                                      {"instruction", d.instruction}});
      }
    }
    doc["summary"] = {{"files", results.size()}, {"modules", modules},
                      {"computations", computations}, {"instructions", instructions},
                      {"errors", errors}, {"warnings", warnings}, {"notes", notes}};
    std::cout << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    for (const auto& r : results) {
      for (const auto& d : r.diagnostics) {
        fmt::print("{}:{}:{}: {}: {} [{}]\n", r.path, d.resolved.line, d.resolved.column,
                   SeverityName(d.severity), d.message, d.rule);
      }
    }
  }
  if (io_failure) return 2;
  if (exit_zero) return 0;
  return errors > 0 ? 1 : 0;
}
