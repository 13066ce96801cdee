// The attributes each opcode's instructions may carry, and how each value
// is parsed (XLA's per-opcode attribute maps in HloParserImpl).
#pragma once

#include <array>
#include <bitset>
#include <cstdint>

#include "ir/attr_name.h"
#include "ir/opcode.h"
#include "xla/profile.h"

namespace hlolint {

// How an attribute value is parsed (XLA's AttrTy).
enum class AttrType : uint8_t {
  kNotAllowed = 0,
  kBool,
  kInt64,
  kInt32,
  kFloat,
  kString,
  kStringOrJson,
  kLiteral,
  kIntList,
  kIntListList,
  kComputation,
  kComputationList,
  kFftType,
  kPaddingType,
  kComparisonDirection,
  kComparisonType,
  kWindow,
  kConvDims,
  kSharding,
  kFrontendAttributes,
  kStatistics,
  kBoolListOrBool,
  kParameterReplication,
  kInstructionList,
  kSliceRanges,
  kPaddingConfig,
  kMetadata,
  kFusionKind,
  kDistribution,
  kDomain,
  kPrecisionList,
  kShape,
  kShapeList,
  kTranspose,
  kRandomAlgorithm,
  kPrecisionAlgorithm,
  kInstructionAliasing,
  kCustomCallSchedule,
  kApiVersion,
  kReplicaGroups,
  kResultAccuracy,
  kOriginalValue,
  kMode,
  kConvKind,
  kSparsityConfig,
};

// The attributes an instruction may carry: a type per name and the required
// ones. Copied per instruction from a per-opcode template, then adjusted.
struct AttrSet {
  std::array<AttrType, kAttrNameCount> types{};
  std::bitset<kAttrNameCount> required;
  // Not allowed here, but by the parser of another XLA than the one read
  // for (ParseLimits::xla): the error says which.
  std::bitset<kAttrNameCount> other_xla;
  void Allow(AttrName name, AttrType type, bool is_required = false) {
    types[static_cast<size_t>(name)] = type;
    required[static_cast<size_t>(name)] = is_required;
  }
  void Require(AttrName name, bool is_required) { required[static_cast<size_t>(name)] = is_required; }
  AttrType type(AttrName name) const { return types[static_cast<size_t>(name)]; }
};

// The sets of XLA latest.
const AttrSet& AttrSetFor(Opcode opcode);
// The sets of the parser of `xla`, indexed by opcode (the parser keeps the
// pointer; a few attributes were accepted by some XLA only).
const AttrSet* AttrSetTable(const XlaProfile& xla);

}  // namespace hlolint
