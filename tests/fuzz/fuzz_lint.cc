// libFuzzer target: the whole pipeline on arbitrary bytes. Each input is
// linted as one HLO file by every registered rule (so parsing, analyses,
// rules, suppressions, fingerprints and position resolution all run), and
// the result is rendered in every output format. Anything but a clean
// return (a crash, a sanitizer report, a hang, a leak) is a bug: hostile
// input must give located diagnostics. The input is also parsed with the
// parser's byte-level fast paths off, and both parses must record exactly
// the same (an oracle for the fast paths). docs/fuzzing.md says how to run it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/lint.h"
#include "parse/parser.h"
#include "parse_describe.h"
#include "report/report.h"
#include "rules/registry.h"
#include "source/source_file.h"

namespace hlolint {
namespace {

struct Setup {
  Setup() {
    options.rules = AllRules();
    options.known_rules = AllRules();
    for (const Rule* rule : AllRules()) {
      const RuleInfo& info = rule->info();
      rules.push_back({std::string(info.id), std::string(CategoryName(info.category)), info.default_severity,
                       std::string(info.summary), ""});  // the static pages would only slow it
    }
  }
  LintOptions options;
  std::vector<RuleDescription> rules;
};

void Run(std::string_view text) {
  static const Setup* const setup = new Setup();
  std::unique_ptr<SourceFile> file = SourceFile::FromString("fuzz/input.hlo", text);
  ParseLimits slow;
  slow.fast_paths = false;
  if (DescribeParse(ParseAllModules(*file)) != DescribeParse(ParseAllModules(*file, slow))) {
    __builtin_trap();  // the fast paths read this text differently
  }
  std::vector<FileResult> files;
  files.push_back(LintSource(*file, setup->options));
  // Reporters must not depend on the file any more (FileResult is self-contained).
  file.reset();
  ReportInput input;
  input.files = &files;
  input.rules = &setup->rules;
  input.tool_version = "fuzz";
  input.working_directory = "/fuzz";
  for (Format format : {Format::kFull, Format::kConcise, Format::kJson, Format::kJsonLines,
                        Format::kSarif, Format::kGithub, Format::kJunit}) {
    input.color = format == Format::kFull;
    std::string report = Render(format, input);
    const bool document = format == Format::kJson || format == Format::kSarif || format == Format::kJunit;
    if (document && report.empty()) __builtin_trap();  // these always write a whole document

  }
}

}  // namespace
}  // namespace hlolint

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  hlolint::Run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
