// InPlacePairs: the table of XLA's AliasInfo::GetInPlaceInputOutputPairs.
#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

#include "analysis/in_place.h"
#include "in_place_test_util.h"

using hlolint::InPlacePair;
using hlolint::InPlacePairs;
using hlolint::ShapeIndex;
using hlolint::testing::Pair;
using hlolint::testing::PairsOf;
using hlolint::testing::ParseHlo;
using hlolint::testing::XlaOf;

TEST_CASE("in-place pairs: dynamic-update-slice writes operand 0") {
  auto h = ParseHlo(R"(
HloModule m
ENTRY e {
  p = f32[8]{0} parameter(0)
  u = f32[2]{0} parameter(1)
  i = s32[] parameter(2)
  ROOT d = f32[8]{0} dynamic-update-slice(p, u, i)
}
)");
  CHECK(PairsOf(h, "d") == std::vector<InPlacePair>{Pair(0, {}, {})});
  CHECK(PairsOf(h, "p").empty());
  CHECK_FALSE(h.Get<InPlacePairs>().IsInPlace(h.Id("u")));
}

TEST_CASE("in-place pairs: scatter pairs every input with its output") {
  auto h = ParseHlo(R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
add2 {
  a0 = f32[] parameter(0)
  a1 = f32[] parameter(1)
  b0 = f32[] parameter(2)
  b1 = f32[] parameter(3)
  sum0 = f32[] add(a0, b0)
  sum1 = f32[] add(a1, b1)
  ROOT t = (f32[], f32[]) tuple(sum0, sum1)
}
ENTRY e {
  x = f32[8]{0} parameter(0)
  y = f32[8]{0} parameter(1)
  idx = s32[2,1]{1,0} parameter(2)
  ux = f32[2]{0} parameter(3)
  uy = f32[2]{0} parameter(4)
  one = f32[8]{0} scatter(x, idx, ux), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
  two = (f32[8]{0}, f32[8]{0}) scatter(x, y, idx, ux, uy), update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add2
  ROOT r = (f32[8]{0}, (f32[8]{0}, f32[8]{0})) tuple(one, two)
}
)");
  CHECK(PairsOf(h, "one") == std::vector<InPlacePair>{Pair(0, {}, {})});
  CHECK(PairsOf(h, "two") == std::vector<InPlacePair>{Pair(0, {}, {0}), Pair(1, {}, {1})});
}

TEST_CASE("in-place pairs: all-reduce-start, except NVSHMEM configs from 2025-07-14 to 2026-06-21") {
  const char* text = R"(
HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[8]{0} parameter(0)
  y = f32[4]{0} parameter(1)
  one = f32[8]{0} all-reduce-start(x), replica_groups={}, to_apply=add
  one.d = f32[8]{0} all-reduce-done(one)
  two = (f32[8]{0}, f32[4]{0}) all-reduce-start(x, y), replica_groups={}, to_apply=add
  two.d = (f32[8]{0}, f32[4]{0}) all-reduce-done(two)
  nv = f32[8]{0} all-reduce-start(x), replica_groups={}, to_apply=add, backend_config={"collective_backend_config":{"backend":"NVSHMEM"}}
  nv.d = f32[8]{0} all-reduce-done(nv)
  ROOT r = tuple(one.d, two.d, nv.d)
}
)";
  auto h = ParseHlo(text, XlaOf("2026-06-21"));
  CHECK(PairsOf(h, "one") == std::vector<InPlacePair>{Pair(0, {}, {})});
  CHECK(PairsOf(h, "two") == std::vector<InPlacePair>{Pair(0, {}, {0}), Pair(1, {}, {1})});
  CHECK(PairsOf(h, "nv").empty());
  CHECK(PairsOf(h, "one.d").empty());
  // XLA dropped NVSHMEM on 2026-06-22; before 2025-07-14 it had no exception.
  CHECK(PairsOf(ParseHlo(text), "nv") == std::vector<InPlacePair>{Pair(0, {}, {})});
  CHECK(PairsOf(ParseHlo(text, XlaOf("2026-06-22")), "nv") ==
        std::vector<InPlacePair>{Pair(0, {}, {})});
  CHECK(PairsOf(ParseHlo(text, XlaOf("2025-07-13")), "nv") ==
        std::vector<InPlacePair>{Pair(0, {}, {})});
}

