// SideEffects: XLA's HasSideEffectNoRecurse / HasSideEffect.
#include <catch2/catch.hpp>

#include "analysis/side_effects.h"
#include "in_place_test_util.h"

using hlolint::SideEffects;
using hlolint::testing::ParseHlo;

namespace {

const char* kCollectives = R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
effectful {
  q = f32[4]{0} parameter(0)
  ROOT cb = f32[4]{0} custom-call(q), custom_call_target="callback", custom_call_has_side_effect=true
}
pure {
  q2 = f32[4]{0} parameter(0)
  ROOT n = f32[4]{0} negate(q2)
}
ENTRY e {
  x = f32[4]{0} parameter(0)
  ar.chan = f32[4]{0} all-reduce(x), channel_id=1, replica_groups={}, to_apply=add
  ar.plain = f32[4]{0} all-reduce(x), replica_groups={}, to_apply=add
  ar.layout = f32[4]{0} all-reduce(x), replica_groups={}, constrain_layout=true, to_apply=add
  cp.chan = f32[4]{0} collective-permute(x), channel_id=2, source_target_pairs={{0,1}}
  cc = f32[4]{0} custom-call(x), custom_call_target="callback", custom_call_has_side_effect=true
  cc.pure = f32[4]{0} custom-call(x), custom_call_target="kernel"
  call.eff = f32[4]{0} call(x), to_apply=effectful
  call.pure = f32[4]{0} call(x), to_apply=pure
  tok = token[] after-all()
  out = token[] outfeed(x, tok)
  ROOT t = tuple(ar.chan, ar.plain, ar.layout, cp.chan, cc, cc.pure, call.eff, call.pure)
}
)";

}  // namespace

TEST_CASE("side effects: channel collectives outside SPMD, custom calls, calls") {
  auto h = ParseHlo(std::string("HloModule m\n") + kCollectives);
  const SideEffects& s = h.Get<SideEffects>();
  CHECK_FALSE(s.uses_spmd_partitioning());
  CHECK(s.HasSideEffect(h.Id("ar.chan")));
  CHECK_FALSE(s.HasSideEffect(h.Id("ar.plain")));
  CHECK(s.HasSideEffect(h.Id("ar.layout")));
  CHECK(s.HasSideEffect(h.Id("cp.chan")));
  CHECK(s.HasSideEffect(h.Id("cc")));
  CHECK_FALSE(s.HasSideEffect(h.Id("cc.pure")));
  CHECK(s.HasSideEffect(h.Id("out")));
  // Recursion into called computations.
  CHECK_FALSE(s.HasSideEffectNoRecurse(h.Id("call.eff")));
  CHECK(s.HasSideEffect(h.Id("call.eff")));
  CHECK_FALSE(s.HasSideEffect(h.Id("call.pure")));
  CHECK_FALSE(s.HasSideEffect(h.Id("x")));
}

TEST_CASE("side effects: num_partitions != 1 turns SPMD on") {
  auto h = ParseHlo(std::string("HloModule m, num_partitions=2\n") + kCollectives);
  const SideEffects& s = h.Get<SideEffects>();
  CHECK(s.uses_spmd_partitioning());
  CHECK_FALSE(s.HasSideEffect(h.Id("ar.chan")));
  CHECK_FALSE(s.HasSideEffect(h.Id("cp.chan")));
  // constrain_layout still makes an all-reduce side-effecting.
  CHECK(s.HasSideEffect(h.Id("ar.layout")));
  CHECK(s.HasSideEffect(h.Id("cc")));
}

TEST_CASE("side effects: async starts and dones of collectives") {
  auto h = ParseHlo(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4]{0} parameter(0)
  ars = f32[4]{0} all-reduce-start(x), replica_groups={}, to_apply=add
  ROOT ard = f32[4]{0} all-reduce-done(ars)
}
)");
  const SideEffects& s = h.Get<SideEffects>();
  CHECK(s.HasSideEffectNoRecurse(h.Id("ars")));
  CHECK(s.HasSideEffectNoRecurse(h.Id("ard")));
  // `add` is a called computation without side effects.
  CHECK_FALSE(s.HasSideEffect(h.Id("s")));
}
