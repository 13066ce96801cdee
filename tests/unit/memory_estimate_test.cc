// analysis/memory_estimate.h and buffer_liveness.h: exact byte counts of
// small modules whose buffers and live ranges are counted by hand in the
// comments (docs/memory-report.md says what each figure holds).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analyses.h"
#include "analysis/buffer_liveness.h"
#include "analysis/memory_estimate.h"
#include "parse_helpers.h"

namespace hlolint::parse_testing {
namespace {

struct Estimated {
  Parsed parsed;
  MemoryEstimate estimate;
};

Estimated Estimate(const std::string& text) {
  Estimated e{Parse(text), {}};
  Analyses analyses(e.parsed.m());
  e.estimate = EstimateMemory(e.parsed.m(), analyses);
  return e;
}

std::vector<uint64_t> Timeline(const MemoryEstimate& e) {
  std::vector<uint64_t> bytes;
  for (const TimelinePoint& p : e.timeline) bytes.push_back(p.live_bytes);
  return bytes;
}

TEST_CASE("memory: tuples and get-tuple-element forward buffers, elementwise users reuse them") {
  // a: 256 B from 1; b (negate) writes over a, which dies there: 256 B
  // from 3 to 3; c: 128 B, read by r through t and g, and written over by
  // the output r (add), so it lives in r's buffer; t's index table: 16 B,
  // 64 when aligned, at 4 only (a tuple reads nothing).
  Estimated e = Estimate(R"(HloModule t1, is_scheduled=true

ENTRY e {
  p = f32[64]{0} parameter(0)
  a = f32[64]{0} exponential(p)
  b = f32[64]{0} negate(a)
  c = f32[32]{0} slice(b), slice={[0:32]}
  t = (f32[64]{0}, f32[32]{0}) tuple(b, c)
  g = f32[32]{0} get-tuple-element(t), index=1
  ROOT r = f32[32]{0} add(g, g)
}
)");
  const MemoryEstimate& m = e.estimate;
  CHECK(m.scheduled);
  CHECK(m.device.parameters_bytes == 256);
  CHECK(m.device.outputs_bytes == 128);
  CHECK(m.device.constants_bytes == 0);
  CHECK(m.device.temporaries_peak_bytes == 256);
  CHECK(m.device.total_bytes == 640);
  CHECK(m.device.peak_bytes == 512);
  CHECK(m.peak_instruction == "a");
  CHECK(m.peak_line == 5);
  CHECK(Timeline(m) == std::vector<uint64_t>{256, 512, 512, 512, 320, 256, 384});
  REQUIRE(m.top.size() == 2);
  CHECK(m.top[0].instruction == "p");
  CHECK(m.top[0].kind == "parameter");
  CHECK(m.top[1].instruction == "a");
  CHECK(m.top[1].kind == "temporary");
  CHECK(m.top[1].shape == "f32[64]{0}");
  CHECK(m.top[1].bytes == 256);
}

TEST_CASE("memory: an in-place dynamic-update-slice writes into its donated parameter") {
  Estimated e = Estimate(R"(HloModule t2, input_output_alias={ {}: (0, {}, may-alias) }

ENTRY e {
  buf = f32[256]{0} parameter(0)
  upd = f32[16]{0} parameter(1)
  i = s32[] parameter(2)
  ROOT d = f32[256]{0} dynamic-update-slice(buf, upd, i)
}
)");
  const MemoryEstimate& m = e.estimate;
  CHECK(m.device.parameters_bytes == 1024 + 64 + 4);
  CHECK(m.device.outputs_bytes == 0);
  CHECK(m.aliased_output_bytes == 0);
  CHECK(m.device.temporaries_peak_bytes == 0);
  CHECK(m.device.total_bytes == 1092);
  CHECK_FALSE(m.scheduled);
}

TEST_CASE("memory: an output that input_output_alias puts in a parameter adds nothing") {
  Estimated e = Estimate(R"(HloModule t3, input_output_alias={ {}: (0, {}, may-alias) }

ENTRY e {
  buf = f32[256]{0} parameter(0)
  ROOT d = f32[256]{0} add(buf, buf)
}
)");
  CHECK(e.estimate.device.outputs_bytes == 0);
  CHECK(e.estimate.aliased_output_bytes == 1024);
  CHECK(e.estimate.device.total_bytes == 1024);
}

TEST_CASE("memory: a while body's temporaries count at the while, its results are the loop state") {
  // Entry: a, b 1024 each; c (the loop state, then output {1}) 1024; the
  // init tuple's table 16 (64 aligned) lives up to the while; the root's
  // table 16. Body: t 4096 until r; r and j are the loop state. Constants
  // zero, one, n: 4 each. Output {0} is aliased to parameter 0.
  Estimated e = Estimate(R"(HloModule m, is_scheduled=true, input_output_alias={ {0}: (0, {}, must-alias) }

body {
  p = (f32[256]{0}, s32[]) parameter(0)
  x = f32[256]{0} get-tuple-element(p), index=0
  i = s32[] get-tuple-element(p), index=1
  t = f32[1024]{0} broadcast(x), dimensions={}
  r = f32[256]{0} slice(t), slice={[0:256]}
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT out = (f32[256]{0}, s32[]) tuple(r, j)
}

cond {
  p = (f32[256]{0}, s32[]) parameter(0)
  i = s32[] get-tuple-element(p), index=1
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}

ENTRY main {
  a = f32[256]{0} parameter(0)
  b = f32[256]{0} parameter(1)
  c = f32[256]{0} add(a, b)
  zero = s32[] constant(0)
  init = (f32[256]{0}, s32[]) tuple(c, zero)
  w = (f32[256]{0}, s32[]) while(init), condition=cond, body=body
  res = f32[256]{0} get-tuple-element(w), index=0
  d = f32[256]{0} multiply(res, a)
  ROOT o = (f32[256]{0}, f32[256]{0}) tuple(d, res)
}
)");
  const MemoryEstimate& m = e.estimate;
  CHECK(m.device.parameters_bytes == 2048);
  CHECK(m.device.outputs_bytes == 1024 + 16);
  CHECK(m.aliased_output_bytes == 1024);
  CHECK(m.device.constants_bytes == 12);
  CHECK(m.device.temporaries_peak_bytes == 64 + 4096);
  CHECK(m.device.total_bytes == 7260);
  CHECK(m.device.peak_bytes == 2048 + 12 + 1024 + 64 + 4096);
  CHECK(m.peak_instruction == "w");
  CHECK(m.peak_line == 27);
  REQUIRE(!m.top.empty());
  CHECK(m.top[0].instruction == "t");
  CHECK(m.top[0].computation == "body");
  CHECK(m.top[0].bytes == 4096);
  REQUIRE(m.computations.size() == 3);
  CHECK(m.computations[0].computation == "main");
  CHECK(m.computations[0].temporaries_peak_bytes == 4160);
  CHECK(m.computations[1].computation == "body");
  CHECK(m.computations[1].temporaries_peak_bytes == 4096);
  CHECK(m.computations[1].instruction == "t");
  CHECK(m.computations[2].computation == "cond");
  CHECK(m.computations[2].temporaries_peak_bytes == 0);
}

TEST_CASE("memory: a fusion allocates its output only") {
  // big (16 KiB) lives inside the fusion; f (512 B) is a temporary that
  // the smaller output n cannot hold.
  Estimated e = Estimate(R"(HloModule t4

fused {
  p0 = f32[128]{0} parameter(0)
  big = f32[32,128]{1,0} broadcast(p0), dimensions={1}
  sl = f32[1,128]{1,0} slice(big), slice={[0:1], [0:128]}
  ROOT s = f32[128]{0} reshape(sl)
}

ENTRY e {
  p = f32[128]{0} parameter(0)
  f = f32[128]{0} fusion(p), kind=kLoop, calls=fused
  ROOT n = f32[64]{0} slice(f), slice={[0:64]}
}
)");
  CHECK(e.estimate.device.temporaries_peak_bytes == 512);
  CHECK(e.estimate.device.total_bytes == 512 + 256 + 512);
  REQUIRE(e.estimate.computations.size() == 1);
  CHECK(e.estimate.computations[0].computation == "e");
}

TEST_CASE("memory: reducers are thread-local, host memory is counted apart") {
  Estimated e = Estimate(R"(HloModule t5

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY e {
  p = f32[256]{0:S(5)} parameter(0)
  q = f32[256]{0} parameter(1)
  z = f32[] constant(0)
  r = f32[] reduce(q, z), dimensions={0}, to_apply=add
  h = f32[256]{0} copy(p)
  ROOT o = (f32[], f32[256]{0}) tuple(r, h)
}
)");
  const MemoryEstimate& m = e.estimate;
  CHECK(m.device.parameters_bytes == 1024);
  CHECK(m.device.outputs_bytes == 4 + 1024 + 16);
  CHECK(m.device.constants_bytes == 4);
  CHECK(m.thread_local_bytes == 12);
  CHECK(m.device.total_bytes == 2084);
  REQUIRE(m.other_spaces.size() == 1);
  CHECK(m.other_spaces[0].memory_space == 5);
  CHECK(m.other_spaces[0].parameters_bytes == 1024);
  CHECK(m.other_spaces[0].total_bytes == 1024);
}

TEST_CASE("memory: the schedule decides the peak") {
  // The same instructions in two orders: x and y (1 KiB each) live
  // together only when both are computed before either is used.
  const std::string apart = R"(HloModule s, is_scheduled=true

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY e {
  p = f32[256]{0} parameter(0)
  z = f32[] constant(0)
  x = f32[256]{0} exponential(p)
  x2 = f32[] reduce(x, z), dimensions={0}, to_apply=add
  y = f32[256]{0} log(p)
  y2 = f32[] reduce(y, z), dimensions={0}, to_apply=add
  ROOT t = (f32[], f32[]) tuple(x2, y2)
}
)";
  std::string together = apart;
  const std::string x2 = "  x2 = f32[] reduce(x, z), dimensions={0}, to_apply=add\n";
  together.erase(together.find(x2), x2.size());
  together.insert(together.find("  y2 ="), x2);
  Estimated first = Estimate(apart);
  Estimated second = Estimate(together);
  CHECK(first.estimate.device.temporaries_peak_bytes == 1024);
  CHECK(second.estimate.device.temporaries_peak_bytes == 2048);
}

TEST_CASE("memory: buffers of unknown size count as none, and are counted") {
  Estimated e = Estimate("HloModule u\n\nENTRY e {\n  ROOT p = f32[?]{0} parameter(0)\n}\n");
  CHECK(e.estimate.device.total_bytes == 0);
  CHECK(e.estimate.unsized_buffers == 1);
}

}  // namespace
}  // namespace hlolint::parse_testing
