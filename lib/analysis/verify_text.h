// Raw attribute text for verify rules that compare attributes for identity
// (XLA's HloInstruction::Identical) rather than interpret them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
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

namespace hlolint {

// Whether the tuple structure of an `origin={...}` original value matches
// `shape` (VerifyOriginalValue): a tuple shape needs a `(...)` node with one
// child per element, anything else a `{...}` leaf. `text` is the value with
// its outer braces. False on a mismatch; true when the text is not
// understood.
bool OriginalValueMatchesShape(std::string_view text, const Shape& shape);

// The parts of a tiled sharding text that decide its rank
// (HloSharding::ValidateNonTuple): the number of tile assignment dimensions
// minus subgroup dimensions. nullopt for replicated, maximal, manual, tuple
// or unknown forms.
std::optional<int64_t> ShardingTiledDataRank(std::string_view text);

// Sharding text without whitespace, for identity comparisons.
std::string NormalizedSharding(std::string_view text);

}  // namespace hlolint
