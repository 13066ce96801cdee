// SideEffects against every row of XLA's HasSideEffectNoRecurse table
// (xla-semantics F.3): the always-side-effecting opcodes, the collectives
// that depend on constrain_layout, channel_id and SPMD partitioning, custom
// calls by their flag, and HasSideEffect's recursion into called
// computations (async wrappers, while bodies, fusions).
#include <catch2/catch.hpp>

#include <string>

#include "analysis/side_effects.h"
#include "in_place_test_util.h"

using hlolint::SideEffects;
using hlolint::testing::ParseHlo;

namespace {

const char* kTable = R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
effectful {
  q = f32[4]{0} parameter(0)
  ROOT cb = f32[4]{0} custom-call(q), custom_call_target="callback", custom_call_has_side_effect=true
}
cond {
  c = f32[4]{0} parameter(0)
  ROOT t = pred[] constant(true)
}
effectful_body {
  w = f32[4]{0} parameter(0)
  tk = token[] after-all()
  of = token[] outfeed(w, tk)
  ROOT w2 = f32[4]{0} negate(w)
}
fused_effect {
  fp = f32[4]{0} parameter(0)
  ROOT fc = f32[4]{0} custom-call(fp), custom_call_target="callback", custom_call_has_side_effect=true
}
ENTRY e {
  x = f32[4]{0} parameter(0)
  s0 = f32[] parameter(1)
  tok = token[] after-all()
  send = (f32[4]{0}, u32[], token[]) send(x, tok), channel_id=1
  send-done = token[] send-done(send), channel_id=1
  recv = (f32[4]{0}, u32[], token[]) recv(tok), channel_id=2
  recv-done = (f32[4]{0}, token[]) recv-done(recv), channel_id=2
  rng = f32[4]{0} rng(s0, s0), distribution=rng_uniform
  rng-state = u64[2]{0} rng-get-and-update-state(), delta=1
  infeed = ((f32[4]{0}), token[]) infeed(tok)
  outfeed = token[] outfeed(x, tok)
  ar-start = f32[4]{0} all-reduce-start(x), replica_groups={}, to_apply=add
  ar-done = f32[4]{0} all-reduce-done(ar-start)
  ag-start = (f32[4]{0}, f32[8]{0}) all-gather-start(x), dimensions={0}, replica_groups={{0,1}}
  ag-done = f32[8]{0} all-gather-done(ag-start)
  cp-start = (f32[4]{0}, f32[4]{0}) collective-permute-start(x), source_target_pairs={{0,1}}
  cp-done = f32[4]{0} collective-permute-done(cp-start)
  cbcast = f32[4]{0} collective-broadcast(x), replica_groups={{0,1}}
  a2a.plain = f32[4]{0} all-to-all(x), replica_groups={{0,1}}, dimensions={0}
  a2a.chan = f32[4]{0} all-to-all(x), replica_groups={{0,1}}, dimensions={0}, channel_id=3
  a2a.layout = f32[4]{0} all-to-all(x), replica_groups={{0,1}}, dimensions={0}, constrain_layout=true
  ag.plain = f32[8]{0} all-gather(x), dimensions={0}, replica_groups={{0,1}}
  ag.chan = f32[8]{0} all-gather(x), dimensions={0}, replica_groups={{0,1}}, channel_id=4
  ag.layout = f32[8]{0} all-gather(x), dimensions={0}, replica_groups={{0,1}}, constrain_layout=true
  rs.plain = f32[2]{0} reduce-scatter(x), dimensions={0}, replica_groups={{0,1}}, to_apply=add
  rs.chan = f32[2]{0} reduce-scatter(x), dimensions={0}, replica_groups={{0,1}}, to_apply=add, channel_id=5
  rs.layout = f32[2]{0} reduce-scatter(x), dimensions={0}, replica_groups={{0,1}}, to_apply=add, constrain_layout=true
  cp.plain = f32[4]{0} collective-permute(x), source_target_pairs={{0,1}}
  cp.chan = f32[4]{0} collective-permute(x), source_target_pairs={{0,1}}, channel_id=6
  cc.effect = f32[4]{0} custom-call(x), custom_call_target="callback", custom_call_has_side_effect=true
  cc.flag_false = f32[4]{0} custom-call(x), custom_call_target="callback", custom_call_has_side_effect=false
  cc.aliasing = f32[4]{0} custom-call(x), custom_call_target="kernel", output_to_operand_aliasing={{}: (0, {})}
  dus = f32[4]{0} dynamic-update-slice(x, x, s0.i)
  async.start = ((f32[4]{0}), f32[4]{0}, u32[]) async-start(x), calls=effectful
  async.done = f32[4]{0} async-done(async.start)
  loop = f32[4]{0} while(x), condition=cond, body=effectful_body
  fusion = f32[4]{0} fusion(x), kind=kCustom, calls=fused_effect
  ROOT n = f32[4]{0} negate(x)
}
)";

