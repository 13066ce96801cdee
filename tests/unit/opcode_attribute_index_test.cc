// OpcodeIndex and AttributeIndex: the instructions of one opcode or with one
// attribute, in id (= text) order, and Collect's merge of several opcodes.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analysis/analyses.h"
#include "analysis/attribute_index.h"
#include "analysis/opcode_index.h"
#include "parse_helpers.h"

using namespace hlolint;
using namespace hlolint::parse_testing;

namespace {

constexpr char kText[] = R"(HloModule m

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY e {
  p = f32[8]{0} parameter(0)
  q = f32[8]{0} parameter(1), sharding={replicated}
  a = f32[8]{0} add(p, q)
  c = f32[8]{0} copy(a), sharding={maximal device=0}
  m = f32[8]{0} multiply(c, a)
  z = f32[] constant(0)
  r = f32[] reduce(m, z), dimensions={0}, to_apply=add
  ROOT t = (f32[8]{0}, f32[]) tuple(m, r)
})";

}  // namespace

TEST_CASE("OpcodeIndex groups instructions by opcode in text order", "[opcode-index]") {
  const Parsed parsed = Parse(kText);
  const Module& m = parsed.m();
  Analyses analyses(m);
  const OpcodeIndex& index = analyses.Get<OpcodeIndex>();

  CHECK(Names(m, index.Of(Opcode::kParameter)) == std::vector<std::string>{"x", "y", "p", "q"});
  CHECK(Names(m, index.Of(Opcode::kAdd)) == std::vector<std::string>{"s", "a"});
  CHECK(index.Of(Opcode::kWhile).empty());
  CHECK_FALSE(index.Has(Opcode::kFusion));
  CHECK(index.Has(Opcode::kReduce));

  // Several opcodes: merged back into id order, whatever order they are named in.
  CHECK(Names(m, index.Collect({Opcode::kMultiply, Opcode::kAdd, Opcode::kCopy})) ==
        std::vector<std::string>{"s", "a", "c", "m"});
  CHECK(Names(m, index.Collect([](Opcode op) {
          return op == Opcode::kConstant || op == Opcode::kTuple || op == Opcode::kCopy;
        })) == std::vector<std::string>{"c", "z", "t"});
  CHECK(index.Collect({Opcode::kWhile, Opcode::kFusion}).empty());

  size_t total = 0;
  for (int o = 0; o <= kOpcodeCount; ++o) total += index.Of(static_cast<Opcode>(o)).size();
  CHECK(total == m.instruction_count());
}

TEST_CASE("AttributeIndex lists the instructions carrying an attribute", "[attribute-index]") {
  const Parsed parsed = Parse(kText);
  const Module& m = parsed.m();
  Analyses analyses(m);
  const AttributeIndex& index = analyses.Get<AttributeIndex>();

  CHECK(Names(m, index.With(AttrName::kSharding)) == std::vector<std::string>{"q", "c"});
  CHECK(Names(m, index.With(AttrName::kToApply)) == std::vector<std::string>{"r"});
  CHECK(Names(m, index.With(AttrName::kDimensions)) == std::vector<std::string>{"r"});
  CHECK(index.With(AttrName::kOrigin).empty());
}

TEST_CASE("AttributeIndex agrees with a search of every instruction", "[attribute-index]") {
  // Hits dense and sparse, instructions without attributes in between: the
  // owner of each attribute is found by galloping over the records.
  std::string text = "HloModule m\n\nENTRY e {\n  p0 = f32[4]{0} parameter(0)\n";
  for (int i = 1; i < 300; ++i) {
    const std::string operand = "(p" + std::to_string(i - 1) + ")";
    std::string line = "  p" + std::to_string(i) + " = f32[4]{0} " +
                       (i % 11 == 0 ? "custom-call" + operand + ", custom_call_target=\"t\""
                                    : "negate" + operand);
    std::vector<std::string> attributes;
    if (i % 22 == 0) attributes.push_back("output_to_operand_aliasing={{}: (0, {})}");
    if (i % 3 != 0) attributes.push_back("metadata={op_name=\"n\"}");
    if (i % 7 == 0 || (i > 100 && i < 140)) attributes.push_back("sharding={replicated}");
    if (i == 299) attributes.push_back("frontend_attributes={a=\"b\"}");
    for (const std::string& a : attributes) line += ", " + a;
    text += line + "\n";
  }
  text += "}\n";
  auto file = SourceFile::FromString("many.hlo", text);
  auto modules = ParseAllModules(*file);
  REQUIRE(modules.size() == 1);
  REQUIRE_FALSE(modules[0].error);
  const Module& m = *modules[0].module;
  Analyses analyses(m);
  const AttributeIndex& index = analyses.Get<AttributeIndex>();
  // Sharding first: the names asked for on every module are listed in the
  // same scan, the others each in a scan of their own.
  for (AttrName name : {AttrName::kSharding, AttrName::kMetadata, AttrName::kCustomCallTarget,
                        AttrName::kFrontendAttributes, AttrName::kOutputToOperandAliasing,
                        AttrName::kOrigin}) {
    std::vector<InstrId> expected;
    for (InstrId id = 0; id < m.instruction_count(); ++id) {
      if (m.FindAttribute(id, name) != nullptr) expected.push_back(id);
    }
    const std::span<const InstrId> found = index.With(name);
    CHECK(std::vector<InstrId>(found.begin(), found.end()) == expected);
  }
  CHECK(index.With(AttrName::kSharding).size() == 76);
  CHECK(index.With(AttrName::kCustomCallTarget).size() == 27);
  CHECK(index.With(AttrName::kOutputToOperandAliasing).size() == 13);
}
