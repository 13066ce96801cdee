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
