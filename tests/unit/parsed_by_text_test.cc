// ParsedByText parses an attribute value once per distinct value: by the
// parser's key where it gave one (no text read again), else by text.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/parsed_by_text.h"
#include "parse_helpers.h"

namespace hlolint {
namespace {

using parse_testing::Parse;
using parse_testing::Parsed;

constexpr const char* kCalls = R"(HloModule m

ENTRY %main (a: f32[4], b: f32[4]) -> (f32[4], f32[4], f32[4], f32[4]) {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %c1 = f32[4]{0} custom-call(%a), custom_call_target="k", output_to_operand_aliasing={{}: (0, {})}
  %c2 = f32[4]{0} custom-call(%b), custom_call_target="k", output_to_operand_aliasing={{}: (0, {})}
  %c3 = f32[4]{0} custom-call(%a), custom_call_target="k", output_to_operand_aliasing={ {}: (0, {}) }
  %c4 = f32[4]{0} custom-call(%b), custom_call_target="other"
  ROOT %t = (f32[4]{0}, f32[4]{0}, f32[4]{0}, f32[4]{0}) tuple(%c1, %c2, %c3, %c4)
}
)";

InstrId Named(const Module& m, std::string_view name) {
  for (InstrId id = 0; id < m.instruction_count(); ++id) {
    if (m.name(id) == name) return id;
  }
  FAIL("no instruction " << name);
  return kNoId;
}

uint32_t KeyOf(const Module& m, std::string_view name, AttrName attribute) {
  const Attribute* found = m.FindAttribute(Named(m, name), attribute);
  return found == nullptr ? ~0u : found->value_key;
}

TEST_CASE("custom call targets and aliasing are keyed: equal texts, equal keys") {
  Parsed p = Parse(kCalls);
  const Module& m = p.m();
  const uint32_t target = KeyOf(m, "c1", AttrName::kCustomCallTarget);
  CHECK(target != 0);
  CHECK(KeyOf(m, "c2", AttrName::kCustomCallTarget) == target);
  CHECK(KeyOf(m, "c3", AttrName::kCustomCallTarget) == target);
  CHECK(KeyOf(m, "c4", AttrName::kCustomCallTarget) != target);
  CHECK(KeyOf(m, "c4", AttrName::kCustomCallTarget) != 0);
  const uint32_t aliasing = KeyOf(m, "c1", AttrName::kOutputToOperandAliasing);
  CHECK(aliasing != 0);
  CHECK(aliasing != target);
  CHECK(KeyOf(m, "c2", AttrName::kOutputToOperandAliasing) == aliasing);
  CHECK(KeyOf(m, "c3", AttrName::kOutputToOperandAliasing) != aliasing);  // other blanks
  CHECK(KeyOf(m, "c3", AttrName::kOutputToOperandAliasing) != 0);
}

TEST_CASE("ParsedByText parses each distinct value once and returns it for every user") {
  Parsed p = Parse(kCalls);
  const Module& m = p.m();
  for (AttrName attribute : {AttrName::kCustomCallTarget, AttrName::kOutputToOperandAliasing}) {
    ParsedByText<std::string> values;
    std::vector<std::string> parsed;
    auto get = [&](std::string_view name) {
      return values.Get(m, Named(m, name), attribute, [&] {
        parsed.push_back(std::string(name));
        return std::string(name);
      });
    };
    if (attribute == AttrName::kCustomCallTarget) {
      CHECK(get("c1") == "c1");
      CHECK(get("c2") == "c1");  // the same key: c1's value, not parsed again
      CHECK(get("c3") == "c1");
      CHECK(get("c4") == "c4");
      CHECK(get("c1") == "c1");
      CHECK(parsed == std::vector<std::string>{"c1", "c4"});
    } else {
      CHECK(get("c1") == "c1");
      CHECK(get("c2") == "c1");
      CHECK(get("c3") == "c3");  // other text
      CHECK(get("c4") == "c4");  // none: the empty text, parsed once
      CHECK(parsed == std::vector<std::string>{"c1", "c3", "c4"});
    }
  }
}

}  // namespace
}  // namespace hlolint
