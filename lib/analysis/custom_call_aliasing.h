// Which outputs of each custom call are declared to live in an operand's
// buffer (output_to_operand_aliasing), gathered once per module.
//
// A call is a `custom-call`, or the async form of one: the sugar
// `custom-call-start` (the wrapped call's attributes are on the start line,
// its operands are the start's, its result is shape {1}), or an
// `async-start` whose called computation's root is a custom call (that
// custom call is the site; claims written on the async-start with output
// index {1, ...} count for it too).
#pragma once

#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "analysis/analyses.h"
#include "ir/module.h"

namespace hlolint {

struct AliasClaim {
  ShapeIndex output_index;   // in the call's result
  int64_t operand = 0;       // operand number
  ShapeIndex operand_index;  // in that operand
  InstrId declared_at = kNoId;  // instruction whose attribute holds the entry
  bool on_async_start = false;  // written on the wrapping async-start
};

// One call, in 64 bytes: a large dump has hundreds of thousands of custom
// calls, so lists and strings of its own per call would be tens of MB of
// fresh memory. Its claims, operands and strings are read through
// CustomCallAliasing.
struct AliasingCallSite {
  InstrId call = kNoId;         // custom-call, or sugar custom-call-start
  InstrId async_start = kNoId;  // non-sugar async-start wrapping `call`
  uint32_t claims_begin = 0;    // range in CustomCallAliasing's claims
  uint32_t claims_count = 0;
  const Shape* result = nullptr;
  std::string_view target;      // custom_call_target
  // Calls with the same key run the same kernel: the target, plus the
  // backend config for generic kernel launchers (tpu_custom_call,
  // triton_kernel_call, __gpu$xla.gpu.triton, mosaic_gpu), whose kernels
  // all share one target name. Empty for a launcher without a backend
  // config: its kernel is unknown.
  std::string_view kernel_key;
  // frontend_attributes has xla_skip_custom_call_alias_shape_check: XLA's
  // verifier then stops comparing aliased shapes.
  bool skip_shape_check = false;
  // IsXlaInternalCustomCallTarget(target), decided once per target.
  bool xla_internal_target = false;
};
static_assert(sizeof(AliasingCallSite) == 64, "a custom-call site takes 64 bytes");

// The first call of a kernel that claims a given output index.
struct TargetClaim {
  size_t site = 0;  // index into CustomCallAliasing::sites()
  AliasClaim claim;
};

class CustomCallAliasing {
 public:
  CustomCallAliasing(const Module& module, Analyses& analyses);

  const std::vector<AliasingCallSite>& sites() const { return sites_; }
  std::span<const AliasClaim> claims(const AliasingCallSite& site) const {
    return {claims_.data() + site.claims_begin, site.claims_count};
  }
  size_t operand_count(const AliasingCallSite& site) const {
    return module_->operands(site.call).size();
  }
  const Shape& operand_shape(const AliasingCallSite& site, size_t operand) const {
    return module_->shape(module_->operand(site.call, operand));
  }
  // Where an operand comes from, for notes: the call's operand, or the
  // async-start's when `call` is the root of its computation.
  InstrId operand_producer(const AliasingCallSite& site, size_t operand) const;
  // For a kernel key, the first claim of output `index` by any of its calls.
  const TargetClaim* FindKernelClaim(std::string_view kernel_key,
                                     const ShapeIndex& index) const;
  // Whether any call of this kernel claims an output.
  bool HasKernelClaims(std::string_view kernel_key) const {
    return by_kernel_.contains(kernel_key);
  }

 private:
  // The distinct targets and kernel keys, which the sites view: a deque
  // never moves its strings.
  std::string_view Intern(std::string_view text);

  const Module* module_;
  std::vector<AliasingCallSite> sites_;
  std::vector<AliasClaim> claims_;  // every site's, in site order
  std::deque<std::string> strings_;
  absl::flat_hash_set<std::string_view> interned_;
  // kernel key -> ShapeIndexToString(output index) -> first claim.
  absl::flat_hash_map<std::string_view, absl::flat_hash_map<std::string, TargetClaim>>
      by_kernel_;
};

// Targets shared by every kernel of a front end (Pallas, jax-triton,
// Mosaic): the kernel is identified by the backend config.
bool IsGenericKernelLauncher(std::string_view target);

// Libraries XLA itself calls (cuBLAS, cuDNN, cuSOLVER, ...) and XLA's own
// bookkeeping targets: their aliasing is XLA's business, not the user's.
bool IsXlaInternalCustomCallTarget(std::string_view target);

}  // namespace hlolint
