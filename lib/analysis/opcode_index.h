// The module's instructions grouped by opcode, each group in id (= text)
// order. Built once per module (a counting sort over the dense opcode
// array) for the rules and analyses that look at a few opcodes only: they
// visit those instructions instead of testing every instruction's opcode.
//
// The bulk opcodes (IsBulkOpcode: parameters, constants, element-wise
// arithmetic, ...) are most of a large module's instructions and no rule
// visits them by opcode: their groups are collected only when asked for,
// so the index does not hold an id of every instruction for the whole lint.
#pragma once

#include <array>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "analysis/analyses.h"
#include "ir/module.h"

namespace hlolint {

// Opcodes that are not grouped up front (see OpcodeIndex), as a table:
// the index's build tests every instruction's opcode, which a table lookup
// does in a few instructions and an out-of-line switch does not.
inline constexpr auto kBulkOpcodes = [] {
  std::array<bool, kOpcodeCount + 1> bulk{};
  for (Opcode op : {Opcode::kParameter, Opcode::kConstant, Opcode::kBroadcast,
                    Opcode::kGetTupleElement, Opcode::kTuple, Opcode::kIota, Opcode::kAdd,
                    Opcode::kSubtract, Opcode::kMultiply, Opcode::kDivide, Opcode::kMaximum,
                    Opcode::kMinimum, Opcode::kCompare, Opcode::kSelect, Opcode::kConvert,
                    Opcode::kNegate, Opcode::kExp, Opcode::kLog, Opcode::kTanh, Opcode::kSlice,
                    Opcode::kReduce}) {
    bulk[static_cast<size_t>(op)] = true;
  }
  return bulk;
}();
inline bool IsBulkOpcode(Opcode op) { return kBulkOpcodes[static_cast<size_t>(op)]; }

class OpcodeIndex {
 public:
  OpcodeIndex(const Module& module, Analyses& analyses);

  // The instructions with opcode `op`, in id order.
  std::span<const InstrId> Of(Opcode op) const {
    if (IsBulkOpcode(op)) return BulkGroup(op);
    const size_t o = static_cast<size_t>(op);
    return {ids_.data() + begin_[o], begin_[o + 1] - begin_[o]};
  }
  bool Has(Opcode op) const { return !Of(op).empty(); }

  // The instructions with any of `ops` (distinct opcodes), in id order, into
  // `*out` (cleared first).
  void Collect(std::initializer_list<Opcode> ops, std::vector<InstrId>* out) const;
  std::vector<InstrId> Collect(std::initializer_list<Opcode> ops) const {
    std::vector<InstrId> out;
    Collect(ops, &out);
    return out;
  }
  // The instructions whose opcode satisfies `wanted`, in id order.
  std::vector<InstrId> Collect(bool (*wanted)(Opcode)) const;

 private:
  // A bulk opcode's group, collected on its first request (rules may ask
  // from several threads).
  std::span<const InstrId> BulkGroup(Opcode op) const;

  const Module& m_;
  // Group of opcode o: ids_[begin_[o], begin_[o + 1]), empty for bulk
  // opcodes; kInvalid has a group too (instructions the parser left without
  // an opcode).
  std::array<uint32_t, kOpcodeCount + 2> begin_{};
  std::vector<InstrId> ids_;
  mutable std::mutex bulk_mutex_;  // guards bulk_
  mutable std::array<std::unique_ptr<const std::vector<InstrId>>, kOpcodeCount + 1> bulk_;
};

}  // namespace hlolint