TEST_CASE("in-place pairs: collective-permute slice form") {
  auto h = ParseHlo(R"(
HloModule m
ENTRY e {
  in = f32[8]{0} parameter(0)
  out = f32[8]{0} parameter(1)
  o = s32[] constant(0)
  offs = (s32[]) tuple(o)
  cp = f32[8]{0} collective-permute(in, out, offs, offs), source_target_pairs={{0,1},{1,0}}, slice_sizes={{4}}
  plain = f32[8]{0} collective-permute(in), source_target_pairs={{0,1},{1,0}}
  cps = (f32[8]{0}, f32[8]{0}, u32[], u32[]) collective-permute-start(in, out, offs, offs), source_target_pairs={{0,1},{1,0}}, slice_sizes={{4}}
  cpd = f32[8]{0} collective-permute-done(cps)
  ROOT r = tuple(cp, plain, cpd)
}
)");
  CHECK(PairsOf(h, "cp") == std::vector<InPlacePair>{Pair(1, {}, {})});
  CHECK(PairsOf(h, "plain").empty());
  CHECK(PairsOf(h, "cps") == std::vector<InPlacePair>{Pair(1, {}, {1})});
  CHECK(PairsOf(h, "cpd").empty());
}

TEST_CASE("in-place pairs: collective-permute with a tuple buffer pairs each element") {
  auto h = ParseHlo(R"(
HloModule m
ENTRY e {
  in = (f32[8]{0}, f32[8]{0}) parameter(0)
  out = (f32[8]{0}, f32[8]{0}) parameter(1)
  o = s32[] constant(0)
  offs = ((s32[]), (s32[])) parameter(2)
  ROOT cp = (f32[8]{0}, f32[8]{0}) collective-permute(in, out, offs, offs), source_target_pairs={{0,1}}, slice_sizes={{4},{4}}
}
)");
  CHECK(PairsOf(h, "cp") ==
        std::vector<InPlacePair>{Pair(1, {}, {}), Pair(1, {0}, {0}), Pair(1, {1}, {1})});
}

TEST_CASE("in-place pairs: declared output_to_operand_aliasing") {
  auto h = ParseHlo(R"(
HloModule m
ENTRY e {
  a = f32[4]{0} parameter(0)
  b = f32[4]{0} parameter(1)
  cc = (f32[4]{0}, f32[4]{0}) custom-call(a, b), custom_call_target="kernel", output_to_operand_aliasing={{0}: (1, {}), {1}: (0, {})}
  plain = f32[4]{0} custom-call(a), custom_call_target="kernel"
  start = ((f32[4]{0}), f32[4]{0}, s32[]) custom-call-start(a), custom_call_target="kernel", output_to_operand_aliasing={{}: (0, {})}
  done = f32[4]{0} custom-call-done(start)
  ROOT r = tuple(cc, plain, done)
}
)");
  CHECK(PairsOf(h, "cc") == std::vector<InPlacePair>{Pair(1, {}, {0}), Pair(0, {}, {1})});
  CHECK(PairsOf(h, "plain").empty());
  // XLA's parser gives a custom-call-start's aliasing to the wrapped call:
  // the start and the done have no pairs of their own.
  CHECK(PairsOf(h, "start").empty());
  CHECK(PairsOf(h, "done").empty());
}

TEST_CASE("in-place pairs: nested indices on both sides are kept apart") {
  // The table stores {} and {i} as codes and interns longer indices: each
  // must come back as itself, also with several of them in one module.
  auto h = ParseHlo(R"(
HloModule m
ENTRY e {
  a = ((f32[4]{0}, f32[4]{0}), f32[4]{0}) parameter(0)
  b = (f32[4]{0}, (f32[4]{0}, f32[4]{0})) parameter(1)
  cc = ((f32[4]{0}, f32[4]{0}), (f32[4]{0}, f32[4]{0})) custom-call(a, b), custom_call_target="kernel", output_to_operand_aliasing={{0, 1}: (1, {1, 0}), {1, 0}: (0, {0, 1}), {1, 1}: (1, {1, 1}), {0, 0}: (0, {1})}
  ROOT r = tuple(cc)
}
)");
  CHECK(PairsOf(h, "cc") == std::vector<InPlacePair>{Pair(1, {1, 0}, {0, 1}),
                                                     Pair(0, {0, 1}, {1, 0}),
                                                     Pair(1, {1, 1}, {1, 1}),
                                                     Pair(0, {1}, {0, 0})});
}

