// A large file's text must not stay resident through a full lint: the
// parser and every analysis or rule that reads text go in text order and
// release behind them (SourceFile::ReleasePages). A reader that jumps
// around instead keeps most of the file mapped, which peak RSS shows only
// on files of hundreds of MB.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/analyses.h"
#include "engine/rule.h"
#include "nlohmann/json.hpp"
#include "parse/parser.h"
#include "rules/registry.h"
#include "proc_smaps.h"
#include "source/source_file.h"
#include "util/hash.h"

namespace hlolint {
namespace {

namespace fs = std::filesystem;

// Resident KB of the file's text, or -1.
long ResidentKb(const SourceFile& file) {
  return ResidentKbInRange(file.data(), file.data() + file.size());
}

// Custom calls whose aliasing the in-place and aliasing analyses read, and
// fusions, spread over a file above the release threshold.
std::string AliasingDump() {
  std::string text =
      "HloModule release_test, is_scheduled=true\n\n"
      "%fused (a: f32[8], i: s32[]) -> f32[8] {\n"
      "  %a = f32[8]{0} parameter(0)\n"
      "  %i = s32[] parameter(1)\n"
      "  %u = f32[1]{0} constant({1})\n"
      "  ROOT %d = f32[8]{0} dynamic-update-slice(f32[8]{0} %a, f32[1]{0} %u, s32[] %i)\n"
      "}\n\n"
      "ENTRY %main (p: f32[8], i: s32[]) -> f32[8] {\n"
      "  %p = f32[8]{0} parameter(0)\n"
      "  %i = s32[] parameter(1)\n";
  std::string previous = "%p";
  for (int k = 0; text.size() < 3 * SourceFile::kReleaseMinBytes + (2u << 20); ++k) {
    const std::string call = "%call." + std::to_string(k);
    const std::string fusion = "%fusion." + std::to_string(k);
    text += "  " + call + " = f32[8]{0} custom-call(f32[8]{0} " + previous +
            "), custom_call_target=\"update_" + std::to_string(k % 7) +
            "\", output_to_operand_aliasing={{}: (0, {})}, metadata={op_name=\"step/" +
            std::to_string(k) + "\" source_file=\"train.py\" source_line=" +
            std::to_string(k % 1000) + "}\n";
    text += "  " + fusion + " = f32[8]{0} fusion(f32[8]{0} " + call +
            ", s32[] %i), kind=kLoop, calls=%fused, output_to_operand_aliasing={{}: (0, {})}\n";
    previous = fusion;
  }
  text += "  ROOT %result = f32[8]{0} copy(f32[8]{0} " + previous + ")\n}\n";
  return text;
}

// `count` pairs of names whose hashes agree in the 32 bits a scope's name
// table keeps (and differ in the 64 the IR keeps).
std::vector<std::pair<std::string, std::string>> CollidingNamePairs(size_t count) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::unordered_map<uint32_t, std::string> seen;
  for (uint64_t i = 0; pairs.size() < count; ++i) {
    std::string name = "c." + std::to_string(i);
    const uint64_t hash = StringViewHash()(name);
    auto [it, inserted] = seen.emplace(static_cast<uint32_t>(hash), name);
    if (inserted || StringViewHash()(it->second) == hash) continue;
    pairs.emplace_back(it->second, std::move(name));
    seen.erase(it);
  }
  return pairs;
}

// The parser releases the text behind it, and reading a byte of released
// text maps its page (a whole 2 MB folio, where the page cache holds the
// file so) back in. Parses `text` from a mapped file and checks that none of
// the pages at `offsets` (text far behind the parser) is mapped afterwards.
void CheckParsedWithoutMapping(const std::string& text, const std::vector<size_t>& offsets) {
  const fs::path path = fs::temp_directory_path() /
                        ("hlolint_far_text_" + std::to_string(::getpid()) + ".hlo");
  { std::ofstream(path, std::ios::binary) << text; }
  auto file = SourceFile::Open(path.string(), path.string());
  REQUIRE(file.ok());
  const SourceFile& source = **file;
  fs::remove(path);
  int modules = 0;
  ParseModules(source, [&](ParsedModule&& parsed) {
    REQUIRE(parsed.module);
    ++modules;
    // The end of the text was just read: its page is mapped.
    if (PagePresent(source.data() + source.size() - 2) != 1) {
      WARN("skipped: /proc/self/pagemap does not show this process's pages");
      return;
    }
    for (size_t offset : offsets) {
      INFO("the text at offset " << offset);
      CHECK(PagePresent(source.data() + offset) == 0);
    }
  });
  CHECK(modules == 1);
}

// One computation of `%name = f32[] negate(f32[] %previous)` lines.
struct NegateChain {
  std::string text =
      "HloModule far\n\nENTRY %main (p: f32[]) -> f32[] {\n  %p = f32[] parameter(0)\n";
  std::string previous = "p";
  int filler = 0;
  void Define(const std::string& name) {
    text += "  %" + name + " = f32[] negate(f32[] %" + previous + ")\n";
    previous = name;
  }
  void FillTo(size_t size) {
    while (text.size() < size) Define("f." + std::to_string(filler++));
  }
  std::string Finish() const {
    return text + "  ROOT %r = f32[] negate(f32[] %" + previous + ")\n}\n";
  }
};

}  // namespace

