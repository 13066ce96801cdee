// Typed access to instruction attributes. The IR keeps each attribute as a
// position in the source; these functions re-read the value with the same
// grammar code that validated it during parsing ("lazy typing"), so rules
// pay only for the attributes they look at.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "parse/values.h"

namespace hlolint {

// nullopt when the attribute is absent.
std::optional<int64_t> IntAttr(const Module& m, InstrId id, AttrName name);
std::optional<bool> BoolAttr(const Module& m, InstrId id, AttrName name);
// String value with C escapes processed.
std::optional<std::string> StringAttr(const Module& m, InstrId id, AttrName name);
// String value as written (escapes not processed), or a JSON dict with braces.
std::optional<std::string_view> RawStringAttr(const Module& m, InstrId id, AttrName name);
// An identifier value (enums: direction=LT, kind=kLoop, ...).
std::optional<std::string_view> IdentAttr(const Module& m, InstrId id, AttrName name);
std::optional<std::vector<int64_t>> IntListAttr(const Module& m, InstrId id, AttrName name);
// IntListAttr into a caller's vector, so hot loops reuse its capacity: false
// (and `*out` empty) when the attribute is absent or not an integer list.
bool IntListAttrInto(const Module& m, InstrId id, AttrName name, std::vector<int64_t>* out);
std::optional<std::vector<std::vector<int64_t>>> IntListListAttr(const Module& m, InstrId id,
                                                                 AttrName name);
std::optional<Window> WindowAttr(const Module& m, InstrId id);
std::optional<ConvolutionDimensionNumbers> DimLabelsAttr(const Module& m, InstrId id);
std::optional<SliceRanges> SliceAttr(const Module& m, InstrId id);
std::optional<PaddingConfig> PaddingAttr(const Module& m, InstrId id);
std::optional<ReplicaGroups> ReplicaGroupsAttr(const Module& m, InstrId id);
// `sharding={...}` (or another sharding-valued attribute).
std::optional<Sharding> ShardingAttr(const Module& m, InstrId id,
                                     AttrName name = AttrName::kSharding);
// Shape-valued attributes (operand_layout_constraints, outfeed_shape) are
// interned into `table`, which must outlive the returned ids.
std::optional<std::vector<ShapeId>> ShapeListAttr(const Module& m, InstrId id, AttrName name,
                                                  ShapeTable& table);

// output_to_operand_aliasing entries; empty when absent.
std::vector<OutputOperandAlias> OutputToOperandAliasing(const Module& m, InstrId id);
// custom_call_target, unescaped; empty when absent.
std::string CustomCallTarget(const Module& m, InstrId id);
// The `metadata={...}` of an instruction; nullopt when absent.
std::optional<OpMetadata> Metadata(const Module& m, InstrId id);
// The frontend attribute `key` of an instruction, unescaped.
std::optional<std::string> FrontendAttribute(const Module& m, InstrId id, std::string_view key);

}  // namespace hlolint
