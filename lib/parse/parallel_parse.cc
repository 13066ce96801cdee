// One large module parsed on two threads.
//
// The module's text is cut into chunks at computation boundaries (a line
// `}` and the next computation's first token). The first thread parses the
// module front to back as usual. The second takes chunks from the last one
// down, each parsed by a parser of its own into a module of its own (a
// fragment), until it would take a chunk the first thread has entered.
// When the first thread reaches a chunk the second one took, it waits for
// it and then merges each fragment in order as it reaches its first byte:
// renumbering ids, interning the fragment's shapes and attribute value keys
// in the order the one-thread parse would have, and resolving the
// fragment's calls of computations defined before it. Taking chunks from
// both ends balances the work without knowing its cost in advance (the
// entry computation, last in a dump, costs more per byte than the fused
// computations before it).
//
// The result is the IR the one-thread parse builds, because:
// * computations refer to one another by name, and instructions only to
//   instructions of their own computation, so a computation parses alike
//   wherever the parse starts, except where a check needs the body of a
//   computation defined before its chunk: there the fragment gives up
//   (NeedsFirstHalf);
// * a fragment is merged only when the first thread's parse stops at
//   exactly its first byte, between two computations, and the fragment's
//   parse stopped at exactly the next chunk's (a cut guessed inside a
//   string or a comment is never reached that way);
// * anything a fragment could not settle (an error, a reference that does
//   not resolve, a name defined twice, two ENTRY computations) makes the
//   first thread parse that chunk itself, so errors are found and reported
//   exactly as on one thread.
#include <algorithm>
#include <cstring>
#include <span>
#include <system_error>
#include <mutex>
#include <thread>

#include "lex/byte_scan.h"
#include "parse/module_parser.h"

namespace hlolint {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// The first computation that starts on a line of its own after a line that
// is exactly `}` (how dumps close a computation), where that `}` starts in
// [from, search_to); 0 when there is none. Only a guess: see TakeFragment.
uint32_t FindComputationBoundary(const char* data, uint32_t from, uint32_t search_to,
                                 uint32_t end) {
  const std::string_view text(data, std::min(search_to, end));
  for (size_t at = text.find("\n}", from); at != std::string_view::npos;
       at = text.find("\n}", at + 2)) {
    size_t p = at + 2;
    while (p < end && data[p] == '\r') ++p;
    if (p >= end || data[p] != '\n') continue;
    while (p < end && IsBlank(data[p])) ++p;
    if (p < end && (data[p] == '%' || IsIdentStartByte(data[p]))) return static_cast<uint32_t>(p);
  }
  return 0;
}

}  // namespace

ModuleParser::~ModuleParser() = default;

ModuleParser::ParallelParse::~ParallelParse() {
  cancel.store(true, std::memory_order_relaxed);
  if (thread.joinable()) thread.join();
}

bool ModuleParser::NeedsFirstHalf(uint32_t offset) {
  fragment_unusable_ = true;
  return Error(offset, "needs a computation of the module's first half");
}

CompId ModuleParser::LookupComputation(std::string_view name) {
  const CompId found = computation_names_.Find(name);
  if (found != NameTable::kNotFound || !fragment_) return found;
  return external_computations_.Insert(
      name, kExternalComputation + static_cast<CompId>(external_computations_.size()));
}

