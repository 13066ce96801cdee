// host-offload-leak: a value brought back from host memory (S(5)) to the
// device before the entry's memory peak and used only after it: the
// prefetch occupies device memory right where it is scarcest. Built on the
// buffer live ranges of the memory report (analysis/buffer_liveness.h).
#include "analysis/analyses.h"
#include "analysis/buffer_liveness.h"
#include "analysis/memory_estimate.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

bool InHostMemory(const Shape& shape) {
  return shape.IsArray() && shape.has_layout &&
         shape.layout.memory_space == kHostOffloadMemorySpace;
}

// Whether any shape of the module is in host memory: without one there is
// nothing to find, and the live ranges are not worth building.
bool ModuleUsesHostMemory(const Module& m) {
  for (ShapeId id = 0; id < m.shapes().size(); ++id) {
    if (InHostMemory(m.shapes().Get(id))) return true;
  }
  return false;
}

// Whether `instr` reads a value in host memory: a copy or copy-start from
// it, or any other instruction taking such an operand (dynamic-slice of an
// offloaded stack, a fusion).
bool ReadsHostMemory(const Module& m, InstrId instr) {
  for (InstrId operand : m.operands(instr)) {
    if (InHostMemory(m.shape(operand))) return true;
  }
  return false;
}

// The first instruction after position `after` of `instrs` that reads
// `buffer` (through any operand slot); the last use when none is found.
InstrId NextUse(const Module& m, const BufferLiveness& liveness, const InstrIdList& instrs,
                uint32_t buffer, uint32_t after) {
  const LogicalBuffer& b = liveness.buffers()[buffer];
  for (uint32_t p = after + 1; p < b.last_use; ++p) {
    for (InstrId operand : m.operands(instrs[p])) {
      const uint32_t slots = liveness.SlotCount(operand);
      for (uint32_t s = 0; s < slots; ++s) {
        if (liveness.BufferAt(operand, s) == buffer) return instrs[p];
      }
    }
  }
  return instrs[b.last_use];
}

class HostOffloadLeakRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"host-offload-leak", RuleCategory::kScheduling, Severity::kWarning,
                                "Value brought back from host memory that stays live on the device "
                                "across the memory peak"};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    if (m.entry() == kNoId || !ModuleUsesHostMemory(m)) return;
    const BufferLiveness& liveness = ctx.analyses().Get<BufferLiveness>();
    const ComputationLiveness* entry = liveness.Find(m.entry());
    if (entry == nullptr || entry->temporaries_peak.empty() || entry->temporaries_peak[0] == 0) {
      return;
    }
    const uint32_t peak = entry->peak_position;
    const InstrIdList instrs = m.instructions(m.entry());
    if (peak >= instrs.size()) return;
    const InstrId peak_instr = instrs[peak];
    for (uint32_t i = entry->buffers_begin; i < entry->buffers_end; ++i) {
      const LogicalBuffer& b = liveness.buffers()[i];
      const bool temporary =
          b.kind == BufferKind::kTemporary || b.kind == BufferKind::kHostedTemporary;
      if (b.space != 0 || b.index_table || b.bytes == 0 || !temporary) {
        continue;
      }
      if (!(b.defined_at < peak && peak < b.last_use) || !ReadsHostMemory(m, b.instr)) continue;
      // A copy-start's value is its destination, {0} (slot 1); its
      // context and the index table are not brought back.
      if (m.opcode(b.instr) == Opcode::kCopyStart && b.slot != 1) continue;
      const InstrId next = NextUse(m, liveness, instrs, i, peak);
      ctx.Report(b.instr, StrCat("'", m.name(b.instr), "' brings ", b.bytes,
                                 " bytes back from host memory and holds them across the memory "
                                 "peak at '", m.name(peak_instr), "'"))
          .Note(peak_instr, StrCat("the peak: ", entry->temporaries_peak[0],
                                   " bytes of temporaries live here"))
          .Note(next, "the first use after the peak: bring the value back closer to it");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeHostOffloadLeakRule() { return std::make_unique<HostOffloadLeakRule>(); }

}  // namespace hlolint
