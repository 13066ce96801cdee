// Fusion in-place pairs: XLA's discovery (tuple / get-tuple-element /
// bitcast, nested fusions peepholed) and the extended walk that also looks
// through reshape, transpose and copy.
#include <catch2/catch.hpp>

#include "analysis/in_place.h"
#include "in_place_test_util.h"

using hlolint::ExtendedFusionPair;
using hlolint::ExtendedFusionPairs;
using hlolint::InPlacePair;
using hlolint::InPlacePairs;
using hlolint::ShapeIndex;
using hlolint::testing::ParsedHlo;
using hlolint::testing::Pair;
using hlolint::testing::PairsOf;
using hlolint::testing::ParseHlo;

namespace {

std::vector<ExtendedFusionPair> ExtendedOf(const ParsedHlo& h, const char* name) {
  auto span = h.Get<ExtendedFusionPairs>().Get(h.Id(name));
  return {span.begin(), span.end()};
}

// A fused computation `f` whose body is `body` (with parameters p0: f32[4,8]
// and u: f32[1,8] / i: s32[] available), called by fusion `fu`.
ParsedHlo FusionModule(const std::string& body, const std::string& shape = "f32[4,8]{1,0}",
                       const std::string& extra_attrs = "") {
  return ParseHlo(R"(
HloModule m
f {
  p0 = f32[4,8]{1,0} parameter(0)
  u = f32[1,8]{1,0} parameter(1)
  i = s32[] parameter(2)
  z = s32[] constant(0)
)" + body + R"(
}
ENTRY e {
  a = f32[4,8]{1,0} parameter(0)
  b = f32[1,8]{1,0} parameter(1)
  c = s32[] parameter(2)
  ROOT fu = )" + shape + R"( fusion(a, b, c), kind=kLoop, calls=f)" + extra_attrs + R"(
}
)");
}

}  // namespace

TEST_CASE("fusion pairs: parameter -> dynamic-update-slice root") {
  auto h = FusionModule("  ROOT d = f32[4,8]{1,0} dynamic-update-slice(p0, u, i, z)");
  CHECK(PairsOf(h, "fu") == std::vector<InPlacePair>{Pair(0, {}, {})});
  auto ext = ExtendedOf(h, "fu");
  REQUIRE(ext.size() == 1);
  CHECK(ext[0].pair == Pair(0, {}, {}));
  CHECK(ext[0].blockers.empty());
  CHECK_FALSE(ext[0].missed_by_xla);
  CHECK(ext[0].in_place_op == h.Id("d"));
  CHECK(h.Get<ExtendedFusionPairs>().fusions_with_missed_pairs().empty());
}

TEST_CASE("fusion pairs: bitcast is looked through on both sides") {
  auto h = FusionModule(R"(  bc = f32[32]{0} bitcast(p0)
  bu = f32[8]{0} bitcast(u)
  d = f32[32]{0} dynamic-update-slice(bc, bu, i)
  ROOT out = f32[4,8]{1,0} bitcast(d))");
  CHECK(PairsOf(h, "fu") == std::vector<InPlacePair>{Pair(0, {}, {})});
  auto ext = ExtendedOf(h, "fu");
  REQUIRE(ext.size() == 1);
  CHECK(ext[0].blockers.empty());
  CHECK_FALSE(ext[0].missed_by_xla);
}

TEST_CASE("fusion pairs: a transpose before the update hides the pair from XLA") {
  auto h = FusionModule(R"(  t = f32[4,8]{0,1} transpose(p0), dimensions={0,1}
  ROOT d = f32[4,8]{0,1} dynamic-update-slice(t, u, i, z))",
                        "f32[4,8]{0,1}");
  CHECK(PairsOf(h, "fu").empty());
  auto ext = ExtendedOf(h, "fu");
  REQUIRE(ext.size() == 1);
  CHECK(ext[0].pair == Pair(0, {}, {}));
  CHECK(ext[0].blockers == std::vector<hlolint::InstrId>{h.Id("t")});
  CHECK(ext[0].missed_by_xla);
  CHECK(ext[0].in_place_op == h.Id("d"));
  CHECK(h.Get<ExtendedFusionPairs>().fusions_with_missed_pairs() ==
        std::vector<hlolint::InstrId>{h.Id("fu")});
}