std::unique_ptr<ModuleParser::ParallelParse> ModuleParser::StartParallelParse(
    uint32_t body_begin) {
  if (limits_.threads < 2 || fragment_) return nullptr;
  const uint32_t end = file_.size();
  if (body_begin >= end || end - body_begin < std::max<uint32_t>(limits_.parallel_min_bytes, 2)) {
    return nullptr;
  }
  auto work = std::make_unique<ParallelParse>();
  if (limits_.parallel_split_from > body_begin) {
    // Tests: one cut, and the other thread owns the second chunk from the
    // start, so this thread waits for it there whatever the timing.
    const uint32_t cut =
        FindComputationBoundary(file_.data(), limits_.parallel_split_from, end, end);
    if (cut > body_begin) work->boundaries.push_back(cut);
    work->claimed_from = 1;
  } else {
    // Chunks of about parallel_chunk_bytes (to the end of the file: where
    // the module ends is not known yet), each cut at the first boundary in
    // the first quarter of its share: a cut that falls inside a large
    // computation is dropped rather than searched for to the end of it
    // (this runs before the first thread starts parsing).
    const uint64_t span = end - body_begin;
    const uint64_t chunks = std::clamp<uint64_t>(
        span / std::max<uint32_t>(limits_.parallel_chunk_bytes, 1), 2, 64);
    const uint64_t window = std::max<uint64_t>(span / chunks / 4, 4096);
    for (uint64_t i = 1; i < chunks; ++i) {
      const uint64_t from = body_begin + span * i / chunks;
      const uint32_t cut = FindComputationBoundary(
          file_.data(), static_cast<uint32_t>(from),
          static_cast<uint32_t>(std::min<uint64_t>(from + window, end)), end);
      if (cut > body_begin && (work->boundaries.empty() || cut > work->boundaries.back())) {
        work->boundaries.push_back(cut);
      }
    }
  }
  if (work->boundaries.empty()) return nullptr;
  work->fragments.resize(work->chunks());
  work->parsed.assign(work->chunks(), 0);
  try {
    work->thread = std::thread(ParseChunksFromTheEnd, work.get(), this);
  } catch (const std::system_error&) {
    return nullptr;  // no thread to be had: one thread it is
  }
  return work;
}

void ModuleParser::ParseChunksFromTheEnd(ParallelParse* work, ModuleParser* owner) {
  ParseLimits limits = owner->limits_;
  limits.threads = 1;
  for (size_t chunk = work->chunks() - 1; chunk >= 1; --chunk) {
    {
      std::lock_guard<std::mutex> lock(work->mutex);
      if (chunk <= work->entered || work->cancel.load(std::memory_order_relaxed)) return;
      work->claimed_from = chunk;
    }
    try {
      auto parser = std::make_unique<ModuleParser>(owner->file_, work->boundaries[chunk - 1], limits);
      parser->Lex();
      const uint32_t stop = chunk < work->boundaries.size() ? work->boundaries[chunk] : 0;
      work->parsed[chunk] = parser->ParseFragment(work->cancel, stop);
      work->fragments[chunk] = std::move(parser);
    } catch (...) {
      // Out of memory, say: the first thread parses this chunk itself.
    }
    // A chunk that failed is parsed by the first thread, and so would be
    // every chunk before it that this thread takes; leave them to it.
    if (!work->parsed[chunk]) return;
  }
}

bool ModuleParser::ParseFragment(const std::atomic<bool>& cancel, uint32_t stop) {
  BeginModule(lexer_.offset());
  fragment_ = true;
  cancel_ = &cancel;
  ReserveFor((stop != 0 ? stop : file_.size()) - lexer_.offset());
  parsed_text_.emplace(file_, lexer_.offset(), &fragment_markers_);
  CompId entry = kNoId;
  do {
    if (stop != 0 && lexer_.offset() >= stop) {
      if (lexer_.offset() != stop) return false;  // the cut was no boundary
      break;
    }
    if (!ParseComputation(&entry)) return false;
  } while (kind() != TokKind::kEof && kind() != TokKind::kw_HloModule &&
           kind() != TokKind::kSplitMarker);
  // The module ended before the chunk did: not a chunk of this module.
  if (stop != 0 && lexer_.offset() != stop) return false;
  if (fragment_unusable_) return false;
  fragment_entry_ = entry;
  fragment_end_ = lexer_.offset();
  return true;
}

bool ModuleParser::MergeFragmentsAt(ParallelParse& work, CompId* entry) {
  const uint32_t at = lexer_.offset();
  if (work.next >= work.boundaries.size() || at < work.boundaries[work.next]) return false;
  // The chunk that starts at or before `at` (past several boundaries when
  // they were no computation's first token).
  size_t chunk = work.next + 1;
  while (chunk < work.boundaries.size() && work.boundaries[chunk] <= at) ++chunk;
  work.next = chunk;
  if (!work.joined) {
    std::unique_lock<std::mutex> lock(work.mutex);
    if (chunk < work.claimed_from) {
      work.entered = chunk;  // this thread parses it; the other never will
      return false;
    }
    lock.unlock();
    // The threads met: the other has taken its last chunk.
    work.thread.join();
    work.joined = true;
  }
  if (chunk < work.claimed_from || at != work.boundaries[chunk - 1] || !work.parsed[chunk]) {
    return false;
  }
  std::unique_ptr<ModuleParser> half = std::move(work.fragments[chunk]);
  return TakeFragment(*half, entry);
}

