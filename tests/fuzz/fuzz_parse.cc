// libFuzzer target: the parser alone, for speed (thousands of executions a
// second where the whole pipeline manages hundreds). Each input is parsed
// in ways that must record exactly the same: with the byte-wise fast paths,
// without them, and (every 8th input) on two threads with a cut at every
// computation boundary (the parallel driver). A crash, sanitizer report or
// hang is a bug; so is any difference between them.
//
// XLA-differential mode (docs/fuzzing.md): with HLOLINT_FUZZ_VERDICTS=DIR,
// each input is also written to DIR with hlolint's verdict in its name
// (<hash>.accept / <hash>.reject), up to HLOLINT_FUZZ_VERDICTS_MAX (10,000)
// files, for tests/xla/fuzz_differential.py to judge with XLA's parser.
// HLOLINT_FUZZ_XLA_VERSION (as --xla-version) sets the XLA parsed for.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "parse/parser.h"
#include "parse_describe.h"
#include "source/source_file.h"
#include "xla/profile.h"

namespace hlolint {
namespace {

bool Accepted(const std::vector<ParsedModule>& modules) {
  if (modules.empty()) return false;
  for (const ParsedModule& parsed : modules) {
    if (parsed.error || parsed.module == nullptr) return false;
  }
  return true;
}

// Differential mode: where inputs go, and how many may still go there.
struct VerdictSink {
  VerdictSink() {
    const char* dir = std::getenv("HLOLINT_FUZZ_VERDICTS");
    if (dir == nullptr || *dir == '\0') return;
    directory = dir;
    const char* max = std::getenv("HLOLINT_FUZZ_VERDICTS_MAX");
    left = max != nullptr ? std::strtol(max, nullptr, 10) : 10000;
  }
  void Record(std::string_view text, bool accepted) {
    if (directory.empty() || left <= 0) return;
    --left;
    char name[32];
    std::snprintf(name, sizeof name, "%016llx",
                  static_cast<unsigned long long>(std::hash<std::string_view>{}(text)));
    const std::string path = directory + "/" + name + (accepted ? ".accept" : ".reject");
    if (FILE* out = std::fopen(path.c_str(), "wb")) {
      std::fwrite(text.data(), 1, text.size(), out);
      std::fclose(out);
    }
  }
  std::string directory;
  long left = 0;
};

ParseLimits LimitsFromEnvironment() {
  ParseLimits limits;
  const char* version = std::getenv("HLOLINT_FUZZ_XLA_VERSION");
  if (version != nullptr && *version != '\0') {
    const std::optional<XlaProfile> xla = XlaProfile::Parse(version);
    if (!xla) {
      std::fprintf(stderr, "HLOLINT_FUZZ_XLA_VERSION: not an XLA version: %s\n", version);
      std::abort();
    }
    limits.xla = *xla;
  }
  return limits;
}

void Run(std::string_view text) {
  static VerdictSink* const sink = new VerdictSink();
  static const ParseLimits limits = LimitsFromEnvironment();
  const std::unique_ptr<SourceFile> file = SourceFile::FromString("fuzz/input.hlo", text);
  const std::vector<ParsedModule> fast = ParseAllModules(*file, limits);
  const std::string described = DescribeParse(fast);
  ParseLimits slow = limits;
  slow.fast_paths = false;
  if (DescribeParse(ParseAllModules(*file, slow)) != described) {
    __builtin_trap();  // the fast paths read this text differently
  }
  // Starting the second thread costs several times the rest of an
  // execution: every 8th input (by its hash, so a reproducer takes the same
  // path) keeps the target at thousands of executions a second
  // (docs/fuzzing.md).
  if (std::hash<std::string_view>{}(text) % 8 == 0) {
    ParseLimits two_threads = limits;
    two_threads.threads = 2;
    two_threads.parallel_min_bytes = 0;
    two_threads.parallel_chunk_bytes = 1;  // a cut at every computation boundary
    if (DescribeParse(ParseAllModules(*file, two_threads)) != described) {
      __builtin_trap();  // the parallel parse reads this text differently
    }
  }
  sink->Record(text, Accepted(fast));
}

}  // namespace
}  // namespace hlolint

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  hlolint::Run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
