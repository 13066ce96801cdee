#include "analysis/custom_call_aliasing.h"

#include <span>

#include "analysis/call_attributes.h"
#include "analysis/opcode_index.h"
#include "analysis/text_order_walk.h"
#include "parse/attributes.h"
#include "util/strings.h"

namespace hlolint {
namespace {

void AddClaims(const CallAttributes& call_attributes, InstrId declared_at, bool on_async_start,
               std::vector<AliasClaim>* claims) {
  for (const OutputOperandAlias& entry : call_attributes.Aliasing(declared_at)) {
    AliasClaim claim;
    claim.output_index = entry.output_index;
    claim.operand = entry.operand;
    claim.operand_index = entry.operand_index;
    claim.declared_at = declared_at;
    claim.on_async_start = on_async_start;
    if (on_async_start) {
      // The async-start's own indices address ((operands...), result, ...):
      // only entries into the result {1, ...} concern the wrapped call.
      if (claim.output_index.empty() || claim.output_index[0] != 1) continue;
      claim.output_index.erase(claim.output_index.begin());
    }
    claims->push_back(std::move(claim));
  }
}

}  // namespace

bool IsGenericKernelLauncher(std::string_view target) {
  return target == "tpu_custom_call" || target == "triton_kernel_call" ||
         target == "__gpu$xla.gpu.triton" || target == "mosaic_gpu" || target == "mosaic_gpu_v2";
}

bool IsXlaInternalCustomCallTarget(std::string_view target) {
  static constexpr std::string_view kPrefixes[] = {
      "__cublas", "__cudnn", "__cusolver", "__cub$", "__cufft", "__onednn$", "__xla_cpu",
      "__custom_fusion", "xla.sdy.", "xla_builder.", "SPMD",
  };
  for (std::string_view prefix : kPrefixes) {
    if (target.substr(0, prefix.size()) == prefix) return true;
  }
  static constexpr std::string_view kNames[] = {
      "Sharding",      "MoveToHost",   "MoveToDevice",  "Pin",
      "Unpin",         "CreateBuffer", "AllocateBuffer", "LayoutConstraint",
      "PadToStatic",   "SliceToDynamic", "SetBound",    "annotate_device_placement",
      "X64Combine",    "X64SplitLow",  "X64SplitHigh",  "TopK",
      "__gpu$TopK",    "AssumeGatherIndicesInBound", "GetRngSeed",
      "InspectSharding", "CustomSPMDPartitioning",
  };
  for (std::string_view name : kNames) {
    if (target == name) return true;
  }
  return false;
}

CustomCallAliasing::CustomCallAliasing(const Module& m, Analyses& analyses) : module_(&m) {
  // Custom calls that are the root of a (non-sugar) async computation.
  absl::flat_hash_map<InstrId, InstrId> wrapping_start;
  const OpcodeIndex& index = analyses.Get<OpcodeIndex>();
  const CallAttributes& call_attributes = analyses.Get<CallAttributes>();
  for (InstrId id : index.Of(Opcode::kAsyncStart)) {
    const Instruction& in = m.instr(id);
    if (in.has(Instruction::kAsyncSugar)) continue;
    if (m.called(id).empty()) continue;
    const InstrId root = m.computation(m.called(id)[0]).root;
    if (root != kNoId && m.opcode(root) == Opcode::kCustomCall) wrapping_start[root] = id;
  }

  TextOrderWalk walk(m);  // attributes are read in text order
  const std::vector<InstrId> calls = index.Collect({Opcode::kCustomCall, Opcode::kAsyncStart});
  sites_.reserve(calls.size());
  // Calls with the same target text share its string in CallAttributes: the
  // last one's interned view and verdict are reused without hashing it.
  const std::string* last_target = nullptr;
  std::string_view last_interned;
  bool last_internal = false;
  for (InstrId id : calls) {
    const Instruction& in = m.instr(id);
    const bool sugar_start = in.opcode == Opcode::kAsyncStart &&
                             in.has(Instruction::kAsyncSugar) &&
                             m.async_wrapped_opcode(id) == Opcode::kCustomCall;
    if (in.opcode != Opcode::kCustomCall && !sugar_start) continue;
    if (!m.has_known_shape(id)) continue;
    walk.Visit(id);
    AliasingCallSite site;
    site.call = id;
    const Shape& shape = m.shape(id);
    if (sugar_start) {
      if (!shape.IsTuple() || shape.tuple_shapes.size() < 2) continue;
      site.result = shape.tuple_shapes[1];
    } else {
      site.result = &shape;
    }
    const std::string& target = call_attributes.Target(id);
    if (&target != last_target) {
      last_target = &target;
      last_interned = Intern(target);
      last_internal = IsXlaInternalCustomCallTarget(last_interned);
    }
    site.target = last_interned;
    site.xla_internal_target = last_internal;
    site.kernel_key = site.target;
    if (IsGenericKernelLauncher(site.target)) {
      const std::string_view config =
          RawStringAttr(m, id, AttrName::kBackendConfig).value_or("");
      site.kernel_key = config.empty() ? std::string_view()
                                       : Intern(StrCat(site.target, "\n", config));
    }
    site.claims_begin = static_cast<uint32_t>(claims_.size());
    AddClaims(call_attributes, id, /*on_async_start=*/false, &claims_);
    if (auto it = wrapping_start.find(id); it != wrapping_start.end()) {
      site.async_start = it->second;
      AddClaims(call_attributes, site.async_start, /*on_async_start=*/true, &claims_);
    }
    site.claims_count = static_cast<uint32_t>(claims_.size() - site.claims_begin);
    site.skip_shape_check =
        FrontendAttribute(m, id, "xla_skip_custom_call_alias_shape_check").has_value();

    const size_t index = sites_.size();
    // Only kernels with a claim get a table: HasKernelClaims is false for
    // the others, whose calls then skip the per-leaf search.
    if (!site.kernel_key.empty() && site.claims_count > 0) {
      auto& table = by_kernel_[site.kernel_key];
      for (const AliasClaim& claim : claims(site)) {
        table.try_emplace(ShapeIndexToString(claim.output_index), TargetClaim{index, claim});
      }
    }
    sites_.push_back(site);
  }
}

std::string_view CustomCallAliasing::Intern(std::string_view text) {
  if (auto it = interned_.find(text); it != interned_.end()) return *it;
  return *interned_.insert(strings_.emplace_back(text)).first;
}

InstrId CustomCallAliasing::operand_producer(const AliasingCallSite& site,
                                             size_t operand) const {
  if (site.async_start != kNoId) {
    const std::span<const InstrId> start_operands = module_->operands(site.async_start);
    if (operand < start_operands.size()) return start_operands[operand];
  }
  return module_->operand(site.call, operand);
}

const TargetClaim* CustomCallAliasing::FindKernelClaim(std::string_view kernel_key,
                                                       const ShapeIndex& index) const {
  if (kernel_key.empty()) return nullptr;
  auto it = by_kernel_.find(kernel_key);
  if (it == by_kernel_.end()) return nullptr;
  auto claim = it->second.find(ShapeIndexToString(index));
  return claim == it->second.end() ? nullptr : &claim->second;
}

}  // namespace hlolint
