// The name table of a large computation queues its inserts
// (ScopeNameTable::InsertOrQueue): names are still found at once, and a
// name defined twice is reported where an insert at once would have found
// it, before any later error.
#include <catch2/catch.hpp>
#include <functional>
#include <string>

#include "parse_helpers.h"
#include "util/strings.h"

namespace hlolint {
namespace {

using parse_testing::Failure;
using parse_testing::Parse;
using parse_testing::ParseFailure;

constexpr int kCount = 40000;  // the table queues from ~25,000 names on

// An entry computation of kCount adds after `p` (line 3): `x<i>` on line
// 3 + i adds x<i-2> and x<i-15>, so that operands are found among the
// queued names, and not only through the table's recent entries.
// `line_of(i)` may replace the line of x<i> (without its newline).
std::string Entry(const std::function<std::string(int)>& line_of = nullptr) {
  std::string text = "HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n";
  auto name = [](int i) { return i <= 0 ? std::string("p") : StrCat("x", i); };
  for (int i = 1; i <= kCount; ++i) {
    std::string line = line_of ? line_of(i) : "";
    if (line.empty()) {
      line = StrCat(i == kCount ? "  ROOT " : "  ", name(i), " = f32[] add(", name(i - 2), ", ",
                    name(i - 15), ")");
    }
    text += line + "\n";
  }
  return text + "}\n";
}

std::string Line(int i) { return std::to_string(3 + i); }

TEST_CASE("a large computation's queued names are found as operands", "[parser][names]") {
  const auto parsed = Parse(Entry());
  const Module& m = parsed.m();
  REQUIRE(m.instruction_count() == kCount + 1);
  const InstrId last = parsed.Id(StrCat("x", kCount));
  CHECK(m.name(m.operands(last)[0]) == StrCat("x", kCount - 2));
  CHECK(m.name(m.operands(last)[1]) == StrCat("x", kCount - 15));
}

TEST_CASE("a name defined twice in a large computation is reported at the second definition",
          "[parser][names]") {
  SECTION("far from the first") {
    const Failure f = ParseFailure(Entry([](int i) {
      return i == 35000 ? std::string("  x100 = f32[] add(x34998, x34985)") : "";
    }));
    CHECK(f.at == Line(35000) + ":3");
    CHECK(f.message == "instruction already exists: x100");
    CHECK(f.note_at == Line(100) + ":3");
    CHECK(f.note == "instruction previously defined here");
  }
  SECTION("right after the first") {
    const Failure f = ParseFailure(Entry([](int i) {
      return i == 35001 ? std::string("  x35000 = f32[] add(x34999, x34986)") : "";
    }));
    CHECK(f.at == Line(35001) + ":3");
    CHECK(f.message == "instruction already exists: x35000");
    CHECK(f.note_at == Line(35000) + ":3");
  }
  SECTION("before an error a few lines later") {
    const Failure f = ParseFailure(Entry([](int i) {
      if (i == 35000) return std::string("  x100 = f32[] add(x34998, x34985)");
      if (i == 35005) return std::string("  x35005 = f32[] negate(nope)");
      return std::string();
    }));
    CHECK(f.at == Line(35000) + ":3");
    CHECK(f.message == "instruction already exists: x100");
    CHECK(f.note_at == Line(100) + ":3");
  }
  SECTION("in the last line, which ends the computation") {
    const Failure f = ParseFailure(Entry([](int i) {
      return i == kCount ? StrCat("  ROOT x100 = f32[] add(x", kCount - 2, ", x", kCount - 15, ")")
                         : "";
    }));
    CHECK(f.at == Line(kCount) + ":8");
    CHECK(f.message == "instruction already exists: x100");
    CHECK(f.note_at == Line(100) + ":3");
  }
  SECTION("the module's counts stop at the second definition") {
    // Parsed further than that before the clash is found: an instruction
    // with an inline computation, then an error.
    const auto parsed = parse_testing::ParseAny(Entry([](int i) {
      if (i == 35000) return std::string("  x100 = f32[] add(x34998, x34985)");
      if (i == 35002) {
        return std::string(
            "  x35002 = f32[] reduce(x35001, x34999), dimensions={}, to_apply={\n"
            "    a = f32[] parameter(0)\n    b = f32[] parameter(1)\n"
            "    ROOT sum = f32[] add(a, b)\n  }");
      }
      if (i == 35004) return std::string("  x35004 = f32[] negate(nope)");
      return std::string();
    }));
    REQUIRE(parsed.modules.size() == 1);
    const ParsedModule& module = parsed.modules[0];
    REQUIRE(module.error);
    CHECK(parsed.At(module.error->offset) == Line(35000) + ":3");
    CHECK(module.error->message == "instruction already exists: x100");
    CHECK(module.instruction_count == 35001);  // p and x1..x35000
    CHECK(module.computation_count == 1);
  }
  SECTION("an error before the second definition comes first") {
    const Failure f = ParseFailure(Entry([](int i) {
      if (i == 35000) return std::string("  x35000 = f32[] negate(nope)");
      if (i == 35003) return std::string("  x100 = f32[] add(x35001, x34988)");
      return std::string();
    }));
    CHECK(f.at == Line(35000) + ":25");
    CHECK(f.message == "instruction does not exist: nope");
  }
}

}  // namespace
}  // namespace hlolint
