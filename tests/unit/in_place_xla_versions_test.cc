// InPlacePairs as XLA computed them on either side of each change to
// AliasInfo::GetInPlaceInputOutputPairs that hlolint tracks (xla/profile.h).
// The HLO of the nested-fusion cases follows XLA's own alias_info_test.cc.
#include <catch2/catch.hpp>

#include <vector>

#include "analysis/in_place.h"
#include "in_place_test_util.h"

using hlolint::Backend;
using hlolint::InPlacePair;
using hlolint::testing::Pair;
using hlolint::testing::PairsOf;
using hlolint::testing::ParseHlo;
using hlolint::testing::XlaOf;

namespace {

using Pairs = std::vector<InPlacePair>;

constexpr const char* kCollectivePermutesWithoutSlices = R"(
HloModule m
ENTRY e {
  in = f32[8]{0} parameter(0)
  out = f32[8]{0} parameter(1)
  o = s32[] constant(0)
  offs = (s32[]) tuple(o)
  cp = f32[8]{0} collective-permute(in, out, offs, offs), source_target_pairs={{0,1},{1,0}}
  cps = (f32[8]{0}, f32[8]{0}, u32[], u32[]) collective-permute-start(in, out, offs, offs), source_target_pairs={{0,1},{1,0}}
  cpd = f32[8]{0} collective-permute-done(cps)
  ROOT r = tuple(cp, cpd)
}
)";

}  // namespace

TEST_CASE("xla versions: a 4-operand collective-permute-start needs slice_sizes from 2026-04-21") {
  CHECK(PairsOf(ParseHlo(kCollectivePermutesWithoutSlices, XlaOf("2026-04-20")), "cps") ==
        Pairs{Pair(1, {}, {1})});
  CHECK(PairsOf(ParseHlo(kCollectivePermutesWithoutSlices, XlaOf("2026-04-21")), "cps").empty());
}

TEST_CASE("xla versions: a 4-operand collective-permute needs slice_sizes from 2026-06-29") {
  CHECK(PairsOf(ParseHlo(kCollectivePermutesWithoutSlices, XlaOf("2026-06-28")), "cp") ==
        Pairs{Pair(1, {}, {})});
  CHECK(PairsOf(ParseHlo(kCollectivePermutesWithoutSlices, XlaOf("2026-06-29")), "cp").empty());
  CHECK(PairsOf(ParseHlo(kCollectivePermutesWithoutSlices), "cp").empty());
}

TEST_CASE("xla versions: call-start keeps its aliasing, and done has pairs from 2026-07-13") {
  // AsyncStartForwardedOperand of alias_info_test.cc.
  constexpr const char* kText = R"(
HloModule m
async_computation {
  p = f32[2,3]{1,0} parameter(0)
  ROOT n = f32[2,3]{1,0} negate(p)
}
ENTRY e {
  p0 = f32[2,3]{1,0} parameter(0)
  start = ((f32[2,3]{1,0}), f32[2,3]{1,0}, s32[]) call-start(p0), to_apply=async_computation, output_to_operand_aliasing={{1}: (0, {})}
  update = ((f32[2,3]{1,0}), f32[2,3]{1,0}, s32[]) call-update(start)
  ROOT done = f32[2,3]{1,0} call-done(update)
}
)";
  auto latest = ParseHlo(kText);
  CHECK(PairsOf(latest, "start") == Pairs{Pair(0, {}, {1})});
  CHECK(PairsOf(latest, "update").empty());  // a classic update binds nothing
  CHECK(PairsOf(latest, "done") == Pairs{Pair(0, {0, 0}, {})});

  auto before = ParseHlo(kText, XlaOf("2026-07-12"));
  CHECK(PairsOf(before, "start") == Pairs{Pair(0, {}, {1})});
  CHECK(PairsOf(before, "done").empty());

  // Before 2026-01-08 an async-start had no aliasing of its own.
  CHECK(PairsOf(ParseHlo(kText, XlaOf("2026-01-07")), "start").empty());
}

TEST_CASE("xla versions: a late-bound async-update pairs its own operands from 2026-07-13") {
  // AsyncStart_LateBinding of alias_info_test.cc.
  constexpr const char* kText = R"(
HloModule m
async_computation {
  p = f32[2,3]{1,0} parameter(0)
  ROOT n = f32[2,3]{1,0} negate(p)
}
ENTRY e {
  p0 = f32[2,3]{1,0} parameter(0)
  start = ((), (), s32[]) async-start(), calls=async_computation, output_to_operand_aliasing={{1}: (0, {})}
  update = ((f32[2,3]{1,0}), f32[2,3]{1,0}) async-update(start, p0)
  ROOT done = f32[2,3]{1,0} async-done(update)
}
)";
  auto latest = ParseHlo(kText);
  CHECK(PairsOf(latest, "start").empty());  // no operands: nothing to alias yet
  CHECK(PairsOf(latest, "update") == Pairs{Pair(1, {}, {1})});
  CHECK(PairsOf(latest, "done") == Pairs{Pair(0, {0, 0}, {})});

  auto before = ParseHlo(kText, XlaOf("2026-07-12"));
  CHECK(PairsOf(before, "update").empty());
  CHECK(PairsOf(before, "done").empty());
}

