// Which XLA hlolint judges for: a date of XLA's main branch and a backend.
//
// XLA's behaviour changes every month. Every change that alters one of
// hlolint's verdicts is one row of the table in profile.cc (its upstream
// commit, date and what it changes); rules, analyses and the parser ask a
// profile whether a change is in effect (`Has`), never compare dates
// themselves. docs/xla-versions.md lists the table and says how to add a row.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace hlolint {

enum class Backend : uint8_t { kUnknown, kCpu, kGpu, kTpu };
std::string_view BackendName(Backend backend);  // "unknown", "cpu", "gpu", "tpu"

// `--backend` / "backend": auto (from each module's dump name and contents)
// or a backend for every input.
struct BackendSetting {
  bool detect = true;
  Backend backend = Backend::kUnknown;
  bool operator==(const BackendSetting&) const = default;
};
// "auto", "cpu", "gpu" or "tpu"; nullopt for anything else.
std::optional<BackendSetting> ParseBackendSetting(std::string_view text);
inline constexpr std::string_view kBackendSettingHelp = "auto, cpu, gpu or tpu";
// What `--xla-version` accepts, for messages.
inline constexpr std::string_view kXlaVersionHelp =
    "latest, a date of XLA's main branch (2026-06-03) or a jaxlib release (jaxlib-0.10.2)";

// A day of XLA's main branch, ordered; yyyymmdd.
struct XlaDate {
  int32_t yyyymmdd = 0;
  auto operator<=>(const XlaDate&) const = default;
  // "2026-06-03"; nullopt unless the text is a valid date in that form.
  static std::optional<XlaDate> Parse(std::string_view text);
  std::string ToString() const;
  XlaDate DayBefore() const;  // of a valid date
};

// The semantic changes of XLA that hlolint tracks (profile.cc has a row for
// each, in date order).
enum class XlaChange : uint8_t {
  kAllReduceStartNvshmemOutOfPlace,       // an NVSHMEM all-reduce-start has no pairs
  kDceRemovesAllowedTpuCustomCall,        // xla_allow_dce_side_effecting_op="true"
  kAsyncStartAliasing,                    // output_to_operand_aliasing on async-start
  kConvKindAccepted,                      // `conv_kind=` parsed
  kUnquotedMeshAxesAccepted,              // `mesh[a=2]` parsed
  kMeshAxesQuoted,                        // only `mesh['a'=2]` parsed
  kConvKindRenamed,                       // `conv_kind=` -> `convolution_kind=`
  kCollectivePermuteStartInPlaceNeedsSlices,
  kReshapeDecomposerBeforeLayoutNormalization,  // GPU
  kOutputSideFollowsNoOps,                // FollowNoOpIndirection on the output side
  kGpuReshapeIsNoOpForAliasing,           // GPU
  kAllReduceStartNvshmemInPlace,          // the NVSHMEM exception removed
  kCollectivePermuteInPlaceNeedsSlices,
  kAsyncStartAliasWrappedComputation,     // async-start aliasing against calls=
  kVariadicAsyncUpdate,                   // async-update takes several operands
  kAsyncUpdateDoneInPlace,
  kMalformedAttributeErrors,              // rhs_reversal= size checked
  kDceKeepsDisableWhileLoopDceOps,
  kCount
};

struct XlaChangeInfo {
  XlaChange change;
  std::string_view id;      // kebab-case, for docs and messages
  XlaDate date;             // the first day of main with the change
  std::string_view commit;  // upstream openxla/xla commit
  std::optional<Backend> backend;  // only this backend's compiler changed
  std::string_view summary;        // what changed, one sentence
};

// Every tracked change, in date order.
std::span<const XlaChangeInfo> XlaChanges();
const XlaChangeInfo& XlaChangeOf(XlaChange change);

class XlaProfile {
 public:
  // The newest XLA whose behaviour hlolint tracks (`--xla-version latest`).
  static XlaDate LatestDate();
  static XlaProfile Latest(Backend backend = Backend::kUnknown);
  // "latest", a date "YYYY-MM-DD", or a jaxlib release "jaxlib-0.10.2"
  // (the XLA it was built from). nullopt for anything else.
  static std::optional<XlaProfile> Parse(std::string_view version,
                                         Backend backend = Backend::kUnknown);

  XlaDate date() const { return date_; }
  bool is_latest() const { return latest_; }
  Backend backend() const { return backend_; }
  XlaProfile WithBackend(Backend backend) const;

  // Whether XLA of this profile has `change`: its date is on or after the
  // change's, and a backend-specific change is assumed only for that
  // backend (not for kUnknown).
  bool Has(XlaChange change) const;

  // "XLA latest (2026-08-07 or later), gpu", "XLA of 2026-06-14, backend
  // unknown": for messages and reports.
  std::string Describe() const;
  // What a finding that depends on `change` assumes, for a note: "assumes
  // XLA with|without '<id>' (<summary>; [<backend> only, ]since <date>,
  // openxla/xla@<commit>); judged as <Describe()>: --xla-version and
  // --backend change it".
  std::string Assumption(XlaChange change) const;

  bool operator==(const XlaProfile&) const = default;

 private:
  XlaDate date_;
  bool latest_ = true;
  Backend backend_ = Backend::kUnknown;
};

}  // namespace hlolint
