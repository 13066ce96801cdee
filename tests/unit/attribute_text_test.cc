// AttributeText reads an attribute's value back from the text. The IR keeps
// no end offset per instruction, so the value of an instruction's last
// attribute ends where LastAttributeValueEnd's scan says: these tests pin
// that scan against what follows a last attribute in our inputs and the
// corpus.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>

#include "analysis/attribute_text.h"
#include "parse_helpers.h"

namespace hlolint::parse_testing {
namespace {

TEST_CASE("AttributeText: a last attribute ends with its value, whatever follows it") {
  Parsed p = Parse(R"(HloModule m

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}

ENTRY e {
  p = f32[8]{0} parameter(0), sharding={devices=[2]0,1}
  q = f32[8]{0} negate(p), sharding={devices=[2]0,1 /* } */}
  %r1 = f32[8]{0} all-reduce(p), replica_groups=[2,2]<=[2,2]T(1,0), to_apply=%add
  r2 = f32[8]{0} all-reduce(p), to_apply=%add, replica_groups=[2,2]<=[2,2]T(1,0)
  r3 = f32[8]{0} all-reduce(r2), to_apply=%add, replica_groups={{0,1},{2,3}} /* a comment */
  %r4=f32[8]{0} all-reduce(r3), to_apply=%add, replica_groups=[1,4]<=[4]
  r5 = f32[8]{0} all-reduce(r4), to_apply=%add, frontend_attributes={a="}"}, replica_groups={}
  // a line comment
  c = f32[8]{0} custom-call(r5), custom_call_target="k",
      sharding={replicated}
  ROOT t = (f32[8]{0}, f32[8]{0}) tuple(c, r1), sharding={{replicated}, {maximal device=0}})"
                   "\n}\n");
  const Module& m = p.m();
  // Followed by the next instruction's bare name and ' = '.
  CHECK(AttributeText(m, p.Id("p"), AttrName::kSharding) == "{devices=[2]0,1}");
  // A bracket in a comment is not one of the value's.
  CHECK(AttributeText(m, p.Id("q"), AttrName::kSharding) == "{devices=[2]0,1 /* } */}");
  // Followed by a ',' and the next attribute: bounded by that one's name.
  CHECK(AttributeText(m, p.Id("r1"), AttrName::kReplicaGroups) == "[2,2]<=[2,2]T(1,0)");
  // Followed by a %name.
  CHECK(AttributeText(m, p.Id("r1"), AttrName::kToApply) == "%add");
  // Tokens at the outer level ('<=', 'T', brackets) stay in the value.
  CHECK(AttributeText(m, p.Id("r2"), AttrName::kReplicaGroups) == "[2,2]<=[2,2]T(1,0)");
  // Followed by a comment, then `name=` (which lexes as an attribute name).
  CHECK(AttributeText(m, p.Id("r3"), AttrName::kReplicaGroups) == "{{0,1},{2,3}}");
  CHECK(AttributeText(m, p.Id("r4"), AttrName::kReplicaGroups) == "[1,4]<=[4]");
  CHECK(AttributeText(m, p.Id("r5"), AttrName::kFrontendAttributes) == "{a=\"}\"}");
  // Followed by a line comment and the next instruction.
  CHECK(AttributeText(m, p.Id("r5"), AttrName::kReplicaGroups) == "{}");
  // On the next line, followed by ROOT.
  CHECK(AttributeText(m, p.Id("c"), AttrName::kSharding) == "{replicated}");
  // Followed by the computation's closing brace.
  CHECK(AttributeText(m, p.Id("t"), AttrName::kSharding) ==
        "{{replicated}, {maximal device=0}}");
  CHECK(AttributeText(m, p.Id("t"), AttrName::kReplicaGroups).empty());
}

// Skips blanks and comments from `at`; returns where the next token starts.
size_t SkipBlanksAndComments(std::string_view text, size_t at) {
  while (at < text.size()) {
    if (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r') {
      ++at;
    } else if (text.substr(at, 2) == "/*") {
      const size_t close = text.find("*/", at + 2);
      at = close == std::string_view::npos ? text.size() : close + 2;
    } else if (text.substr(at, 2) == "//") {
      const size_t newline = text.find('\n', at);
      at = newline == std::string_view::npos ? text.size() : newline + 1;
    } else {
      break;
    }
  }
  return at;
}

// For every named instruction with attributes in the modules parsed from
// `dir`: after the value of its last attribute (as LastAttributeValueEnd
// ends it) come only blanks, comments, and then the next instruction of its
// computation (`ROOT`, '%', its name) or the computation's closing brace.
// So the scan neither stops inside the instruction nor runs past it.
// Reads every `stride`-th file. Returns the instructions checked.
size_t CheckLastAttributesUnder(const std::filesystem::path& dir, size_t stride = 1) {
  size_t checked = 0;
  ForEachModuleUnder(dir, [&](const std::string& path, const SourceFile& file, const Module& m) {
    const std::string_view text(file.data(), file.size());
    for (CompId c = 0; c < m.computation_count(); ++c) {
      std::vector<InstrId> named;
      for (InstrId id : m.instructions(c)) {
        if (!m.instr(id).has(Instruction::kAnonymous)) named.push_back(id);
      }
      for (size_t k = 0; k < named.size(); ++k) {
        const auto attributes = m.attributes(named[k]);
        if (attributes.empty()) continue;
        const Attribute& last = *std::max_element(
            attributes.begin(), attributes.end(),
            [](const Attribute& a, const Attribute& b) { return a.value_offset < b.value_offset; });
        const uint32_t end = LastAttributeValueEnd(m, last.value_offset);
        const uint32_t next = k + 1 < named.size() ? m.instr(named[k + 1]).name_offset
                                                   : m.computation(c).end_offset - 1;
        size_t at = SkipBlanksAndComments(text, end);
        if (text.substr(at, 4) == "ROOT") at = SkipBlanksAndComments(text, at + 4);
        if (at < next && text[at] == '%') ++at;
        if (end <= last.value_offset || at != next) {
          FAIL(path << ": the last attribute of " << m.name(named[k]) << " ends at " << end
                    << ", then comes " << text.substr(end, 40));
        }
        ++checked;
      }
    }
  }, stride);
  return checked;
}

TEST_CASE("AttributeText: every last attribute ends where its instruction does, in our "
          "inputs and the corpus",
          "[corpus]") {
  CHECK(CheckLastAttributesUnder(std::filesystem::path(HLOLINT_SOURCE_DIR) / "tests") > 400);
  const std::filesystem::path corpus(HLOLINT_CORPUS_DIR);
  if (!std::filesystem::is_directory(corpus)) {
    WARN("corpus not found at " << corpus.string() << ": skipped");
    return;
  }
  CHECK(CheckLastAttributesUnder(corpus, kCorpusStride) > 100000 / kCorpusStride);
}

}  // namespace
}  // namespace hlolint::parse_testing