TEST_CASE("fusion pairs: reshape and copy chains are recorded in order") {
  auto h = FusionModule(R"(  c1 = f32[4,8]{1,0} copy(p0)
  r1 = f32[32]{0} reshape(c1)
  bu = f32[8]{0} bitcast(u)
  d = f32[32]{0} dynamic-update-slice(r1, bu, i)
  ROOT r2 = f32[4,8]{1,0} reshape(d))");
  CHECK(PairsOf(h, "fu").empty());
  auto ext = ExtendedOf(h, "fu");
  REQUIRE(ext.size() == 1);
  // Output side first, then from the update towards the parameter.
  CHECK(ext[0].blockers == std::vector<hlolint::InstrId>{h.Id("r2"), h.Id("r1"), h.Id("c1")});
  CHECK(ext[0].missed_by_xla);
}

TEST_CASE("fusion pairs: an explicit output_to_operand_aliasing is not missed") {
  auto h = FusionModule(R"(  t = f32[4,8]{0,1} transpose(p0), dimensions={0,1}
  ROOT d = f32[4,8]{0,1} dynamic-update-slice(t, u, i, z))",
                        "f32[4,8]{0,1}", ", output_to_operand_aliasing={{}: (0, {})}");
  CHECK(PairsOf(h, "fu") == std::vector<InPlacePair>{Pair(0, {}, {})});
  auto ext = ExtendedOf(h, "fu");
  REQUIRE(ext.size() == 1);
  CHECK_FALSE(ext[0].blockers.empty());
  CHECK_FALSE(ext[0].missed_by_xla);
  CHECK(h.Get<ExtendedFusionPairs>().fusions_with_missed_pairs().empty());
}

TEST_CASE("fusion pairs: a pair missed without a blocker is not listed as missed") {
  // XLA follows get-tuple-element once, then bitcasts, and stops at g; the
  // extended walk alternates and reaches the update, but through nothing a
  // user could replace: the fusion is not among those with missed pairs.
  auto h = FusionModule(R"(  d = f32[4,8]{1,0} dynamic-update-slice(p0, u, i, z)
  t = (f32[4,8]{1,0}) tuple(d)
  g = f32[4,8]{1,0} get-tuple-element(t), index=0
  ROOT out = f32[4,8]{1,0} bitcast(g))");
  CHECK(PairsOf(h, "fu").empty());
  auto ext = ExtendedOf(h, "fu");
  REQUIRE(ext.size() == 1);
  CHECK(ext[0].blockers.empty());
  CHECK(ext[0].missed_by_xla);
  CHECK(h.Get<ExtendedFusionPairs>().fusions_with_missed_pairs().empty());
}

TEST_CASE("fusion pairs: a blocker off the update's path leaves the fusion unlisted") {
  auto h = FusionModule(R"(  c = f32[4,8]{1,0} copy(p0)
  n = f32[4,8]{1,0} negate(c)
  ROOT d = f32[4,8]{1,0} dynamic-update-slice(n, u, i, z))");
  CHECK(PairsOf(h, "fu").empty());
  CHECK(ExtendedOf(h, "fu").empty());
  CHECK(h.Get<ExtendedFusionPairs>().fusions_with_missed_pairs().empty());
}

TEST_CASE("fusion pairs: non-parameter sources and non-layout ops give no pair") {
  auto h = FusionModule(R"(  n = f32[4,8]{1,0} negate(p0)
  ROOT d = f32[4,8]{1,0} dynamic-update-slice(n, u, i, z))");
  CHECK(PairsOf(h, "fu").empty());
  CHECK(ExtendedOf(h, "fu").empty());
}

