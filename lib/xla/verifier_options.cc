#include "xla/verifier_options.h"

#include <algorithm>
#include <iterator>

namespace hlolint {
namespace {

constexpr VerifierOptionInfo kVerifierOptions[] = {
    {"layout_sensitive", &VerifierOptions::layout_sensitive,
     "Verify as after layout assignment: a scan that is not associative is an error."},
    {"allow_mixed_precision", &VerifierOptions::allow_mixed_precision,
     "Operands of one instruction may mix floating-point types; false makes "
     "CheckMixedPrecisionOperands and the rng element-type check errors."},
    {"allow_unbounded_dynamism", &VerifierOptions::allow_unbounded_dynamism,
     "Shapes may have unbounded dimensions (`?`); false makes them errors."},
    {"verify_broadcast_dimensions_order", &VerifierOptions::verify_broadcast_dimensions_order,
     "A broadcast's dimensions= must be sorted."},
    {"verify_instruction_name_unchanged", &VerifierOptions::verify_instruction_name_unchanged,
     "An instruction's name equals its metadata scheduling_name, unless it has "
     "\".remat\" or \".clone\" in it."},
    {"verify_no_host_memory_space", &VerifierOptions::verify_no_host_memory_space,
     "No array result is laid out in the host memory space (S(5))."},
    {"verify_unique_channel_ids", &VerifierOptions::verify_unique_channel_ids,
     "Instructions that share a channel_id are of one kind: all send/recv ops, or "
     "collectives of one opcode."},
};

}  // namespace

std::span<const VerifierOptionInfo> VerifierOptionInfos() { return kVerifierOptions; }

const VerifierOptionInfo* FindVerifierOption(std::string_view name) {
  const auto it = std::find_if(std::begin(kVerifierOptions), std::end(kVerifierOptions),
                               [&](const VerifierOptionInfo& o) { return o.name == name; });
  return it == std::end(kVerifierOptions) ? nullptr : &*it;
}

}  // namespace hlolint
