// Attribute forms that only some producers print: MLIR-style dictionaries
// as backend_config (cuDNN fused attention in GPU benchmarks), Shardy's
// unquoted nested frontend attribute values, and the source positions every
// attribute keeps.
#include <catch2/catch.hpp>

#include <filesystem>

#include "parse_helpers.h"

namespace hlolint::parse_testing {
namespace {

TEST_CASE("attributes: backend_config as an MLIR-style dictionary is kept verbatim") {
  Parsed p = Parse(R"(HloModule m
ENTRY e {
  q = f32[4]{0} parameter(0)
  ROOT f = f32[4]{0} custom-call(q), custom_call_target="fmha", backend_config={attn_heads = 32 : i64, is_training = true, dropout = 0.000000e+00 : f64, mask = "a}b", dims = [1, 2]}
}
)");
  const Module& m = p.m();
  CHECK(RawStringAttr(m, p.Id("f"), AttrName::kBackendConfig) ==
        "{attn_heads = 32 : i64, is_training = true, dropout = 0.000000e+00 : f64, "
        "mask = \"a}b\", dims = [1, 2]}");
  CHECK_FALSE(StringAttr(m, p.Id("f"), AttrName::kBackendConfig));
  CHECK(CustomCallTarget(m, p.Id("f")) == "fmha");
  // Brace balance is what ends the value: an unbalanced one runs to the end.
  CHECK_PARSE_ERROR("HloModule m\nENTRY e {\n  q = f32[4]{0} parameter(0)\n"
                    "  ROOT f = f32[4]{0} custom-call(q), custom_call_target=\"x\", "
                    "backend_config={a = {b = 1 : i64}\n",
                    "4:77", "unterminated JSON object");
}

TEST_CASE("attributes: Shardy frontend attributes with unquoted nested values") {
  Parsed p = Parse(R"(HloModule m, frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<["x"=2, "y"=4]>, empty_mesh = #sdy.mesh<[]>}, xla.sdy.use_tuple_args="t"}
ENTRY e {
  a = f32[8]{0} parameter(0), frontend_attributes={xla.sdy.sharding="#sdy.sharding<@mesh, [{\"x\"}]>"}
  ROOT n = f32[8]{0} negate(a), frontend_attributes={xla.sdy.sharding_rule={rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>}, _xla_stream_annotation="1"}
}
)");
  const Module& m = p.m();
  CHECK(p.At(m.header().frontend_attributes_offset) == "1:14");
  CHECK(FrontendAttribute(m, p.Id("a"), "xla.sdy.sharding") == "#sdy.sharding<@mesh, [{\"x\"}]>");
  CHECK(FrontendAttribute(m, p.Id("n"), "xla.sdy.sharding_rule") ==
        "{rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>}");
  CHECK(FrontendAttribute(m, p.Id("n"), "_xla_stream_annotation") == "1");
}

TEST_CASE("attributes: every attribute keeps the position of its name and value") {
  Parsed p = Parse(R"(HloModule m
ENTRY e {
  a = f32[2,3]{1,0} parameter(0)
  ROOT t = f32[3,2]{1,0} transpose(a), dimensions={1,0}, metadata={op_name="t"}
}
)");
  const Module& m = p.m();
  const InstrId t = p.Id("t");
  const Attribute* dims = m.FindAttribute(t, AttrName::kDimensions);
  REQUIRE(dims != nullptr);
  CHECK(p.At(m.attribute_name_offset(*dims)) == "4:40");
  CHECK(p.At(dims->value_offset) == "4:51");
  const Attribute* metadata = m.FindAttribute(t, AttrName::kMetadata);
  REQUIRE(metadata != nullptr);
  CHECK(p.At(m.attribute_name_offset(*metadata)) == "4:58");
  CHECK(p.At(metadata->value_offset) == "4:67");
  // The typed value is read back from that position.
  CHECK(IntListAttr(m, t, AttrName::kDimensions) == std::vector<int64_t>{1, 0});
  CHECK_FALSE(dims->name_apart);  // found back from the value's offset
}

TEST_CASE("attributes: a name apart from its value is still found") {
  // A space or a comment after '=' moves the value away from the name: the
  // module keeps those names' positions in a table of their own.
  Parsed p = Parse(R"(HloModule m
ENTRY e {
  a = f32[2,3]{1,0} parameter(0)
  b = f32[3,2]{1,0} transpose(a), dimensions= {1,0}
  ROOT t = f32[3,2]{1,0} transpose(a), metadata={op_name="t"}, dimensions=/* c */{1,0}
}
)");
  const Module& m = p.m();
  const Attribute* b_dims = m.FindAttribute(p.Id("b"), AttrName::kDimensions);
  REQUIRE(b_dims != nullptr);
  CHECK(b_dims->name_apart);
  CHECK(p.At(m.attribute_name_offset(*b_dims)) == "4:35");
  CHECK(p.At(b_dims->value_offset) == "4:47");
  const Attribute* t_dims = m.FindAttribute(p.Id("t"), AttrName::kDimensions);
  REQUIRE(t_dims != nullptr);
  CHECK(t_dims->name_apart);
  CHECK(p.At(m.attribute_name_offset(*t_dims)) == "5:64");
  const Attribute* t_metadata = m.FindAttribute(p.Id("t"), AttrName::kMetadata);
  REQUIRE(t_metadata != nullptr);
  CHECK_FALSE(t_metadata->name_apart);
  CHECK(p.At(m.attribute_name_offset(*t_metadata)) == "5:40");
  CHECK(IntListAttr(m, p.Id("t"), AttrName::kDimensions) == std::vector<int64_t>{1, 0});
  CHECK(m.FindAttribute(p.Id("a"), AttrName::kDimensions) == nullptr);
}


// Every attribute of every module parsed from `dir` (every `stride`-th
// file): the text at its name's offset is its name and '='. Returns the
// attributes checked.
size_t CheckAttributeNamesUnder(const std::filesystem::path& dir, size_t stride = 1) {
  size_t checked = 0;
  ForEachModuleUnder(dir, [&](const std::string& path, const SourceFile& file, const Module& m) {
    for (const Attribute& a : m.all_attributes()) {
      const std::string expected = std::string(AttrNameText(a.name)) + "=";
      const uint32_t at = m.attribute_name_offset(a);
      if (m.text(at, static_cast<uint32_t>(std::min<size_t>(expected.size(), file.size() - at))) !=
          expected) {
        FAIL(path << ": attribute " << expected << " not at offset " << at);
      }
      ++checked;
    }
  }, stride);
  return checked;
}

TEST_CASE("attributes: every name is where its offset says, in our inputs and the corpus",
          "[corpus]") {
  CHECK(CheckAttributeNamesUnder(std::filesystem::path(HLOLINT_SOURCE_DIR) / "tests") > 500);
  const std::filesystem::path corpus(HLOLINT_CORPUS_DIR);
  if (!std::filesystem::is_directory(corpus)) {
    WARN("corpus not found at " << corpus.string() << ": skipped");
    return;
  }
  CHECK(CheckAttributeNamesUnder(corpus, kCorpusStride) > 100000 / kCorpusStride);
}

}  // namespace
}  // namespace hlolint::parse_testing