TEST_CASE("fusion pairs: tuple roots and get-tuple-element are followed") {
  auto h = ParseHlo(R"(
HloModule m
f {
  p0 = (f32[8]{0}, f32[8]{0}) parameter(0)
  u = f32[2]{0} parameter(1)
  i = s32[] parameter(2)
  g1 = f32[8]{0} get-tuple-element(p0), index=1
  d = f32[8]{0} dynamic-update-slice(g1, u, i)
  n = f32[8]{0} negate(g1)
  ROOT t = (f32[8]{0}, f32[8]{0}) tuple(n, d)
}
ENTRY e {
  a = (f32[8]{0}, f32[8]{0}) parameter(0)
  b = f32[2]{0} parameter(1)
  c = s32[] parameter(2)
  ROOT fu = (f32[8]{0}, f32[8]{0}) fusion(a, b, c), kind=kLoop, calls=f
}
)");
  CHECK(PairsOf(h, "fu") == std::vector<InPlacePair>{Pair(0, {1}, {1})});
}

TEST_CASE("fusion pairs: nested in-place fusions are peepholed") {
  auto h = ParseHlo(R"(
HloModule m
inner {
  q = f32[8]{0} parameter(0)
  v = f32[2]{0} parameter(1)
  j = s32[] parameter(2)
  ROOT d = f32[8]{0} dynamic-update-slice(q, v, j)
}
outer {
  p0 = f32[8]{0} parameter(0)
  u = f32[2]{0} parameter(1)
  i = s32[] parameter(2)
  nf = f32[8]{0} fusion(p0, u, i), kind=kLoop, calls=inner
  ROOT d2 = f32[8]{0} dynamic-update-slice(nf, u, i)
}
ENTRY e {
  a = f32[8]{0} parameter(0)
  b = f32[2]{0} parameter(1)
  c = s32[] parameter(2)
  ROOT fu = f32[8]{0} fusion(a, b, c), kind=kLoop, calls=outer
}
)");
  CHECK(PairsOf(h, "nf") == std::vector<InPlacePair>{Pair(0, {}, {})});
  CHECK(PairsOf(h, "fu") == std::vector<InPlacePair>{Pair(0, {}, {})});
  auto ext = ExtendedOf(h, "fu");
  REQUIRE(ext.size() == 1);
  CHECK_FALSE(ext[0].missed_by_xla);
}

TEST_CASE("fusion pairs: scatter behind a transpose (the seed 000 shape)") {
  auto h = ParseHlo(R"(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
f {
  w = f32[16,64]{1,0} parameter(0)
  ids = s32[8,1]{1,0} parameter(1)
  g = f32[8,16]{1,0} parameter(2)
  wt = f32[64,16]{1,0} transpose(w), dimensions={1,0}
  ROOT sc = f32[64,16]{1,0} scatter(wt, ids, g), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
}
ENTRY e {
  a = f32[16,64]{1,0} parameter(0)
  b = s32[8,1]{1,0} parameter(1)
  c = f32[8,16]{1,0} parameter(2)
  ROOT fu = f32[64,16]{1,0} fusion(a, b, c), kind=kLoop, calls=f
}
)");
  CHECK(PairsOf(h, "fu").empty());
  auto ext = ExtendedOf(h, "fu");
  REQUIRE(ext.size() == 1);
  CHECK(ext[0].pair == Pair(0, {}, {}));
  CHECK(ext[0].in_place_op == h.Id("sc"));
  CHECK(ext[0].blockers == std::vector<hlolint::InstrId>{h.Id("wt")});
}

TEST_CASE("fusion pairs: a copy between memory spaces is not looked through") {
  auto h = ParseHlo(R"(
HloModule m
f {
  p = f32[8]{0:S(1)} parameter(0)
  u = f32[2]{0} parameter(1)
  i = s32[] parameter(2)
  c = f32[8]{0} copy(p)
  ROOT d = f32[8]{0:S(1)} dynamic-update-slice(c, u, i)
}
ENTRY e {
  a = f32[8]{0:S(1)} parameter(0)
  b = f32[2]{0} parameter(1)
  c = s32[] parameter(2)
  ROOT fu = f32[8]{0:S(1)} fusion(a, b, c), kind=kLoop, calls=f
}
)");
  CHECK(PairsOf(h, "fu").empty());
  CHECK(ExtendedOf(h, "fu").empty());
}