TEST_CASE("in-place pairs: set-dimension-size and ragged-all-to-all") {
  auto h = ParseHlo(R"(
HloModule m
ENTRY e {
  a = f32[8]{0} parameter(0)
  n = s32[] parameter(1)
  sds = f32[<=8]{0} set-dimension-size(a, n), dimensions={0}
  out = f32[8]{0} parameter(2)
  off = s32[2]{0} parameter(3)
  rag = f32[8]{0} ragged-all-to-all(a, out, off, off, off, off), replica_groups={{0,1}}
  ROOT r = tuple(sds, rag)
}
)");
  CHECK(PairsOf(h, "sds") == std::vector<InPlacePair>{Pair(0, {}, {})});
  CHECK(PairsOf(h, "rag") == std::vector<InPlacePair>{Pair(1, {}, {})});
}

TEST_CASE("in-place pairs: a non-sugared async-start uses its own aliasing") {
  auto h = ParseHlo(R"(
HloModule m
wrapped {
  w = f32[4]{0} parameter(0)
  ROOT k = f32[4]{0} custom-call(w), custom_call_target="kernel", output_to_operand_aliasing={{}: (0, {})}
}
ENTRY e {
  a = f32[4]{0} parameter(0)
  start = ((f32[4]{0}), f32[4]{0}, s32[]) async-start(a), calls=wrapped, output_to_operand_aliasing={{1}: (0, {})}
  ROOT done = f32[4]{0} async-done(start)
}
)");
  CHECK(PairsOf(h, "start") == std::vector<InPlacePair>{Pair(0, {}, {1})});
  CHECK(PairsOf(h, "k") == std::vector<InPlacePair>{Pair(0, {}, {})});
}

