// XlaProfile: which XLA hlolint judges for, and the table of tracked changes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/analyses.h"
#include "analysis/backend.h"
#include "analysis/opcode_index.h"
#include "in_place_test_util.h"
#include "xla/profile.h"

using hlolint::Backend;
using hlolint::BackendSetting;
using hlolint::XlaChange;
using hlolint::XlaChangeInfo;
using hlolint::XlaChanges;
using hlolint::XlaDate;
using hlolint::XlaProfile;

TEST_CASE("xla profile: versions as the command line takes them") {
  const auto latest = XlaProfile::Parse("latest");
  REQUIRE(latest);
  CHECK(latest->is_latest());
  CHECK(latest->date() == XlaProfile::LatestDate());
  CHECK(latest->Describe() == "XLA latest (2026-08-07 or later), backend unknown");

  const auto day = XlaProfile::Parse("2026-06-03", Backend::kGpu);
  REQUIRE(day);
  CHECK_FALSE(day->is_latest());
  CHECK(day->date().ToString() == "2026-06-03");
  CHECK(day->Describe() == "XLA of 2026-06-03, gpu");

  // A jaxlib release is the XLA it was built from.
  const auto jaxlib = XlaProfile::Parse("jaxlib-0.10.2");
  REQUIRE(jaxlib);
  CHECK(jaxlib->date().ToString() == "2026-06-14");

  for (const char* bad : {"", "2026-6-3", "2026-02-30", "2026-13-01", "0.10.2", "jaxlib-0.0.1",
                          "latest ", "2026-06-03x"}) {
    INFO(bad);
    CHECK_FALSE(XlaProfile::Parse(bad));
  }
  CHECK(XlaDate::Parse("2028-02-29"));
  CHECK(XlaDate::Parse("2028-03-01")->DayBefore().ToString() == "2028-02-29");
  CHECK(XlaDate::Parse("2026-01-01")->DayBefore().ToString() == "2025-12-31");
  CHECK_FALSE(XlaDate::Parse("2026-02-29"));
}

TEST_CASE("xla profile: backend settings") {
  CHECK(hlolint::ParseBackendSetting("auto") == BackendSetting{});
  CHECK(hlolint::ParseBackendSetting("gpu") == BackendSetting{false, Backend::kGpu});
  CHECK(hlolint::ParseBackendSetting("cpu") == BackendSetting{false, Backend::kCpu});
  CHECK_FALSE(hlolint::ParseBackendSetting("GPU"));
  CHECK_FALSE(hlolint::ParseBackendSetting("cuda"));
}

TEST_CASE("xla profile: a change is in effect from its date, a backend's only on it") {
  const XlaChangeInfo& gpu_only = hlolint::XlaChangeOf(XlaChange::kGpuReshapeIsNoOpForAliasing);
  REQUIRE(gpu_only.backend == Backend::kGpu);
  const XlaDate day = gpu_only.date;
  const XlaDate before{day.yyyymmdd - 1};
  const auto on = [&](XlaDate date, Backend backend) {
    return XlaProfile::Parse(date.ToString(), backend)->Has(XlaChange::kGpuReshapeIsNoOpForAliasing);
  };
  CHECK(on(day, Backend::kGpu));
  CHECK_FALSE(on(before, Backend::kGpu));
  CHECK_FALSE(on(day, Backend::kCpu));
  CHECK_FALSE(on(day, Backend::kUnknown));

  const auto everywhere = XlaChange::kAsyncUpdateDoneInPlace;
  CHECK(XlaProfile::Latest().Has(everywhere));
  CHECK(XlaProfile::Latest(Backend::kTpu).Has(everywhere));
  CHECK_FALSE(XlaProfile::Parse("jaxlib-0.10.2")->Has(everywhere));
}

TEST_CASE("xla profile: the table is in date order, one row per change, each with a commit") {
  const auto changes = XlaChanges();
  REQUIRE(changes.size() == static_cast<size_t>(XlaChange::kCount));
  for (size_t i = 0; i < changes.size(); ++i) {
    INFO(changes[i].id);
    CHECK(static_cast<size_t>(changes[i].change) == i);
    CHECK(changes[i].commit.size() == 12);
    CHECK(changes[i].date <= XlaProfile::LatestDate());
    if (i > 0) CHECK(changes[i - 1].date <= changes[i].date);
  }
}

