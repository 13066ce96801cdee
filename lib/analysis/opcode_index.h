// The module's instructions grouped by opcode, each group in id (= text)
// order. Built once per module (a counting sort over the dense opcode
// array) for the rules and analyses that look at a few opcodes only: they
// visit those instructions instead of testing every instruction's opcode.
#pragma once

#include <array>
#include <initializer_list>
#include <span>
#include <vector>

#include "analysis/analyses.h"
#include "ir/module.h"

namespace hlolint {

class OpcodeIndex {
 public:
  OpcodeIndex(const Module& module, Analyses& analyses);

  // The instructions with opcode `op`, in id order.
  std::span<const InstrId> Of(Opcode op) const {
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
  // Group of opcode o: ids_[begin_[o], begin_[o + 1]); kInvalid has a group
  // too (instructions the parser left without an opcode).
  std::array<uint32_t, kOpcodeCount + 2> begin_{};
  std::vector<InstrId> ids_;
};

}  // namespace hlolint
