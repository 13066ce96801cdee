// RootReachability: which buffers flow into each computation's ROOT.
#include <catch2/catch.hpp>

#include "analysis/reachability.h"
#include "in_place_test_util.h"

using hlolint::RootReachability;
using hlolint::ShapeIndex;
using hlolint::ValueRef;
using hlolint::testing::ParseHlo;

TEST_CASE("reachability: tuple, get-tuple-element and bitcast are traced") {
  auto h = ParseHlo(R"(
HloModule m
ENTRY e {
  p = (f32[4]{0}, f32[4]{0}) parameter(0)
  g0 = f32[4]{0} get-tuple-element(p), index=0
  g1 = f32[4]{0} get-tuple-element(p), index=1
  b = f32[2,2]{1,0} bitcast(g1)
  n = f32[4]{0} negate(g0)
  ROOT t = (f32[4]{0}, f32[2,2]{1,0}) tuple(n, b)
}
)");
  const RootReachability& r = h.Get<RootReachability>();
  CHECK(r.TraceValue({h.Id("b"), {}}) == ValueRef{h.Id("p"), {1}});
  CHECK(r.TraceValue({h.Id("t"), {0}}) == ValueRef{h.Id("n"), {}});
  CHECK(r.RootOutputFor({h.Id("p"), {1}}) == ShapeIndex{1});
  CHECK_FALSE(r.RootOutputFor({h.Id("p"), {0}}).has_value());
  CHECK(r.RootOutputFor({h.Id("n"), {}}) == ShapeIndex{0});
  // The whole tuple parameter overlaps the returned element {1}.
  CHECK(r.RootOutputFor({h.Id("p"), {}}) == ShapeIndex{1});
  CHECK_FALSE(r.RootOutputFor({h.Id("g0"), {}}).has_value());
}

TEST_CASE("reachability: buffers are traced through in-place ops and while") {
  auto h = ParseHlo(R"(
HloModule m
cond {
  c = (f32[8]{0}) parameter(0)
  ROOT f = pred[] constant(false)
}
body {
  bp = (f32[8]{0}) parameter(0)
  ROOT bt = (f32[8]{0}) tuple(bp)
}
ENTRY e {
  p = f32[8]{0} parameter(0)
  u = f32[2]{0} parameter(1)
  i = s32[] parameter(2)
  d = f32[8]{0} dynamic-update-slice(p, u, i)
  init = (f32[8]{0}) tuple(d)
  w = (f32[8]{0}) while(init), condition=cond, body=body
  ROOT g = f32[8]{0} get-tuple-element(w), index=0
}
)");
  const RootReachability& r = h.Get<RootReachability>();
  CHECK(r.TraceValue({h.Id("g"), {}}) == ValueRef{h.Id("w"), {0}});
  CHECK(r.TraceBuffer({h.Id("g"), {}}) == ValueRef{h.Id("p"), {}});
  CHECK(r.RootOutputFor({h.Id("p"), {}}) == ShapeIndex{});
  // In the while body the parameter's element flows to the body ROOT.
  CHECK(r.RootOutputFor({h.Id("bp"), {0}}) == ShapeIndex{0});
}

TEST_CASE("reachability: entry parameters aliased by input_output_alias") {
  auto h = ParseHlo(R"(
HloModule m, input_output_alias={ {1}: (0, {}, may-alias) }
ENTRY e {
  p = f32[8]{0} parameter(0)
  q = f32[8]{0} parameter(1)
  n = f32[8]{0} negate(p)
  m = f32[8]{0} negate(q)
  ROOT t = (f32[8]{0}, f32[8]{0}) tuple(n, m)
}
)");
  const RootReachability& r = h.Get<RootReachability>();
  const hlolint::InputOutputAlias* alias = r.EntryAliasFor({h.Id("p"), {}});
  REQUIRE(alias != nullptr);
  CHECK(alias->output_index == ShapeIndex{1});
  CHECK(r.EntryAliasFor({h.Id("q"), {}}) == nullptr);
  CHECK(r.EntryAliasFor({h.Id("n"), {}}) == nullptr);
  CHECK_FALSE(r.RootOutputFor({h.Id("p"), {}}).has_value());
}

TEST_CASE("reachability: shape index overlap is a prefix relation") {
  CHECK(hlolint::IndicesOverlap({}, {1, 2}));
  CHECK(hlolint::IndicesOverlap({1}, {1, 2}));
  CHECK(hlolint::IndicesOverlap({1, 2}, {1}));
  CHECK_FALSE(hlolint::IndicesOverlap({0}, {1}));
  CHECK_FALSE(hlolint::IndicesOverlap({1, 0}, {1, 2}));
}