// The table is computed on first ask, by whichever thread asks (rules run in
// parallel): threads asking about every instruction at once, in different
// orders, get what one thread gets. Nested fusions make one table's
// computation compute others; a custom call with more pairs than a storage
// block, and interned indices, take the other paths of the storage.
TEST_CASE("in-place pairs: threads asking at once get one thread's pairs") {
  std::string text = R"(
HloModule m
inner {
  p0 = f32[8]{0} parameter(0)
  u0 = f32[1]{0} parameter(1)
  i0 = s32[] parameter(2)
  ROOT d0 = f32[8]{0} dynamic-update-slice(p0, u0, i0)
}
outer {
  q0 = f32[8]{0} parameter(0)
  v0 = f32[1]{0} parameter(1)
  j0 = s32[] parameter(2)
  f0 = f32[8]{0} fusion(q0, v0, j0), kind=kLoop, calls=inner
  ROOT t0 = (f32[8]{0}, f32[8]{0}) tuple(f0, q0)
}
ENTRY e {
  a = f32[8]{0} parameter(0)
  u = f32[1]{0} parameter(1)
  i = s32[] parameter(2)
  n = ((f32[4]{0}, f32[4]{0}), f32[4]{0}) parameter(3)
  cc = ((f32[4]{0}, f32[4]{0}), f32[4]{0}) custom-call(n), custom_call_target="k", output_to_operand_aliasing={{0, 1}: (0, {0, 1}), {1}: (0, {1})}
)";
  // 5000 leaves aliased to one operand's: more pairs than a block holds.
  std::string leaves, aliases;
  for (int k = 0; k < 5000; ++k) {
    leaves += std::string(k == 0 ? "" : ", ") + "f32[]";
    aliases += std::string(k == 0 ? "" : ", ") + "{" + std::to_string(k) + "}: (0, {" +
               std::to_string(k) + "})";
  }
  text += "  big_in = (" + leaves + ") parameter(4)\n";
  text += "  big = (" + leaves + ") custom-call(big_in), custom_call_target=\"k\", " +
          "output_to_operand_aliasing={" + aliases + "}\n";
  std::string roots = "cc, big";
  for (int k = 0; k < 200; ++k) {
    const std::string s = std::to_string(k);
    text += "  o" + s + " = (f32[8]{0}, f32[8]{0}) fusion(a, u, i), kind=kLoop, calls=outer\n";
    text += "  d" + s + " = f32[8]{0} dynamic-update-slice(a, u, i)\n";
    roots += ", o" + s + ", d" + s;
  }
  text += "  ROOT r = tuple(" + roots + ")\n}\n";

  auto one = ParseHlo(text);
  const size_t n = one.m().instruction_count();
  auto describe = [](const InPlacePairs& table, hlolint::InstrId id) {
    std::string out;
    for (const InPlacePair& pair : table.Get(id)) {
      out += std::to_string(pair.operand) + ":" + std::to_string(pair.operand_index.size()) +
             "/" + std::to_string(pair.output_index.size()) + ";";
      for (int64_t x : pair.operand_index) out += std::to_string(x) + ",";
      for (int64_t x : pair.output_index) out += std::to_string(x) + ",";
    }
    return out;
  };
  std::vector<std::string> expected(n);
  for (hlolint::InstrId id = 0; id < n; ++id) expected[id] = describe(one.Get<InPlacePairs>(), id);
  CHECK(PairsOf(one, "big").size() == 5000);
  CHECK(PairsOf(one, "o7") == std::vector<InPlacePair>{Pair(0, {}, {0})});
  CHECK(PairsOf(one, "cc") ==
        std::vector<InPlacePair>{Pair(0, {0, 1}, {0, 1}), Pair(0, {1}, {1})});

  for (int round = 0; round < 5; ++round) {
    auto many = ParseHlo(text);
    const InPlacePairs& table = many.Get<InPlacePairs>();
    std::vector<std::vector<std::string>> seen(4, std::vector<std::string>(n));
    std::vector<std::thread> threads;
    for (size_t t = 0; t < seen.size(); ++t) {
      threads.emplace_back([&, t] {
        for (size_t k = 0; k < n; ++k) {
          const auto id = static_cast<hlolint::InstrId>(t % 2 == 0 ? k : n - 1 - k);
          seen[t][id] = describe(table, id);
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (const auto& got : seen) CHECK(got == expected);
  }
}

TEST_CASE("in-place pairs: AnyInPlace screens fusions by their root and declared aliasing") {
  auto h = ParseHlo(R"(
HloModule m
plain {
  x = f32[8]{0} parameter(0)
  ROOT n = f32[8]{0} negate(x)
}
update {
  q = f32[8]{0} parameter(0)
  v = f32[2]{0} parameter(1)
  j = s32[] parameter(2)
  ROOT d = f32[8]{0} dynamic-update-slice(q, v, j)
}
ENTRY e {
  a = f32[8]{0} parameter(0)
  b = f32[2]{0} parameter(1)
  c = s32[] parameter(2)
  compute = f32[8]{0} fusion(a), kind=kLoop, calls=plain
  declared = f32[8]{0} fusion(a), kind=kLoop, calls=plain, output_to_operand_aliasing={{}: (0, {})}
  updating = f32[8]{0} fusion(a, b, c), kind=kLoop, calls=update
  ROOT t = (f32[8]{0}, f32[8]{0}, f32[8]{0}) tuple(compute, declared, updating)
}
)");
  const InPlacePairs& pairs = h.Get<InPlacePairs>();
  auto any = [&](std::initializer_list<const char*> names) {
    std::vector<hlolint::InstrId> ids;
    for (const char* name : names) ids.push_back(h.Id(name));
    return pairs.AnyInPlace(ids);
  };
  CHECK_FALSE(any({}));
  CHECK_FALSE(any({"a", "compute", "t"}));
  CHECK(any({"compute", "declared"}));
  CHECK(any({"a", "updating"}));
  CHECK(any({"d"}));
  CHECK_FALSE(any({"n"}));
}