// In a computation of millions of instructions, names whose 32-bit table
// hashes collide number in the thousands: telling them apart by their text
// kept most of such a file resident.
TEST_CASE("Names whose table hashes collide are told apart without reading released text",
          "[release]") {
  NegateChain chain;
  std::vector<size_t> early;
  const auto pairs = CollidingNamePairs(8);
  chain.FillTo(3u << 20);  // the first of each pair 3 MB in, the second 10 MB later
  for (const auto& pair : pairs) {
    early.push_back(chain.text.size() + 3);  // the name, after "  %"
    chain.Define(pair.first);
  }
  chain.FillTo(13u << 20);
  for (const auto& pair : pairs) chain.Define(pair.second);
  CheckParsedWithoutMapping(chain.Finish(), early);
}

// The parser knows a shape it has seen by its text: a shape last written
// far behind is matched against a copy, not against that text.
TEST_CASE("A shape last seen far behind is matched without reading released text",
          "[release]") {
  NegateChain chain;
  std::vector<size_t> early;
  chain.FillTo(3u << 20);
  early.push_back(chain.text.size() + 7);  // the shape, after "  %c = "
  chain.text += "  %c = f16[3,5]{1,0} constant({...})\n";
  early.push_back(chain.text.size() + 7);
  chain.text += "  %n = f16[3,5]{1,0} negate(f16[3,5]{1,0} %c)\n";
  chain.FillTo(13u << 20);
  chain.text += "  %m = f16[3,5]{1,0} constant({...})\n";
  chain.text += "  %k = f16[3,5]{1,0} negate(f16[3,5]{1,0} %m)\n";
  CheckParsedWithoutMapping(chain.Finish(), early);
}

TEST_CASE("After each rule, little of a large mapped file's text is resident",
          "[release]") {
  const fs::path path = fs::temp_directory_path() /
                        ("hlolint_lint_release_" + std::to_string(::getpid()) + ".hlo");
  const std::string text = AliasingDump();
  { std::ofstream(path, std::ios::binary) << text; }
  auto file = SourceFile::Open(path.string(), path.string());
  REQUIRE(file.ok());
  const SourceFile& source = **file;
  fs::remove(path);  // the mapping stays valid
  if (ResidentKb(source) < 0) {
    WARN("skipped: no /proc/self/smaps entry for the mapping");
    return;
  }
  // The rules one by one on the parsed module, as the engine runs them; the
  // parser and each reader release behind them, so after each step at most
  // a quarter of the text stays resident, and the last release stride with
  // its margin, which is held on up to two more 2 MB pages.
  const long limit_kb = static_cast<long>(
      (text.size() / 4 + TextReleaser::kStride + TextReleaser::kMargin + (4u << 20)) / 1024);
  static const nlohmann::json kNoOptions = nlohmann::json::object();
  std::vector<Diagnostic> diagnostics;
  int modules = 0;
  ParseModules(source, [&](ParsedModule&& parsed) {
    REQUIRE(parsed.module);
    ++modules;
    const Module& m = *parsed.module;
    CHECK(ResidentKb(source) < limit_kb);
    Analyses analyses(m);
    for (const Rule* rule : AllRules()) {
      RuleContext ctx(m, analyses, *rule, kNoOptions, nullptr, &diagnostics);
      rule->Check(ctx);
      INFO("after rule " << rule->info().id);
      CHECK(ResidentKb(source) < limit_kb);
    }
  });
  CHECK(modules == 1);
}

}  // namespace hlolint