bool ModuleParser::TakeFragment(ModuleParser& half, CompId* entry) {
  Module::Builder& to = *builder_;
  Module::Builder& from = *half.builder_;

  // Everything that can refuse the merge is checked before anything changes.
  const CopyingNameTable& externals = half.external_computations_;
  std::vector<CompId> external_to(externals.size());
  for (size_t k = 0; k < externals.size(); ++k) {
    // Defined before the split, or the one-thread parse fails here.
    const CompId c = computation_names_.Find(externals.name(k));
    if (c == NameTable::kNotFound) return false;
    external_to[externals.value(k) - kExternalComputation] = c;
  }
  const CopyingNameTable& names = half.computation_names_;
  for (size_t k = 0; k < names.size(); ++k) {
    if (computation_names_.Find(names.name(k)) != NameTable::kNotFound) return false;
  }
  if (*entry != kNoId && half.fragment_entry_ != kNoId) return false;  // two ENTRY
  if (uint64_t{value_key_count_} + half.value_key_count_ >= Attribute::kMaxValueKey) return false;
  const ShapeTable& half_shapes = from.shapes();
  for (ShapeId s = 0; s < half_shapes.size(); ++s) {
    // Interning in id order needs a shape's parts interned before it.
    const Shape& shape = half_shapes.Get(s);
    for (const Shape* element : shape.tuple_shapes) {
      if (element->id >= s) return false;
    }
    if (shape.layout.physical_shape != nullptr && shape.layout.physical_shape->id >= s) {
      return false;
    }
  }
  const uint64_t comp_count = to.computations().size() + from.computations().size();
  if (comp_count >= kExternalComputation) return false;

  // Shapes and value keys new to the module get the next ids in the order
  // the fragment met them, which is the order the one-thread parse would.
  ShapeTable& shapes = to.shapes();
  std::vector<ShapeId> shape_to(half_shapes.size());
  for (ShapeId s = 0; s < half_shapes.size(); ++s) {
    Shape copy = half_shapes.Get(s);
    for (const Shape*& element : copy.tuple_shapes) element = &shapes.Get(shape_to[element->id]);
    if (copy.layout.physical_shape != nullptr) {
      copy.layout.physical_shape = &shapes.Get(shape_to[copy.layout.physical_shape->id]);
    }
    shape_to[s] = shapes.Intern(copy);
  }
  const CopyingNameTable& keys = half.value_keys_;
  std::vector<uint32_t> key_to(half.value_key_count_ + 1, 0);
  for (size_t k = 0; k < keys.size(); ++k) {
    const uint32_t next = value_key_count_ + 1;
    const uint32_t key = value_keys_.Insert(keys.name(k), next) & Attribute::kMaxValueKey;
    if (key == next) ++value_key_count_;
    key_to[keys.value(k)] = key;
  }

  const uint32_t instr_base = static_cast<uint32_t>(to.instructions().size());
  const uint32_t comp_base = static_cast<uint32_t>(to.computations().size());
  const uint32_t order_base = static_cast<uint32_t>(to.order().size());
  const uint32_t attr_base = static_cast<uint32_t>(to.attributes().size());
  auto comp_to = [&](CompId c) {
    return c >= kExternalComputation ? external_to[c - kExternalComputation] : c + comp_base;
  };

  auto& comps = to.computations();
  for (const Computation& c : from.computations()) {
    Computation& merged = comps.emplace_back(c);
    if (merged.root != kNoId) merged.root += instr_base;
    merged.order_begin += order_base;
    // The lists move with the fragment's list storage (AdoptLists), which
    // this module owns from now on.
    for (InstrId& p : std::span(const_cast<InstrId*>(c.parameters.data()), c.parameters.size())) {
      if (p != kNoId) p += instr_base;
    }
    for (ShapeId& p :
         std::span(const_cast<ShapeId*>(c.signature_params.data()), c.signature_params.size())) {
      p = shape_to[p];
    }
    if (merged.signature_result != kNoShape) merged.signature_result = shape_to[c.signature_result];
  }
  to.AdoptLists(*half.module_);

  // The records and lists, a block at a time: copied in bulk, then
  // renumbered while the block is in cache.
  auto& instrs = to.instructions();
  auto& ids = to.ids();
  const std::vector<Instruction>& half_instrs = from.instructions();
  const std::vector<uint32_t>& half_ids = from.ids();
  const uint32_t ids_base = static_cast<uint32_t>(ids.size());
  ids.insert(ids.end(), half_ids.begin(), half_ids.end());
  uint32_t* const merged_ids = ids.data() + ids_base;
  constexpr size_t kBlock = 1024;
  for (size_t begin = 0; begin < half_instrs.size(); begin += kBlock) {
    const size_t end = std::min(half_instrs.size(), begin + kBlock);
    const size_t first = instrs.size();
    instrs.insert(instrs.end(), half_instrs.begin() + begin, half_instrs.begin() + end);
    for (Instruction& in : std::span(instrs.data() + first, end - begin)) {
      // The fragment's lists are laid out in id order from 0 (AddInstruction):
      // header words, operands, called computations, control predecessors.
      uint32_t* list = merged_ids + in.operands_begin;
      in.operands_begin += ids_base;
      for (uint32_t k = 0; k < in.operand_count; ++k) list[k] += instr_base;
      const bool marks_fusion =
          in.opcode == Opcode::kFusion ||
          (in.opcode == Opcode::kAsyncStart && (in.flags & Instruction::kAsyncSugar) &&
           in.async_wrapped_opcode() == Opcode::kFusion);
      const uint32_t called_end = in.operand_count + in.called_count;
      for (uint32_t k = in.operand_count; k < called_end; ++k) {
        const CompId c = list[k];
        list[k] = comp_to(c);
        // AddInstruction marked the fragment's own computations.
        if (marks_fusion && c >= kExternalComputation) comps[list[k]].is_fusion_computation = true;
      }
      if (in.flags & Instruction::kHasControl) {
        const uint32_t controls = list[-1];
        for (uint32_t k = called_end; k < called_end + controls; ++k) list[k] += instr_base;
      }
      if (in.shape != kNoShape) in.shape = shape_to[in.shape];
      in.parent += comp_base;
      in.attrs_begin += attr_base;
    }
  }
  auto& attributes = to.attributes();
  const std::vector<Attribute>& half_attributes = from.attributes();
  for (size_t begin = 0; begin < half_attributes.size(); begin += kBlock) {
    const size_t end = std::min(half_attributes.size(), begin + kBlock);
    const size_t first = attributes.size();
    attributes.insert(attributes.end(), half_attributes.begin() + begin,
                      half_attributes.begin() + end);
    for (Attribute& a : std::span(attributes.data() + first, end - begin)) {
      if (a.value_key != 0) a.value_key = key_to[a.value_key];
    }
  }
  auto& order = to.order();
  const size_t order_first = order.size();
  order.insert(order.end(), from.order().begin(), from.order().end());
  for (InstrId& id : std::span(order.data() + order_first, from.order().size())) id += instr_base;
  auto& hashes = to.name_hashes();
  hashes.insert(hashes.end(), from.name_hashes().begin(), from.name_hashes().end());
  to.counted_users += from.counted_users;
  // Later fragments and chunks may call the fragment's computations.
  for (size_t k = 0; k < names.size(); ++k) {
    computation_names_.Insert(names.name(k), names.value(k) + comp_base);
  }

  if (half.fragment_entry_ != kNoId) *entry = half.fragment_entry_ + comp_base;
  file_.AdoptMarkers(lexer_.offset(), half.fragment_markers_);
  lexer_.Reset(half.fragment_end_);
  Lex();
  ++merged_fragments_;
  return true;
}

}  // namespace hlolint
