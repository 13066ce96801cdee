#include "analysis/memory_estimate.h"

#include <algorithm>
#include <queue>
#include <utility>

#include "analysis/buffer_liveness.h"
#include "ir/shape_bytes.h"
#include "parse/attributes.h"

namespace hlolint {
namespace {

std::string_view KindName(BufferKind kind) {
  switch (kind) {
    case BufferKind::kEntryParameter: case BufferKind::kCalleeParameter: return "parameter";
    case BufferKind::kConstant: return "constant";
    case BufferKind::kOutput: case BufferKind::kAliasedOutput: return "output";
    case BufferKind::kTemporary: case BufferKind::kCalleeResult: return "temporary";
    case BufferKind::kHostedTemporary: return "temporary";
  }
  return "temporary";
}

uint32_t InstructionLine(const Module& m, InstrId instr) {
  return m.source().Locate(m.instr(instr).name_offset).line;
}

// The largest `count` buffers of those offered, largest first (ties: the
// one defined first), without keeping the rest.
class LargestBuffers {
 public:
  explicit LargestBuffers(size_t count) : count_(count) {}
  void Offer(uint32_t buffer, uint64_t bytes) {
    if (count_ == 0) return;
    const Entry entry{bytes, buffer};
    if (heap_.size() < count_) {
      heap_.push(entry);
    } else if (Larger(entry, heap_.top())) {
      heap_.pop();
      heap_.push(entry);
    }
  }
  std::vector<uint32_t> Take() {
    std::vector<Entry> entries;
    while (!heap_.empty()) {
      entries.push_back(heap_.top());
      heap_.pop();
    }
    std::sort(entries.begin(), entries.end(), Larger);
    std::vector<uint32_t> ids;
    for (const Entry& e : entries) ids.push_back(e.buffer);
    return ids;
  }