struct Row {
  const char* name;
  bool no_recurse;       // HasSideEffectNoRecurse outside SPMD
  bool no_recurse_spmd;  // ... with num_partitions=2
  bool recursive;        // HasSideEffect (outside SPMD)
};

constexpr Row kRows[] = {
    {"send", true, true, true},
    {"send-done", true, true, true},
    {"recv", true, true, true},
    {"recv-done", true, true, true},
    {"rng", true, true, true},
    {"rng-state", true, true, true},
    {"infeed", true, true, true},
    {"outfeed", true, true, true},
    {"ar-start", true, true, true},
    {"ar-done", true, true, true},
    {"ag-start", true, true, true},
    {"ag-done", true, true, true},
    {"cp-start", true, true, true},
    {"cp-done", true, true, true},
    {"cbcast", true, true, true},
    {"a2a.plain", false, false, false},
    {"a2a.chan", true, false, true},
    {"a2a.layout", true, true, true},
    {"ag.plain", false, false, false},
    {"ag.chan", true, false, true},
    {"ag.layout", true, true, true},
    {"rs.plain", false, false, false},
    {"rs.chan", true, false, true},
    {"rs.layout", true, true, true},
    {"cp.plain", false, false, false},
    {"cp.chan", true, false, true},
    {"cc.effect", true, true, true},
    {"cc.flag_false", false, false, false},
    // In-place-ness is not a side effect.
    {"cc.aliasing", false, false, false},
    {"dus", false, false, false},
    // Only through the called computation.
    {"async.start", false, false, true},
    {"loop", false, false, true},
    {"fusion", false, false, true},
    {"x", false, false, false},
    {"n", false, false, false},
};

std::string Module(bool spmd) {
  std::string text = spmd ? "HloModule m, num_partitions=2\n" : "HloModule m\n";
  text += kTable;
  // s0.i: a scalar index for the dynamic-update-slice.
  const std::string marker = "  tok = token[] after-all()\n";
  text.insert(text.find(marker) + marker.size(), "  s0.i = s32[] parameter(2)\n");
  return text;
}

}  // namespace

TEST_CASE("side effects: every row of XLA's table, with and without SPMD") {
  auto plain = ParseHlo(Module(false));
  auto spmd = ParseHlo(Module(true));
  const SideEffects& a = plain.Get<SideEffects>();
  const SideEffects& b = spmd.Get<SideEffects>();
  CHECK_FALSE(a.uses_spmd_partitioning());
  CHECK(b.uses_spmd_partitioning());
  for (const Row& row : kRows) {
    INFO(row.name);
    CHECK(a.HasSideEffectNoRecurse(plain.Id(row.name)) == row.no_recurse);
    CHECK(b.HasSideEffectNoRecurse(spmd.Id(row.name)) == row.no_recurse_spmd);
    CHECK(a.HasSideEffect(plain.Id(row.name)) == row.recursive);
  }
}