TEST_CASE("xla versions: a nested fusion's aliasing is not inherited as output source from "
          "2026-06-03") {
  // NestedFusionAnnotationNotInheritedThroughBitcast, without the bitcast
  // (which hid the pair from the output side before 2026-06-03 anyway).
  constexpr const char* kText = R"(
HloModule m
copy_fusion {
  p0 = f32[4]{0} parameter(0)
  ROOT copy = f32[4]{0} copy(p0)
}
outer_fusion {
  p0 = f32[4]{0} parameter(0)
  ROOT nested = f32[4]{0} fusion(p0), kind=kLoop, output_to_operand_aliasing={{}: (0, {})}, calls=copy_fusion
}
ENTRY e {
  p0 = f32[4]{0} parameter(0)
  ROOT fusion = f32[4]{0} fusion(p0), kind=kLoop, calls=outer_fusion
}
)";
  CHECK(PairsOf(ParseHlo(kText, XlaOf("2026-06-02")), "fusion") == Pairs{Pair(0, {}, {})});
  CHECK(PairsOf(ParseHlo(kText, XlaOf("2026-06-03")), "fusion").empty());
  CHECK(PairsOf(ParseHlo(kText), "nested") == Pairs{Pair(0, {}, {})});
}

TEST_CASE("xla versions: a bitcast above the in-place op hides the pair before 2026-06-03") {
  // NestedFusionBodyAliasingThroughBitcast of alias_info_test.cc.
  constexpr const char* kText = R"(
HloModule m
inner_fusion {
  p0 = f32[4]{0} parameter(0)
  update = f32[2]{0} parameter(1)
  c0 = s32[] constant(0)
  ROOT dus = f32[4]{0} dynamic-update-slice(p0, update, c0)
}
outer_fusion {
  p0 = f32[4]{0} parameter(0)
  update = f32[2]{0} parameter(1)
  nested = f32[4]{0} fusion(p0, update), kind=kLoop, calls=inner_fusion
  ROOT bitcast = f32[2,2]{1,0} bitcast(nested)
}
ENTRY e {
  p0 = f32[4]{0} parameter(0)
  update = f32[2]{0} parameter(1)
  ROOT fusion = f32[2,2]{1,0} fusion(p0, update), kind=kLoop, calls=outer_fusion
}
)";
  CHECK(PairsOf(ParseHlo(kText), "fusion") == Pairs{Pair(0, {}, {})});
  CHECK(PairsOf(ParseHlo(kText, XlaOf("2026-06-02")), "fusion").empty());
}

TEST_CASE("xla versions: GPU looks through reshape in fusions from 2026-06-03") {
  // ReshapedFusedDynamicUpdateSliceCopy of gpu_copy_insertion_test.cc, and
  // the reshape on the parameter's side.
  constexpr const char* kText = R"(
HloModule m
fused_out {
  p0 = f32[8]{0} parameter(0)
  u = f32[2]{0} parameter(1)
  c0 = s32[] constant(0)
  dus = f32[8]{0} dynamic-update-slice(p0, u, c0)
  ROOT r = f32[2,4]{1,0} reshape(dus)
}
fused_in {
  p0 = f32[2,4]{1,0} parameter(0)
  u = f32[2]{0} parameter(1)
  c0 = s32[] constant(0)
  r = f32[8]{0} reshape(p0)
  ROOT dus = f32[8]{0} dynamic-update-slice(r, u, c0)
}
ENTRY e {
  a = f32[8]{0} parameter(0)
  b = f32[2,4]{1,0} parameter(1)
  u = f32[2]{0} parameter(2)
  out = f32[2,4]{1,0} fusion(a, u), kind=kLoop, calls=fused_out
  in = f32[8]{0} fusion(b, u), kind=kLoop, calls=fused_in
  ROOT t = tuple(out, in)
}
)";
  auto gpu = ParseHlo(kText, XlaOf("latest", Backend::kGpu));
  CHECK(PairsOf(gpu, "out") == Pairs{Pair(0, {}, {})});
  CHECK(PairsOf(gpu, "in") == Pairs{Pair(0, {}, {})});
  for (const auto& other : {XlaOf("latest", Backend::kCpu), XlaOf("latest"),
                            XlaOf("2026-06-02", Backend::kGpu)}) {
    auto h = ParseHlo(kText, other);
    CHECK(PairsOf(h, "out").empty());
    CHECK(PairsOf(h, "in").empty());
  }
}
