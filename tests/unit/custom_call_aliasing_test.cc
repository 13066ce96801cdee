// CustomCallAliasing: a kernel has claims only when some call of it declares
// output_to_operand_aliasing (unclaimed-output-alias skips the per-leaf
// search of every call whose kernel has none).
#include <catch2/catch.hpp>

#include <string>

#include "analysis/analyses.h"
#include "analysis/custom_call_aliasing.h"
#include "parse_helpers.h"

using namespace hlolint;
using namespace hlolint::parse_testing;

namespace {

// "plain" is called twice without aliasing; "aliased" once with and once
// without; "async_k" claims only through the async-start wrapping it.
constexpr char kText[] = R"(HloModule m

wrapped {
  w = f32[8]{0} parameter(0)
  ROOT k = f32[8]{0} custom-call(w), custom_call_target="async_k"
}

ENTRY e {
  a = f32[8]{0} parameter(0)
  c1 = f32[8]{0} custom-call(a), custom_call_target="plain"
  c2 = (f32[8]{0}, f32[8]{0}) custom-call(c1, a), custom_call_target="plain"
  g = f32[8]{0} get-tuple-element(c2), index=0
  c3 = f32[8]{0} custom-call(g), custom_call_target="aliased", output_to_operand_aliasing={{}: (0, {})}
  c4 = f32[8]{0} custom-call(c3), custom_call_target="aliased"
  s = ((f32[8]{0}), f32[8]{0}, u32[]) async-start(c4), calls=wrapped, output_to_operand_aliasing={{1}: (0, {})}
  ROOT d = f32[8]{0} async-done(s)
})";

}  // namespace

TEST_CASE("CustomCallAliasing: only kernels with a claim have claims", "[custom-call-aliasing]") {
  const Parsed parsed = Parse(kText);
  Analyses analyses(parsed.m());
  const CustomCallAliasing& aliasing = analyses.Get<CustomCallAliasing>();
  CHECK(aliasing.sites().size() == 5);
  CHECK_FALSE(aliasing.HasKernelClaims("plain"));
  CHECK(aliasing.HasKernelClaims("aliased"));
  CHECK(aliasing.HasKernelClaims("async_k"));
  CHECK_FALSE(aliasing.HasKernelClaims("absent"));
  CHECK(aliasing.FindKernelClaim("aliased", {}) != nullptr);
  CHECK(aliasing.FindKernelClaim("plain", {}) == nullptr);
}

TEST_CASE("CustomCallAliasing: a site's claims, operands and producers", "[custom-call-aliasing]") {
  const Parsed parsed = Parse(kText);
  const Module& m = parsed.m();
  Analyses analyses(m);
  const CustomCallAliasing& aliasing = analyses.Get<CustomCallAliasing>();
  auto site_of = [&](std::string_view name) -> const AliasingCallSite& {
    for (const AliasingCallSite& site : aliasing.sites()) {
      if (m.name(site.call) == name) return site;
    }
    FAIL("no site for " << name);
    return aliasing.sites().front();
  };
  auto id_of = [&](std::string_view name) {
    for (InstrId id = 0; id < m.instruction_count(); ++id) {
      if (m.name(id) == name) return id;
    }
    return kNoId;
  };

  const AliasingCallSite& c2 = site_of("c2");
  CHECK(c2.target == "plain");
  CHECK(c2.kernel_key == "plain");
  CHECK(aliasing.claims(c2).empty());
  REQUIRE(aliasing.operand_count(c2) == 2);
  CHECK(aliasing.operand_producer(c2, 1) == id_of("a"));
  CHECK(&aliasing.operand_shape(c2, 0) == &m.shape(id_of("c1")));

  const AliasingCallSite& c3 = site_of("c3");
  REQUIRE(aliasing.claims(c3).size() == 1);
  CHECK(aliasing.claims(c3)[0].declared_at == c3.call);
  CHECK_FALSE(aliasing.claims(c3)[0].on_async_start);

  // The wrapped call's operand comes from the async-start's operand, and
  // its claim is the one written on the async-start (output {1} -> {}).
  const AliasingCallSite& k = site_of("k");
  CHECK(k.async_start == id_of("s"));
  REQUIRE(aliasing.operand_count(k) == 1);
  CHECK(aliasing.operand_producer(k, 0) == id_of("c4"));
  CHECK(&aliasing.operand_shape(k, 0) == &m.shape(id_of("w")));
  REQUIRE(aliasing.claims(k).size() == 1);
  CHECK(aliasing.claims(k)[0].on_async_start);
  CHECK(aliasing.claims(k)[0].output_index.empty());
}