 private:
  struct Entry {
    uint64_t bytes;
    uint32_t buffer;
  };
  static bool Larger(const Entry& a, const Entry& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.buffer < b.buffer;
  }
  struct Smaller {
    bool operator()(const Entry& a, const Entry& b) const { return Larger(a, b); }
  };
  size_t count_;
  std::priority_queue<Entry, std::vector<Entry>, Smaller> heap_;  // smallest on top
};

MemorySpaceFigures FiguresOf(const BufferLiveness& liveness, const ComputationLiveness& entry,
                             uint8_t space) {
  MemorySpaceFigures f;
  f.memory_space = liveness.memory_spaces()[space];
  for (const LogicalBuffer& b : liveness.buffers()) {
    if (b.space != space) continue;
    switch (b.kind) {
      case BufferKind::kEntryParameter: f.parameters_bytes += b.bytes; break;
      case BufferKind::kConstant: f.constants_bytes += b.bytes; break;
      case BufferKind::kOutput: f.outputs_bytes += b.bytes; break;
      default: break;
    }
  }
  if (space < entry.temporaries_peak.size()) {
    f.temporaries_peak_bytes = entry.temporaries_peak[space];
  }
  f.total_bytes =
      f.parameters_bytes + f.constants_bytes + f.outputs_bytes + f.temporaries_peak_bytes;
  return f;
}

MemoryBufferInfo DescribeBuffer(const Module& m, const LogicalBuffer& b) {
  MemoryBufferInfo info;
  info.instruction = std::string(m.name(b.instr));
  info.computation = std::string(m.computation_name(b.computation));
  const Shape& shape = m.shape(b.instr);
  const ShapeIndex index = BufferLiveness::SlotIndex(shape, b.slot);
  if (!index.empty()) info.index = ShapeIndexToString(index);
  if (const Shape* subshape = Subshape(shape, index)) info.shape = ShapeToString(*subshape);
  info.kind = std::string(KindName(b.kind));
  info.bytes = b.bytes;
  info.line = InstructionLine(m, b.instr);
  if (std::optional<OpMetadata> metadata = Metadata(m, b.instr)) {
    info.source_file = metadata->source_file;
    info.source_line = metadata->source_line;
  }
  return info;
}

// The buffers of the default memory space live at the entry's position
// `position`: parameters and constants always, outputs once defined,
// temporaries in their range, and the temporaries of the computation run
// there at its own peak (the largest of them, and so on inwards).
std::vector<uint32_t> LiveAtPeak(const Module& m, const BufferLiveness& liveness,
                                 const ComputationLiveness& entry, uint32_t position,
                                 size_t count) {
  LargestBuffers largest(count);
  const std::vector<LogicalBuffer>& buffers = liveness.buffers();
  for (uint32_t i = 0; i < buffers.size(); ++i) {
    const LogicalBuffer& b = buffers[i];
    const bool always = b.kind == BufferKind::kEntryParameter || b.kind == BufferKind::kConstant;
    if (b.space == 0 && always) {
      largest.Offer(i, b.bytes);
    }
  }
  const ComputationLiveness* at = &entry;
  while (at != nullptr) {
    for (uint32_t i = at->buffers_begin; i < at->buffers_end; ++i) {
      const LogicalBuffer& b = buffers[i];
      if (b.space != 0 || b.defined_at > position) continue;
      const bool live = b.kind == BufferKind::kOutput ||
                        (b.kind == BufferKind::kTemporary && b.last_use >= position);
      if (live) largest.Offer(i, b.bytes);
    }
    const InstrIdList instrs = m.instructions(at->computation);
    if (position >= instrs.size()) break;
    const ComputationLiveness* inner = nullptr;
    for (CompId callee : liveness.NestedCallees(instrs[position])) {
      const ComputationLiveness* candidate = liveness.Find(callee);
      if (candidate == nullptr || candidate->temporaries_peak.empty() || candidate == at) continue;
      if (inner == nullptr || candidate->temporaries_peak[0] > inner->temporaries_peak[0]) {
        inner = candidate;
      }
    }
    if (inner == nullptr || inner->temporaries_peak[0] == 0) break;
    at = inner;
    position = inner->peak_position;
  }
  return largest.Take();
}

std::vector<TimelinePoint> SampleTimeline(const Module& m, CompId entry,
                                          const std::vector<uint64_t>& live, size_t points) {
  std::vector<TimelinePoint> timeline;
  const size_t n = live.size();
  if (n == 0 || points == 0) return timeline;
  const InstrIdList instrs = m.instructions(entry);
  const size_t buckets = std::min(n, points);
  timeline.reserve(buckets);
  for (size_t b = 0; b < buckets; ++b) {
    const size_t begin = b * n / buckets;
    const size_t end = std::max(begin + 1, (b + 1) * n / buckets);
    size_t best = begin;
    for (size_t p = begin + 1; p < end; ++p) {
      if (live[p] > live[best]) best = p;
    }
    TimelinePoint point;
    point.position = static_cast<uint32_t>(best);
    point.instruction = std::string(m.name(instrs[best]));
    point.line = InstructionLine(m, instrs[best]);
    point.live_bytes = live[best];
    timeline.push_back(std::move(point));
  }
  return timeline;
}

std::vector<ComputationPeakInfo> ComputationPeaks(const Module& m, const BufferLiveness& liveness) {
  std::vector<ComputationPeakInfo> peaks;
  for (const ComputationLiveness& c : liveness.computations()) {
    ComputationPeakInfo info;
    info.computation = std::string(m.computation_name(c.computation));
    info.temporaries_peak_bytes = c.temporaries_peak.empty() ? 0 : c.temporaries_peak[0];
    const InstrIdList instrs = m.instructions(c.computation);
    if (c.peak_position < instrs.size()) {
      info.instruction = std::string(m.name(instrs[c.peak_position]));
      info.line = InstructionLine(m, instrs[c.peak_position]);
    }
    peaks.push_back(std::move(info));
  }
  std::stable_sort(peaks.begin(), peaks.end(), [](const auto& a, const auto& b) {
    return a.temporaries_peak_bytes > b.temporaries_peak_bytes;
  });
  return peaks;
}

// Whether `opcode` calls computations in an embedded context: once per
// element or window, inside the instruction's own loop (XLA's
// CallContext::kEmbedded), not one instruction after another.
bool CallsEmbedded(Opcode opcode) {
  switch (opcode) {
    case Opcode::kReduce: case Opcode::kReduceWindow: case Opcode::kScatter:
    case Opcode::kSelectAndScatter: case Opcode::kMap: case Opcode::kSort:
    case Opcode::kAllReduce: case Opcode::kAllReduceStart: case Opcode::kReduceScatter:
      return true;
    default:
      return false;
  }
}

// The thread-local bytes of the embedded computations (each value its own
// allocation: parameters, root, every instruction but those that only
// forward), and the constants in them, which XLA allocates as constants.
void AddEmbeddedComputations(const Module& m, MemoryEstimate& estimate) {
  std::vector<uint8_t> seen(m.computation_count(), 0);
  const std::span<const Opcode> opcodes = m.opcodes();
  for (InstrId id = 0; id < opcodes.size(); ++id) {
    if (!CallsEmbedded(opcodes[id])) continue;
    for (CompId callee : m.called(id)) {
      if (callee >= seen.size() || seen[callee]) continue;
      seen[callee] = 1;
      for (InstrId instr : m.instructions(callee)) {
        const Opcode opcode = m.opcode(instr);
        if (opcode == Opcode::kGetTupleElement || opcode == Opcode::kBitcast) continue;
        const Shape& shape = m.shape(instr);
        uint64_t bytes = 0;
        if (opcode == Opcode::kTuple) {
          bytes = kTupleEntryBytes * shape.tuple_shapes.size();
        } else {
          bytes = ShapeByteSize(shape).value_or(0);
        }
        if (opcode == Opcode::kConstant) {
          estimate.device.constants_bytes += bytes;
        } else {
          estimate.thread_local_bytes += bytes;
        }
      }
    }
  }
}

}  // namespace

MemoryEstimate EstimateMemory(const Module& m, Analyses& analyses,
                              const MemoryEstimateOptions& options) {
  MemoryEstimate estimate;
  estimate.scheduled = m.is_scheduled();
  const BufferLiveness& liveness = analyses.Get<BufferLiveness>();
  const ComputationLiveness* entry = m.entry() == kNoId ? nullptr : liveness.Find(m.entry());
  if (entry == nullptr) return estimate;
  estimate.entry_instructions = static_cast<uint32_t>(m.instructions(m.entry()).size());
  for (const LogicalBuffer& b : liveness.buffers()) {
    if (!b.sized) ++estimate.unsized_buffers;
    if (b.kind == BufferKind::kAliasedOutput) estimate.aliased_output_bytes += b.bytes;
  }
  estimate.device = FiguresOf(liveness, *entry, 0);
  AddEmbeddedComputations(m, estimate);
  estimate.device.total_bytes = estimate.device.parameters_bytes +
                                estimate.device.constants_bytes + estimate.device.outputs_bytes +
                                estimate.thread_local_bytes +
                                estimate.device.temporaries_peak_bytes;
  for (size_t space = 1; space < liveness.memory_spaces().size(); ++space) {
    MemorySpaceFigures figures = FiguresOf(liveness, *entry, static_cast<uint8_t>(space));
    std::vector<uint64_t> live = liveness.LiveBytes(*entry, static_cast<uint8_t>(space), true);
    const uint64_t most = live.empty() ? 0 : *std::max_element(live.begin(), live.end());
    figures.peak_bytes = figures.parameters_bytes + figures.constants_bytes + most;
    estimate.other_spaces.push_back(figures);
  }
  std::sort(estimate.other_spaces.begin(), estimate.other_spaces.end(),
            [](const auto& a, const auto& b) { return a.memory_space < b.memory_space; });

  // The live set along the entry's schedule: what lives throughout, plus
  // outputs once defined, temporaries and what nested computations need.
  std::vector<uint64_t> live = liveness.LiveBytes(*entry, 0, true);
  const uint64_t always = estimate.device.parameters_bytes + estimate.device.constants_bytes +
                          estimate.thread_local_bytes;
  for (uint64_t& bytes : live) bytes += always;
  estimate.device.peak_bytes = always;
  for (size_t p = 0; p < live.size(); ++p) {
    if (live[p] > estimate.device.peak_bytes || p == 0) {
      estimate.device.peak_bytes = live[p];
      estimate.peak_position = static_cast<uint32_t>(p);
    }
  }
  const InstrIdList instrs = m.instructions(m.entry());
  if (estimate.peak_position < instrs.size()) {
    const InstrId at = instrs[estimate.peak_position];
    estimate.peak_instruction = std::string(m.name(at));
    estimate.peak_line = InstructionLine(m, at);
    for (uint32_t buffer :
         LiveAtPeak(m, liveness, *entry, estimate.peak_position, options.top_buffers)) {
      estimate.top.push_back(DescribeBuffer(m, liveness.buffers()[buffer]));
    }
  }
  estimate.timeline = SampleTimeline(m, m.entry(), live, options.timeline_points);
  estimate.computations = ComputationPeaks(m, liveness);
  return estimate;
}

}  // namespace hlolint