TEST_CASE("xla profile: a finding's assumption names the change, the profile and the flags") {
  const std::string text =
      XlaProfile::Latest().Assumption(XlaChange::kGpuReshapeIsNoOpForAliasing);
  CHECK(text ==
        "assumes XLA without 'gpu-reshape-is-no-op-for-aliasing' (GPU's alias analysis treats "
        "reshape as a no-op in fusion pair discovery, so a reshape no longer hides an in-place "
        "pair; gpu only, since 2026-06-03, openxla/xla@75cff00e22f0); judged as XLA latest "
        "(2026-08-07 or later), backend unknown: --xla-version and --backend change it");
  CHECK(XlaProfile::Latest(Backend::kGpu)
            .Assumption(XlaChange::kGpuReshapeIsNoOpForAliasing)
            .starts_with("assumes XLA with 'gpu-reshape-is-no-op-for-aliasing'"));
}

TEST_CASE("backend detection: dump platform, then the module's own marks") {
  using hlolint::testing::ParseHlo;
  CHECK(hlolint::BackendOfDumpPlatform("sm_8.0_gpu") == Backend::kGpu);
  CHECK(hlolint::BackendOfDumpPlatform("gfx90a_gpu") == Backend::kGpu);
  CHECK(hlolint::BackendOfDumpPlatform("cpu") == Backend::kCpu);
  CHECK(hlolint::BackendOfDumpPlatform("") == Backend::kUnknown);

  auto detect = [](const char* text, std::string_view platform = "") {
    auto h = ParseHlo(text);
    return hlolint::DetectBackend(h.m(), platform, h.Get<hlolint::OpcodeIndex>());
  };
  constexpr const char* kGemm = R"(
HloModule m
ENTRY e {
  x = f16[8,8]{1,0} parameter(0)
  ROOT g = (f16[8,8]{1,0}, s8[16]{0}) custom-call(x, x), custom_call_target="__cublas$lt$matmul"
}
)";
  constexpr const char* kOneDnn = R"(
HloModule m
ENTRY e {
  x = f32[8,8]{1,0} parameter(0)
  ROOT g = f32[8,8]{1,0} custom-call(x, x), custom_call_target="__onednn$matmul"
}
)";
  constexpr const char* kTiled = R"(
HloModule m
ENTRY e {
  ROOT x = f32[8,128]{1,0:T(8,128)} parameter(0)
}
)";
  constexpr const char* kGpuFusion = R"(
HloModule m
f {
  p = f32[8]{0} parameter(0)
  ROOT n = f32[8]{0} negate(p)
}
ENTRY e {
  x = f32[8]{0} parameter(0)
  ROOT y = f32[8]{0} fusion(x), kind=kLoop, calls=f, backend_config={"operation_queue_id":"0","wait_on_operation_queues":[]}
}
)";
  constexpr const char* kPlain = R"(
HloModule m
ENTRY e {
  x = f32[8]{0} parameter(0)
  ROOT y = f32[8]{0} negate(x)
}
)";
  CHECK(detect(kGemm) == Backend::kGpu);
  CHECK(detect(kOneDnn) == Backend::kCpu);
  CHECK(detect(kTiled) == Backend::kTpu);
  CHECK(detect(kGpuFusion) == Backend::kGpu);
  CHECK(detect(kPlain) == Backend::kUnknown);
  CHECK(detect(kPlain, "cpu") == Backend::kCpu);
  CHECK(detect(kGemm, "cpu") == Backend::kCpu);  // the dump name comes first
}

TEST_CASE("xla profile: docs/xla-versions.md lists every tracked change with its date and commit") {
  std::ifstream page(std::string(HLOLINT_SOURCE_DIR) + "/docs/xla-versions.md");
  REQUIRE(page);
  std::vector<std::string> lines;
  for (std::string line; std::getline(page, line);) lines.push_back(line);
  for (const XlaChangeInfo& change : XlaChanges()) {
    INFO(change.id);
    const std::string row_start = "| `" + std::string(change.id) + "` | " +
                                  change.date.ToString() + " | " + std::string(change.commit) +
                                  " | ";
    CHECK(std::any_of(lines.begin(), lines.end(),
                      [&](const std::string& line) { return line.starts_with(row_start); }));
  }
}
