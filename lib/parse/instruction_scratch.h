// What the module parser gathers about one instruction while it reads it:
// operands, attribute values the checks need, and where its parts start.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "ir/module.h"
#include "parse/attribute_sets.h"

namespace hlolint {

// What a caller decides of a new instruction; AddInstruction fills in the
// rest of its record. Read field by field, as the caller wrote it: a whole
// Instruction built on the stack and copied in wide loads stalls on store
// forwarding.
struct NewInstruction {
  uint32_t name_offset = 0;
  ShapeId shape = kNoShape;
  Opcode opcode = Opcode::kInvalid;
  uint8_t flags = 0;  // Instruction::Flags
};

// Where the parts of an instruction start, for error locations.
struct InstrOffsets {
  uint32_t shape = 0;     // the result shape, or the opcode when none is written
  uint32_t opcode = 0;
  uint32_t operands = 0;  // the '(' of the operand list
};

// The scalar part of InstrScratch: plain values with their defaults, reset
// by one assignment (a few wide stores) rather than field by field.
struct InstrScratchValues {
  bool virtual_operands = false;
  CompId slot_condition = kNoId, slot_body = kNoId, slot_true = kNoId, slot_false = kNoId,
         slot_select = kNoId, slot_scatter = kNoId;
  bool has_branches = false, has_slice_sizes = false, has_called_computations = false,
       has_to_apply = false;
  bool has_channel_id = false, has_async_thread = false, has_layout_constraints = false,
       has_mode = false;
  bool side_effect = false, use_global_device_ids = false, shape_written = false,
       shuffle_mode = false;
  int64_t dimensions_size = -1;  // -1 when `dimensions` is absent
  uint32_t dimensions_offset = 0;
  int64_t channel_id = 0;
  int64_t int_value = 0;  // get-tuple-element index / iota dimension
  int64_t num_carries = 0;
  std::string_view async_thread;
  uint32_t layout_constraints_offset = 0;
  int64_t parameter_replication_count = -1;  // -1 when absent
  uint32_t parameter_replication_offset = 0;
  FusionKind fusion_kind = FusionKind::kNone;
  Opcode inherited_wrapped = Opcode::kInvalid;
};

// Per-instruction scratch, one per nesting level, reused so that parsing
// allocates nothing per instruction in steady state.
struct InstrScratch : InstrScratchValues {
  std::vector<InstrId> operands;
  std::vector<uint32_t> operand_offsets;
  // Shapes the per-opcode checks see: the operands' shapes, or for the
  // `X-start` sugar the wrapped op's parameters (virtual_operands).
  std::vector<const Shape*> operand_shapes;
  std::vector<Attribute> attributes;
  // Where the names of the attributes with name_apart are (AddInstruction
  // files them in the module).
  std::vector<std::pair<AttrName, uint32_t>> apart_names;
  std::vector<InstrId> controls;
  std::vector<CompId> called;
  std::vector<CompId> branches;
  std::vector<int64_t> ints;
  std::vector<std::vector<int64_t>> int_lists;
  std::vector<int64_t> dimensions;
  std::vector<ShapeId> layout_constraints;
  // The opcode's attribute table when an instruction edits it (async
  // sugar, conditional, broadcast); kept here so it is not built per call.
  AttrSet edited_set;
  void Reset();

  // What a value means to the instruction, as the grammar and the
  // dump-form reader read it.
  void NoteBool(AttrName name, bool value) {
    if (name == AttrName::kCustomCallHasSideEffect) side_effect = value;
    if (name == AttrName::kUseGlobalDeviceIds) use_global_device_ids = value;
  }

  void NoteInt64(AttrName name, int64_t value) {
    if (name == AttrName::kIndex || name == AttrName::kIotaDimension) int_value = value;
    if (name == AttrName::kChannelId) {
      has_channel_id = true;
      channel_id = value;
    }
    if (name == AttrName::kNumCarries) num_carries = value;
  }

  void NoteString(AttrName name, std::string_view raw) {
    if (name == AttrName::kAsyncExecutionThread) {
      has_async_thread = true;
      async_thread = raw;
    }
  }

  void NoteIntList(AttrName name, uint32_t offset) {  // the list in `ints`
    if (name == AttrName::kDimensions) {
      dimensions_size = static_cast<int64_t>(ints.size());
      dimensions_offset = offset;
      dimensions.assign(ints.begin(), ints.end());
    }
  }

  void NoteComputation(AttrName name, CompId c) {
    switch (name) {
      case AttrName::kCondition: slot_condition = c; break;
      case AttrName::kBody: slot_body = c; break;
      case AttrName::kTrueComputation: slot_true = c; break;
      case AttrName::kFalseComputation: slot_false = c; break;
      case AttrName::kSelect: slot_select = c; break;
      case AttrName::kScatter: slot_scatter = c; break;
      case AttrName::kToApply:
        has_to_apply = true;
        // First in the list; usually the only one.
        if (called.empty()) {
          called.push_back(c);
        } else {
          called.insert(called.begin(), c);
        }
        break;
      default:
        called.push_back(c);
        break;
    }
  }
};

// The parameter numbers a scope has seen: by number while they stay small
// (the usual 0..n-1; the array grows by at most kSlack per parameter),
// others in a map.
struct ParameterNumbers {
  static constexpr int64_t kSlack = 64;
  std::vector<InstrId> by_number;  // kNoId: not seen
  absl::flat_hash_map<int64_t, InstrId> large;
  InstrId Find(int64_t number) const {
    if (static_cast<uint64_t>(number) < by_number.size() &&
        by_number[static_cast<size_t>(number)] != kNoId) {
      return by_number[static_cast<size_t>(number)];
    }
    if (large.empty()) return kNoId;
    const auto it = large.find(number);
    return it == large.end() ? kNoId : it->second;
  }
  void Add(int64_t number, InstrId id) {  // number >= 0, not seen
    if (number >= static_cast<int64_t>(by_number.size()) + kSlack) {
      large.emplace(number, id);
      return;
    }
    if (static_cast<size_t>(number) >= by_number.size()) {
      by_number.resize(static_cast<size_t>(number) + 1, kNoId);
    }
    by_number[static_cast<size_t>(number)] = id;
  }
  void clear() {
    by_number.clear();
    large.clear();
  }
};

}  // namespace hlolint
