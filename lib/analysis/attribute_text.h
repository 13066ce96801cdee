// Raw attribute text for verify rules that compare attributes for identity
// (XLA's HloInstruction::Identical) rather than interpret them.
#pragma once

#include <cstdint>
#include <string_view>

#include "ir/module.h"

namespace hlolint {

// The value text of attribute `name` of `id` as written (trailing separators
// trimmed); empty when the attribute is absent.
std::string_view AttributeText(const Module& m, InstrId id, AttrName name);

// One past the last token of the attribute value at `value_offset`, the last
// attribute of its instruction (the IR keeps no end offset per
// instruction): its tokens, brackets balanced, up to a ',', a closing
// bracket or the next instruction (`ROOT`, a name, or a name and '=').
uint32_t LastAttributeValueEnd(const Module& m, uint32_t value_offset);

}  // namespace hlolint
