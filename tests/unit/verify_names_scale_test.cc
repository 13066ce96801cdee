// verify-names filters a large module's names in partitions (over 65,536
// instructions), a small one's at once: both must find the same clashes.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/lint.h"
#include "rules/registry.h"
#include "source/source_file.h"
#include "util/hash.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// `computations` computations of 8 instructions each (`a<c>_<i>`), called
// in turn by the entry. The first instruction of computation `clash_in`
// (none if -1) takes the name of computation 0's first, and `*line` is set
// to its 1-based line.
// With `names`, instruction i of computation c is named names[8 * c + i]
// instead, and the clash takes names[0].
std::string ModuleText(int computations, int clash_in, int* line,
                   const std::vector<std::string>* names = nullptr) {
  std::string text = "HloModule many_names\n";
  int at = 1;
  auto name_of = [&](int c, int i) {
    return names != nullptr ? (*names)[static_cast<size_t>(8 * c + i)] : StrCat("a", c, "_", i);
  };
  for (int c = 0; c < computations; ++c) {
    text += StrCat("comp", c, " {\n");
    ++at;
    std::string previous;
    for (int i = 0; i < 8; ++i) {
      const bool renamed = c == clash_in && i == 0;
      const std::string name = renamed ? name_of(0, 0) : name_of(c, i);
      if (renamed) *line = at + 1;
      const std::string body =
          i == 0 ? "f32[] parameter(0)" : StrCat("f32[] negate(", previous, ")");
      text += StrCat(i == 7 ? "  ROOT " : "  ", name, " = ", body, "\n");
      ++at;
      previous = name;
    }
    text += "}\n";
    ++at;
  }
  text += "ENTRY e {\n  p = f32[] parameter(0)\n";
  std::string last = "p";
  for (int c = 0; c < computations; ++c) {
    const std::string name = StrCat("call", c);
    text += StrCat(c + 1 == computations ? "  ROOT " : "  ", name, " = f32[] call(", last,
                   "), to_apply=comp", c, "\n");
    last = name;
  }
  text += "}\n";
  return text;
}

std::vector<Diagnostic> VerifyNames(const std::string& text) {
  LintOptions options;
  for (const Rule* rule : AllRules()) {
    if (rule->info().id == "verify-names" || rule->info().id == "parse-error") {
      options.rules.push_back(rule);
    }
  }
  options.known_rules = AllRules();
  const auto file = SourceFile::FromString("t.hlo", text);
  return LintSource(*file, options).diagnostics;
}

TEST_CASE("verify-names finds a clash in a small and in a partitioned module",
          "[verify-names]") {
  // 100 computations: 900 instructions, one filter. 10,000: 90,000
  // instructions, in partitions.
  for (int computations : {100, 10000}) {
    for (int clash_in : {1, computations / 2, computations - 1}) {
      INFO(computations << " computations, clash in comp" << clash_in);
      int line = 0;
      const std::string text = ModuleText(computations, clash_in, &line);
      const std::vector<Diagnostic> found = VerifyNames(text);
      REQUIRE(found.size() == 1);
      CHECK(found[0].rule == "verify-names");
      CHECK(found[0].resolved.line == static_cast<uint32_t>(line));
      CHECK(found[0].resolved.column == 3);
      CHECK(found[0].message ==
            "name 'a0_0' is also used in computation 'comp0'; XLA's parser renames this "
            "instruction");
      REQUIRE(found[0].notes.size() == 2);
      CHECK(found[0].notes[0].resolved.line == 3u);
    }
    int line = 0;
    CHECK(VerifyNames(ModuleText(computations, -1, &line)).empty());
  }
}

TEST_CASE("verify-names finds a clash when the names crowd one partition", "[verify-names]") {
  // 9,000 computations (72,000 instructions, two partitions by the top bit
  // of the name's hash) whose names all have that bit clear: the partition
  // overflows the room of its expected half, and the keys are counted
  // before they are spread. A clash near the end (its key among the last
  // spread) is found all the same.
  constexpr int kComputations = 9000;
  std::vector<std::string> names;
  for (int k = 0; names.size() < 8 * kComputations; ++k) {
    std::string name = StrCat("n", k);
    if ((StringViewHash()(name) >> 63) == 0) names.push_back(std::move(name));
  }
  int line = 0;
  const std::vector<Diagnostic> found =
      VerifyNames(ModuleText(kComputations, kComputations - 2, &line, &names));
  REQUIRE(found.size() == 1);
  CHECK(found[0].resolved.line == static_cast<uint32_t>(line));
  CHECK(found[0].message ==
        StrCat("name '", names[0], "' is also used in computation 'comp0'; XLA's parser "
               "renames this instruction"));
  CHECK(VerifyNames(ModuleText(kComputations, -1, &line, &names)).empty());
}

}  // namespace
}  // namespace hlolint
