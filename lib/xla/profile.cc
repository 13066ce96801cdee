#include "xla/profile.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "util/strings.h"

namespace hlolint {
namespace {

constexpr XlaDate Day(int32_t yyyymmdd) { return XlaDate{yyyymmdd}; }

// The tracked changes, in date order. A row: what changed on XLA's main
// branch, from which day, in which commit. docs/xla-versions.md explains
// each row and how to add one.
constexpr std::array kChanges = {
    XlaChangeInfo{XlaChange::kAllReduceStartNvshmemOutOfPlace,
                  "all-reduce-start-nvshmem-out-of-place", Day(20250714), "7ef9d25e6c62",
                  std::nullopt,
                  "an all-reduce-start whose backend_config mentions NVSHMEM has no in-place "
                  "pairs (one-shot NVSHMEM all-reduce needs separate buffers)"},
    XlaChangeInfo{XlaChange::kDceRemovesAllowedTpuCustomCall,
                  "dce-removes-allowed-tpu-custom-call", Day(20251107), "32f9bf1cf657",
                  std::nullopt,
                  "HloDCE may remove an unused side-effecting custom-call \"tpu_custom_call\" "
                  "whose frontend attribute xla_allow_dce_side_effecting_op is \"true\""},
    XlaChangeInfo{XlaChange::kAsyncStartAliasing, "async-start-aliasing", Day(20260108),
                  "102da1b8bd2c", std::nullopt,
                  "an async-start (call-start, async-start) may declare output_to_operand_aliasing "
                  "of its own, in its own shape's indices, which gives it in-place pairs"},
    XlaChangeInfo{XlaChange::kConvKindAccepted, "conv-kind-accepted", Day(20260129),
                  "d5bd3b54f736", std::nullopt,
                  "the parser accepts `conv_kind=fprop|wgrad|dgrad|unset` on convolutions (it "
                  "was never printed)"},
    XlaChangeInfo{XlaChange::kUnquotedMeshAxesAccepted, "unquoted-mesh-axes-accepted",
                  Day(20260210), "31a2fb486e48", std::nullopt,
                  "the parser accepts named shardings with unquoted mesh axis names "
                  "(`{mesh[a=2], [{a}]}`), as XLA printed them from 2026-02-03"},
    XlaChangeInfo{XlaChange::kMeshAxesQuoted, "mesh-axes-quoted", Day(20260305), "d6ed039767b4",
                  std::nullopt,
                  "mesh axis names are quoted (`mesh['a'=2]`, `{'a'}`); unquoted ones are "
                  "rejected (\"expects string\")"},
    XlaChangeInfo{XlaChange::kConvKindRenamed, "conv-kind-renamed", Day(20260320), "f837f74a3d76",
                  std::nullopt,
                  "`conv_kind=` is renamed `convolution_kind=` and printed; the old name is an "
                  "unexpected attribute"},
    XlaChangeInfo{XlaChange::kCollectivePermuteStartInPlaceNeedsSlices,
                  "collective-permute-start-in-place-needs-slices", Day(20260421), "64af5a6065ef",
                  std::nullopt,
                  "a 4-operand collective-permute-start has in-place pairs only when it is in "
                  "place (non-empty slice_sizes)"},
    XlaChangeInfo{XlaChange::kReshapeDecomposerBeforeLayoutNormalization,
                  "reshape-decomposer-before-layout-normalization", Day(20260424), "788f26991b16",
                  Backend::kGpu,
                  "the GPU pipeline runs ReshapeDecomposer right before the LayoutNormalization "
                  "after GemmRewriter, so a reshape that is not a bitcast there becomes copies "
                  "instead of failing the compile"},
    XlaChangeInfo{XlaChange::kOutputSideFollowsNoOps, "output-side-follows-no-ops", Day(20260603),
                  "75cff00e22f0", std::nullopt,
                  "fusion pair discovery follows no-op instructions (bitcast) on the output side "
                  "too, and a nested fusion that is the output source lends only the pairs of its "
                  "body, not its output_to_operand_aliasing"},
    XlaChangeInfo{XlaChange::kGpuReshapeIsNoOpForAliasing, "gpu-reshape-is-no-op-for-aliasing",
                  Day(20260603), "75cff00e22f0", Backend::kGpu,
                  "GPU's alias analysis treats reshape as a no-op in fusion pair discovery, so a "
                  "reshape no longer hides an in-place pair"},
    XlaChangeInfo{XlaChange::kAllReduceStartNvshmemInPlace, "all-reduce-start-nvshmem-in-place",
                  Day(20260622), "828ac841e572", std::nullopt,
                  "NVSHMEM support is removed: an all-reduce-start has in-place pairs whatever its "
                  "backend_config says"},
    XlaChangeInfo{XlaChange::kCollectivePermuteInPlaceNeedsSlices,
                  "collective-permute-in-place-needs-slices", Day(20260629), "52357b4c4539",
                  std::nullopt,
                  "a 4-operand collective-permute has in-place pairs only when it is in place "
                  "(non-empty slice_sizes)"},
    XlaChangeInfo{XlaChange::kAsyncStartAliasWrappedComputation,
                  "async-start-alias-wrapped-computation", Day(20260630), "31c60efaa293",
                  std::nullopt,
                  "the verifier checks an async-start's output_to_operand_aliasing against the "
                  "wrapped computation (operand numbers its parameters, output indices into "
                  "(parameters, result, context...), no empty output index); before, against the "
                  "start's own operands and shape"},
    XlaChangeInfo{XlaChange::kVariadicAsyncUpdate, "variadic-async-update", Day(20260703),
                  "2b869c6e8344", std::nullopt,
                  "the parser accepts async-update and async-done with more operands than the "
                  "async op they continue, and an async-update whose shape is not its operand's; "
                  "before, both were rejected (\"expect a single async op as their operand\", "
                  "\"expects the op shape to be the same as the operand shape\")"},
    XlaChangeInfo{XlaChange::kAsyncUpdateDoneInPlace, "async-update-done-in-place", Day(20260713),
                  "29e7e9bf4826", std::nullopt,
                  "async-update and async-done take in-place pairs from their async-start's "
                  "output_to_operand_aliasing, and the start's own entries are checked against "
                  "its shape and operands"},
    XlaChangeInfo{XlaChange::kMalformedAttributeErrors, "malformed-attribute-errors",
                  Day(20260727), "7205f71e15de", std::nullopt,
                  "the parser rejects a window's rhs_reversal= whose size is not size='s "
                  "(\"expects 'rhs_reversal=' has the same size as 'size='\"); before, extra "
                  "entries were ignored and a short list was read past its end"},
    XlaChangeInfo{XlaChange::kDceKeepsDisableWhileLoopDceOps, "dce-keeps-disable-while-loop-dce",
                  Day(20260730), "ade05d5e18ad", std::nullopt,
                  "HloDCE never picks as dead an instruction whose frontend attribute "
                  "xla_disable_while_loop_dce (or xla_preserve_tuple_indices) is true"},
};
static_assert(kChanges.size() == static_cast<size_t>(XlaChange::kCount));

constexpr bool InDateOrder() {
  for (size_t i = 1; i < kChanges.size(); ++i) {
    if (kChanges[i].date < kChanges[i - 1].date) return false;
  }
  return true;
}
static_assert(InDateOrder(), "keep the table in date order");

constexpr bool InEnumOrder() {
  for (size_t i = 0; i < kChanges.size(); ++i) {
    if (static_cast<size_t>(kChanges[i].change) != i) return false;
  }
  return true;
}
static_assert(InEnumOrder(), "XlaChangeOf indexes the table by XlaChange");

// The XLA each jaxlib release was built from (jax's third_party/xla).
struct JaxlibRelease {
  std::string_view version;
  XlaDate xla_date;
};
constexpr JaxlibRelease kJaxlibReleases[] = {
    {"0.10.0", Day(20260414)},  // openxla/xla@b6f37ab7767f
    {"0.10.1", Day(20260515)},  // openxla/xla@9b635916ecc6
    {"0.10.2", Day(20260614)},  // openxla/xla@5a9e73cbd925
};

bool IsLeap(int32_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
constexpr int32_t kDaysInMonth[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

}  // namespace

std::string_view BackendName(Backend backend) {
  switch (backend) {
    case Backend::kCpu: return "cpu";
    case Backend::kGpu: return "gpu";
    case Backend::kTpu: return "tpu";
    case Backend::kUnknown: break;
  }
  return "unknown";
}

std::optional<BackendSetting> ParseBackendSetting(std::string_view text) {
  if (text == "auto") return BackendSetting{};
  for (Backend backend : {Backend::kCpu, Backend::kGpu, Backend::kTpu}) {
    if (text == BackendName(backend)) return BackendSetting{false, backend};
  }
  return std::nullopt;
}

std::optional<XlaDate> XlaDate::Parse(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  int32_t parts[3] = {0, 0, 0};
  const std::pair<size_t, size_t> fields[3] = {{0, 4}, {5, 2}, {8, 2}};
  for (int f = 0; f < 3; ++f) {
    for (size_t i = 0; i < fields[f].second; ++i) {
      const char c = text[fields[f].first + i];
      if (c < '0' || c > '9') return std::nullopt;
      parts[f] = parts[f] * 10 + (c - '0');
    }
  }
  const auto [year, month, day] = parts;
  if (year < 2000 || month < 1 || month > 12 || day < 1) return std::nullopt;
  const int32_t days = kDaysInMonth[month - 1] + (month == 2 && IsLeap(year) ? 1 : 0);
  if (day > days) return std::nullopt;
  return XlaDate{year * 10000 + month * 100 + day};
}

std::string XlaDate::ToString() const {
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02d-%02d", yyyymmdd / 10000, yyyymmdd / 100 % 100,
                yyyymmdd % 100);
  return text;
}

XlaDate XlaDate::DayBefore() const {
  int32_t year = yyyymmdd / 10000, month = yyyymmdd / 100 % 100, day = yyyymmdd % 100;
  if (--day == 0) {
    if (--month == 0) {
      month = 12;
      --year;
    }
    day = kDaysInMonth[month - 1] + (month == 2 && IsLeap(year) ? 1 : 0);
  }
  return XlaDate{year * 10000 + month * 100 + day};
}

std::span<const XlaChangeInfo> XlaChanges() { return kChanges; }

const XlaChangeInfo& XlaChangeOf(XlaChange change) {
  return kChanges[static_cast<size_t>(change)];
}

// The newest day of XLA's main branch checked against the table
// (openxla/xla@756478bb8bf0): `latest` judges for XLA of that day or later.
constexpr XlaDate kReviewedThrough = Day(20260807);
static_assert(kReviewedThrough >= kChanges.back().date);

XlaDate XlaProfile::LatestDate() { return kReviewedThrough; }

XlaProfile XlaProfile::Latest(Backend backend) {
  XlaProfile profile;
  profile.date_ = LatestDate();
  profile.latest_ = true;
  profile.backend_ = backend;
  return profile;
}

std::optional<XlaProfile> XlaProfile::Parse(std::string_view version, Backend backend) {
  if (version == "latest") return Latest(backend);
  XlaProfile profile;
  profile.latest_ = false;
  profile.backend_ = backend;
  if (version.starts_with("jaxlib-")) {
    version.remove_prefix(7);
    for (const JaxlibRelease& release : kJaxlibReleases) {
      if (release.version == version) {
        profile.date_ = release.xla_date;
        return profile;
      }
    }
    return std::nullopt;
  }
  const std::optional<XlaDate> date = XlaDate::Parse(version);
  if (!date) return std::nullopt;
  profile.date_ = *date;
  return profile;
}

XlaProfile XlaProfile::WithBackend(Backend backend) const {
  XlaProfile profile = *this;
  profile.backend_ = backend;
  return profile;
}

bool XlaProfile::Has(XlaChange change) const {
  const XlaChangeInfo& info = XlaChangeOf(change);
  if (date_ < info.date) return false;
  return !info.backend || *info.backend == backend_;
}

std::string XlaProfile::Describe() const {
  std::string text = latest_ ? StrCat("XLA latest (", date_.ToString(), " or later)")
                             : StrCat("XLA of ", date_.ToString());
  text += backend_ == Backend::kUnknown ? ", backend unknown" : StrCat(", ", BackendName(backend_));
  return text;
}

std::string XlaProfile::Assumption(XlaChange change) const {
  const XlaChangeInfo& info = XlaChangeOf(change);
  std::string since = StrCat("since ", info.date.ToString());
  if (info.backend) since = StrCat(BackendName(*info.backend), " only, ", since);
  if (!info.commit.empty()) since += StrCat(", openxla/xla@", info.commit);
  return StrCat("assumes XLA ", Has(change) ? "with" : "without", " '", info.id, "' (",
                info.summary, "; ", since, "); judged as ", Describe(),
                ": --xla-version and --backend change it");
}

}  // namespace hlolint
