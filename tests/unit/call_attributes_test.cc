// CallAttributes: every output_to_operand_aliasing and custom_call_target of
// a module, read in one merged text-order pass, must equal what the attribute
// readers give instruction by instruction.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analysis/analyses.h"
#include "analysis/call_attributes.h"
#include "parse_helpers.h"

using namespace hlolint;
using namespace hlolint::parse_testing;

namespace {

// Aliasing alone (fusions), a target alone, both, a shared aliasing text, an
// escaped target, and instructions with neither, interleaved.
constexpr char kText[] = R"(HloModule m

fused {
  p0 = f32[8]{0} parameter(0)
  ROOT n = f32[8]{0} negate(p0)
}

ENTRY e {
  a = f32[8]{0} parameter(0)
  f1 = f32[8]{0} fusion(a), kind=kLoop, calls=fused, output_to_operand_aliasing={{}: (0, {})}
  c1 = f32[8]{0} custom-call(f1), custom_call_target="plain"
  c2 = f32[8]{0} custom-call(c1), custom_call_target="kernel", output_to_operand_aliasing={{}: (0, {})}
  f2 = f32[8]{0} fusion(c2), kind=kLoop, calls=fused, output_to_operand_aliasing={{}: (0, {})}
  c3 = (f32[8]{0}, f32[8]{0}) custom-call(f2, c2), custom_call_target="esc\"aped", output_to_operand_aliasing={{1}: (1, {}), {0}: (0, {})}
  g = f32[8]{0} get-tuple-element(c3), index=0
  ROOT c4 = f32[8]{0} custom-call(g), custom_call_target="kernel"
})";

struct Counts {
  size_t with_aliasing = 0;
  size_t with_target = 0;
};

// Checks every instruction's values against the attribute readers; counts
// the instructions that have each.
Counts CheckAgainstReaders(const Module& m, const CallAttributes& attributes) {
  Counts counts;
  for (InstrId id = 0; id < m.instruction_count(); ++id) {
    INFO("instruction " << std::string(m.name(id)));
    const std::vector<OutputOperandAlias> expected = OutputToOperandAliasing(m, id);
    const std::vector<OutputOperandAlias>& aliasing = attributes.Aliasing(id);
    REQUIRE(aliasing.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      CHECK(aliasing[i].output_index == expected[i].output_index);
      CHECK(aliasing[i].operand == expected[i].operand);
      CHECK(aliasing[i].operand_index == expected[i].operand_index);
    }
    CHECK(attributes.Target(id) == CustomCallTarget(m, id));
    counts.with_aliasing += !aliasing.empty();
    counts.with_target += !attributes.Target(id).empty();
  }
  return counts;
}

}  // namespace

TEST_CASE("CallAttributes gives each instruction's aliasing and target", "[call-attributes]") {
  const Parsed parsed = Parse(kText);
  Analyses analyses(parsed.m());
  const CallAttributes& attributes = analyses.Get<CallAttributes>();
  const Counts counts = CheckAgainstReaders(parsed.m(), attributes);
  CHECK(counts.with_aliasing == 4);
  CHECK(counts.with_target == 4);
  CHECK(attributes.Target(parsed.Id("c3")) == "esc\"aped");
  CHECK(attributes.Aliasing(parsed.Id("c3")).size() == 2);
  CHECK(attributes.Target(parsed.Id("c4")) == "kernel");
}

TEST_CASE("CallAttributes finds the right values across many words of instructions",
          "[call-attributes]") {
  // 300 instructions, so the lookup crosses several 64-instruction words;
  // every third one is a custom call with its own target, every fifth of
  // those declares aliasing.
  std::string text = "HloModule m\n\nENTRY e {\n  p = f32[8]{0} parameter(0)\n";
  std::string last = "p";
  for (int i = 0; i < 300; ++i) {
    const std::string name = "i" + std::to_string(i);
    if (i % 3 == 0) {
      text += "  " + name + " = f32[8]{0} custom-call(" + last + "), custom_call_target=\"t" +
              std::to_string(i) + "\"";
      if (i % 5 == 0) text += ", output_to_operand_aliasing={{}: (0, {})}";
      text += "\n";
    } else {
      text += "  " + name + " = f32[8]{0} negate(" + last + ")\n";
    }
    last = name;
  }
  text += "  ROOT r = f32[8]{0} copy(" + last + ")\n}\n";
  const Parsed parsed = Parse(text);
  Analyses analyses(parsed.m());
  const Counts counts = CheckAgainstReaders(parsed.m(), analyses.Get<CallAttributes>());
  CHECK(counts.with_target == 100);
  CHECK(counts.with_aliasing == 20);
}
