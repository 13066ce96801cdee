// Sharding texts as the verify-sharding rule compares them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hlolint {

// The parts of a tiled sharding text that decide its rank
// (HloSharding::ValidateNonTuple): the number of tile assignment dimensions
// minus subgroup dimensions. nullopt for replicated, maximal, manual, tuple
// or unknown forms.
std::optional<int64_t> ShardingTiledDataRank(std::string_view text);

// Sharding text without whitespace, for identity comparisons.
std::string NormalizedSharding(std::string_view text);

}  // namespace hlolint
