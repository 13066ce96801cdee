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
//   (NameResolver);
// * a fragment is merged only when the first thread's parse stops at
//   exactly its first byte, between two computations, and the fragment's
//   parse stopped at exactly the next chunk's (a cut guessed inside a
//   string or a comment is never reached that way);
// * anything a fragment could not settle (an error, a reference that does
//   not resolve, a name defined twice, two ENTRY computations) makes the
//   first thread parse that chunk itself, so errors are found and reported
//   exactly as on one thread.
//
// A module with no computation boundary near any cut (one large
// computation, as a dump before optimizations is) is cut between the
// instructions of that computation instead. A chunk then continues the
// computation the first thread is in when it reaches the cut between two of
// its instructions (ParseContinuation, TakeContinuation): names from before
// the cut are stubs with the shape the text declares for them, resolved and
// compared by the merge.
//
// Once the other thread has no chunk left it faults in the pages the first
// thread's merges will copy its fragments into, so that fresh memory is not
// paid for on the first thread's time.
#include <algorithm>
#include <array>
#include <cstring>
#include <span>
#include <system_error>
#include <mutex>
#include <thread>

#include "lex/byte_scan.h"
#include "memory/prefault.h"
#include "parse/module_parser.h"
#include "parse/parallel_parse.h"

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

// The first token of the first indented line (an instruction, as dumps
// print them) that starts after `from` and before `search_to`; 0 when there
// is none. Only a guess: the merge takes the continuation only where the
// first thread finds an instruction of a top-level computation starting
// exactly there.
uint32_t FindInstructionLine(const char* data, uint32_t from, uint32_t search_to, uint32_t end) {
  const std::string_view text(data, std::min(search_to, end));
  for (size_t at = text.find('\n', from); at != std::string_view::npos;
       at = text.find('\n', at + 1)) {
    size_t p = at + 1;
    if (p >= end || data[p] != ' ') continue;
    while (p < end && data[p] == ' ') ++p;
    if (p < end && (data[p] == '%' || IsIdentStartByte(data[p]))) return static_cast<uint32_t>(p);
  }
  return 0;
}

// A shape of one module's table against one of another's: the same
// structure, which is what interning both in one table would find equal.
bool SameShape(const Shape& a, const Shape& b) {
  if (a.element_type != b.element_type || a.has_layout != b.has_layout ||
      a.dimensions != b.dimensions || a.dynamic_dimensions != b.dynamic_dimensions ||
      a.tuple_shapes.size() != b.tuple_shapes.size()) {
    return false;
  }
  for (size_t i = 0; i < a.tuple_shapes.size(); ++i) {
    if (!SameShape(*a.tuple_shapes[i], *b.tuple_shapes[i])) return false;
  }
  if (!a.has_layout) return true;
  const Shape* physical_a = a.layout.physical_shape;
  const Shape* physical_b = b.layout.physical_shape;
  if ((physical_a == nullptr) != (physical_b == nullptr)) return false;
  if (physical_a != nullptr && !SameShape(*physical_a, *physical_b)) return false;
  Layout layout_a = a.layout, layout_b = b.layout;
  layout_a.physical_shape = layout_b.physical_shape = nullptr;
  return layout_a == layout_b;
}

// Appends a fragment's computation `c` to `comps`: its root and parameters
// through `instr_to`, its signature through `shape_to`, its instructions'
// list to `order` (whose size before the merge's first list is
// `order_base`). Its parameter and signature lists move with the
// fragment's list storage (AdoptLists), which the module owns from then on.
template <typename InstrTo>
void AppendComputation(std::vector<Computation>& comps, const Computation& c,
                       const InstrTo& instr_to, const std::vector<ShapeId>& shape_to,
                       uint32_t order_base, std::vector<InstrId>& order) {
  Computation& merged = comps.emplace_back(c);
  if (merged.root != kNoId) merged.root = instr_to(c.root);
  if (!c.consecutive_order) {
    merged.order_begin += order_base;
  } else if (c.order_count > 0) {
    // Consecutive ids stay consecutive unless the map breaks the run (it
    // never does: only the continued computation has stubs); then the list
    // is written out.
    merged.order_begin = instr_to(c.order_begin);
    for (uint32_t i = 1; i < c.order_count && merged.consecutive_order; ++i) {
      merged.consecutive_order = instr_to(c.order_begin + i) == merged.order_begin + i;
    }
    if (!merged.consecutive_order) {
      merged.order_begin = static_cast<uint32_t>(order.size());
      for (uint32_t i = 0; i < c.order_count; ++i) order.push_back(instr_to(c.order_begin + i));
    }
  }
  uint32_t* const lists = const_cast<uint32_t*>(c.lists);
  for (InstrId& p : std::span(lists, c.parameter_count)) {
    if (p != kNoId) p = instr_to(p);
  }
  for (ShapeId& p : std::span(lists + c.parameter_count, c.signature_param_count)) {
    p = shape_to[p];
  }
  if (merged.signature_result != kNoShape) merged.signature_result = shape_to[c.signature_result];
}

// Renumbers a merged instruction: its operands, `users` users (0 where its
// block has no user list yet) and control predecessors through `instr_to`,
// its called computations through `comp_to`, its shape through
// `shape_to`. `list` is its block of ids. A fusion marks the first-half
// computations it calls (AddInstruction marked the fragment's own).
template <typename InstrTo, typename CompTo>
void RenumberMerged(Instruction& in, uint32_t* list, uint32_t users, const InstrTo& instr_to,
                    const CompTo& comp_to, std::vector<Computation>& comps,
                    const std::vector<ShapeId>& shape_to, CompId first_external) {
  const uint32_t operand_count = in.OperandCountAt(list);
  for (uint32_t k = 0; k < operand_count; ++k) list[k] = instr_to(list[k]);
  const bool marks_fusion =
      in.opcode == Opcode::kFusion ||
      (in.opcode == Opcode::kAsyncStart && (in.flags & Instruction::kAsyncSugar) &&
       static_cast<Opcode>(in.WrappedOrKindAt(list)) == Opcode::kFusion);
  const uint32_t called_end = operand_count + in.CalledCountAt(list);
  for (uint32_t k = operand_count; k < called_end; ++k) {
    const CompId c = list[k];
    list[k] = comp_to(c);
    if (marks_fusion && c >= first_external) comps[list[k]].is_fusion_computation = true;
  }
  const uint32_t users_end = called_end + users;
  for (uint32_t k = called_end; k < users_end; ++k) list[k] = instr_to(list[k]);
  if (in.flags & Instruction::kHasControl) {
    const uint32_t controls = in.ControlCountAt(list);
    for (uint32_t k = users_end; k < users_end + controls; ++k) list[k] = instr_to(list[k]);
  }
  if (in.shape != kNoShape) in.shape = shape_to[in.shape];
}

}  // namespace

ModuleParser::~ModuleParser() = default;

ParallelParse::~ParallelParse() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    cancel.store(true, std::memory_order_relaxed);
  }
  changed.notify_all();
  if (thread.joinable()) thread.join();
}

std::unique_ptr<ParallelParse> ModuleParser::StartParallelParse(
    uint32_t body_begin) {
  if (limits_.threads < 2 || fragment_) return nullptr;
  const uint32_t end = file_.size();
  if (body_begin >= end || end - body_begin < std::max<uint32_t>(limits_.parallel_min_bytes, 2)) {
    return nullptr;
  }
  auto work = std::make_unique<ParallelParse>();
  if (limits_.parallel_continuation_from > body_begin) {
    // Tests: one cut at an instruction, owned by the other thread.
    const uint32_t cut =
        FindInstructionLine(file_.data(), limits_.parallel_continuation_from, end, end);
    if (cut > body_begin) work->boundaries.push_back(cut);
    work->claimed_from = 1;
    work->continuation = true;
  } else if (limits_.parallel_split_from > body_begin) {
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
    auto cut_with = [&](auto find) {
      for (uint64_t i = 1; i < chunks; ++i) {
        const uint64_t from = body_begin + span * i / chunks;
        const uint32_t cut = find(file_.data(), static_cast<uint32_t>(from),
                                  static_cast<uint32_t>(std::min<uint64_t>(from + window, end)), end);
        if (cut > body_begin && (work->boundaries.empty() || cut > work->boundaries.back())) {
          work->boundaries.push_back(cut);
        }
      }
    };
    cut_with(FindComputationBoundary);
    if (work->boundaries.empty()) {
      // No computation ends anywhere near a cut: the module is one large
      // computation (a dump before optimizations), cut between its
      // instructions instead.
      cut_with(FindInstructionLine);
      work->continuation = true;
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
  ParseChunks(work, owner);
  // What the merges will append, array by array (ArrayRoom's order).
  std::array<size_t, 5> need{};
  for (size_t chunk = 1; chunk < work->chunks(); ++chunk) {
    if (!work->parsed[chunk] || work->fragments[chunk] == nullptr) continue;
    Module::Builder& b = *work->fragments[chunk]->builder_;
    need[0] += b.instructions().size() * sizeof(Instruction);
    need[1] += b.ids().size() * sizeof(uint32_t);
    need[2] += b.attributes().size() * sizeof(Attribute);
    need[3] += b.name_hashes().size() * sizeof(uint64_t);
    need[4] += b.order().size() * sizeof(InstrId);
  }
  std::array<std::pair<char*, size_t>, 5> room{};
  {
    std::unique_lock<std::mutex> lock(work->mutex);
    work->other_done = true;
    work->changed.notify_all();
    work->changed.wait(lock, [&] {
      return work->room_given || work->cancel.load(std::memory_order_relaxed);
    });
    if (!work->room_given) return;
    room = work->room;
  }
  // The merges fill every array at once, front to back: 2 MB of each in turn.
  constexpr size_t kStep = size_t{2} << 20;
  std::array<size_t, 5> done{};
  for (bool more = true; more && !work->cancel.load(std::memory_order_relaxed);) {
    more = false;
    for (size_t i = 0; i < room.size(); ++i) {
      const size_t want = std::min(room[i].second, need[i]);
      if (done[i] >= want) continue;
      const size_t step = std::min(want - done[i], kStep);
      PrefaultForWrite(room[i].first + done[i], step, &work->cancel);
      done[i] += step;
      more = true;
    }
  }
}

void ModuleParser::ParseChunks(ParallelParse* work, ModuleParser* owner) {
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
      work->parsed[chunk] = work->continuation ? parser->ParseContinuation(work->cancel, stop)
                                               : parser->ParseFragment(work->cancel, stop);
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
  names_.BeginFragment(/*continuation=*/false);
  fragment_stop_ = stop;
  cancel_ = &cancel;
  ReserveFor((stop != 0 ? stop : file_.size()) - lexer_.offset());
  parsed_text_.emplace(file_, lexer_.offset(), &lexed_markers_);
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
  if (names_.gave_up()) return false;
  builder_->FinishUsers();  // merged as they are (TakeFragment)
  fragment_entry_ = entry;
  fragment_end_ = lexer_.offset();
  HandOverMarkers(fragment_end_);  // kept for the merge
  return true;
}

bool ModuleParser::ParseContinuation(const std::atomic<bool>& cancel, uint32_t stop) {
  BeginModule(lexer_.offset());
  fragment_ = true;
  names_.BeginFragment(/*continuation=*/true);
  cancel_ = &cancel;
  ReserveFor((stop != 0 ? stop : file_.size()) - lexer_.offset());
  parsed_text_.emplace(file_, lexer_.offset(), &lexed_markers_);
  // Computation 0 stands for the one continued; it is never finished here.
  builder_->computations().emplace_back();
  EnsureScopeStorage(0);
  scope_depth_ = 1;
  scopes_[0].Begin(0);
  InstrId root = kNoId;
  uint32_t root_offset = 0;
  while (kind() != TokKind::kRbrace) {
    if (stop != 0 && lexer_.offset() >= stop) {
      if (lexer_.offset() != stop) return false;  // the cut was no instruction
      break;
    }
    if (!ParseInstruction(0, &root, &root_offset)) return false;
    AdvanceParsedText();
    if (cancel.load(std::memory_order_relaxed)) return false;
  }
  // A clash fails the fragment: the first thread parses it and reports it.
  if (!FlushNames(0)) return false;
  if (names_.gave_up()) return false;
  continuation_root_ = root;
  continuation_root_offset_ = root_offset;
  fragment_end_ = lexer_.offset();
  HandOverMarkers(fragment_end_);  // kept for the merge
  return true;
}

InstrId ModuleParser::OperandStub(std::string_view name, uint32_t name_offset, ShapeId declared) {
  if (declared == kNoShape || scope_depth_ != 1 || name.size() >= Instruction::kLongName) {
    NotKnownYet(name_offset);
    return kNoId;
  }
  NewInstruction stub;
  stub.name_offset = name_offset;
  stub.opcode = Opcode::kInvalid;
  stub.shape = declared;
  InstrScratch& s = ScratchAt(++scratch_level_);
  const InstrId id = AddInstruction(stub, s, static_cast<uint32_t>(name.size()), 0);
  --scratch_level_;
  scope_order_[0].pop_back();  // not an instruction of the computation
  const uint64_t hash = StringViewHash()(name);
  builder_->name_hashes().push_back(hash);
  scopes_[0].InsertHashedIf(static_cast<uint32_t>(hash), id, NamedAs(name, hash));
  names_.AddStub(id);
  return id;
}

std::unique_ptr<ModuleParser> ModuleParser::FragmentAt(ParallelParse& work) {
  const uint32_t at = lexer_.offset();
  if (work.next >= work.boundaries.size() || at < work.boundaries[work.next]) return nullptr;
  // The chunk that starts at or before `at` (past several boundaries when
  // they were no computation's first token).
  size_t chunk = work.next + 1;
  while (chunk < work.boundaries.size() && work.boundaries[chunk] <= at) ++chunk;
  work.next = chunk;
  if (!work.joined) {
    std::unique_lock<std::mutex> lock(work.mutex);
    if (chunk < work.claimed_from) {
      work.entered = chunk;  // this thread parses it; the other never will
      return nullptr;
    }
    // The threads met: the other has taken its last chunk. While this
    // thread merges, it readies the room the merges fill.
    work.changed.wait(lock, [&] { return work.other_done; });
    work.room = ArrayRoom();
    work.room_given = true;
    work.changed.notify_all();
    work.joined = true;
  }
  if (chunk < work.claimed_from || at != work.boundaries[chunk - 1] || !work.parsed[chunk]) {
    return nullptr;
  }
  return std::move(work.fragments[chunk]);
}

std::array<std::pair<char*, size_t>, 5> ModuleParser::ArrayRoom() {
  auto room = [](auto& list) {
    using T = typename std::decay_t<decltype(list)>::value_type;
    return std::pair<char*, size_t>(reinterpret_cast<char*>(list.data() + list.size()),
                                    (list.capacity() - list.size()) * sizeof(T));
  };
  return {room(builder_->instructions()), room(builder_->ids()), room(builder_->attributes()),
          room(builder_->name_hashes()), room(builder_->order())};
}

bool ModuleParser::MergeFragmentsAt(ParallelParse& work, CompId* entry) {
  std::unique_ptr<ModuleParser> half = FragmentAt(work);
  // A continuation is merged only between two instructions (a cut at a
  // computation's first token is no instruction's).
  return half != nullptr && !work.continuation && TakeFragment(*half, entry);
}

bool ModuleParser::MergeContinuationAt(ParallelParse& work, CompId computation, InstrId* root,
                                       uint32_t* root_offset) {
  if (!work.continuation) return false;
  std::unique_ptr<ModuleParser> half = FragmentAt(work);
  return half != nullptr && TakeContinuation(*half, computation, root, root_offset);
}

bool ModuleParser::CanMerge(const ModuleParser& half, std::vector<CompId>* external_to) const {
  const ExternalNames& externals = half.names_.computations_not_known_yet();
  external_to->resize(externals.size());
  for (size_t k = 0; k < externals.size(); ++k) {
    // Defined before the split, or the one-thread parse fails here.
    const CompId c = computation_names_.Find(externals.name(k));
    if (c == CopyingNameTable::kNotFound) return false;
    (*external_to)[k] = c;
  }
  const CopyingNameTable& names = half.computation_names_;
  for (size_t k = 0; k < names.size(); ++k) {
    if (computation_names_.Find(names.name(k)) != CopyingNameTable::kNotFound) return false;
  }
  if (uint64_t{value_key_count_} + half.value_key_count_ >= Attribute::kMaxValueKey) return false;
  const ShapeTable& half_shapes = half.builder_->shapes();
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
  const uint64_t comp_count =
      uint64_t{builder_->computations().size()} + half.builder_->computations().size();
  return comp_count < NameResolver::kNotKnownYetComputation;
}

void ModuleParser::MergeShapesAndKeys(const ModuleParser& half, std::vector<ShapeId>* shape_to,
                                      std::vector<uint32_t>* key_to) {
  // Shapes and value keys new to the module get the next ids in the order
  // the fragment met them, which is the order the one-thread parse would.
  ShapeTable& shapes = builder_->shapes();
  const ShapeTable& half_shapes = half.builder_->shapes();
  shape_to->assign(half_shapes.size(), kNoShape);
  for (ShapeId s = 0; s < half_shapes.size(); ++s) {
    Shape copy = half_shapes.Get(s);
    for (const Shape*& element : copy.tuple_shapes) element = &shapes.Get((*shape_to)[element->id]);
    if (copy.layout.physical_shape != nullptr) {
      copy.layout.physical_shape = &shapes.Get((*shape_to)[copy.layout.physical_shape->id]);
    }
    (*shape_to)[s] = shapes.Intern(copy);
  }
  const CopyingNameTable& keys = half.value_keys_;
  key_to->assign(half.value_key_count_ + 1, 0);
  for (size_t k = 0; k < keys.size(); ++k) {
    const uint32_t next = value_key_count_ + 1;
    const uint32_t key = value_keys_.Insert(keys.name(k), next) & Attribute::kMaxValueKey;
    if (key == next) ++value_key_count_;
    (*key_to)[keys.value(k)] = key;
  }
}

bool ModuleParser::TakeFragment(ModuleParser& half, CompId* entry) {
  Module::Builder& to = *builder_;
  Module::Builder& from = *half.builder_;

  // Everything that can refuse the merge is checked before anything changes.
  // Both sides end between computations, so their user lists can be laid
  // out (FinishUsers; ParseFragment did the fragment's): the fragment's are
  // merged as they are.
  to.FinishUsers();
  if (!from.AllUsersFinished()) return false;
  std::vector<CompId> external_to;
  if (!CanMerge(half, &external_to)) return false;
  if (*entry != kNoId && half.fragment_entry_ != kNoId) return false;  // two ENTRY
  std::vector<ShapeId> shape_to;
  std::vector<uint32_t> key_to;
  MergeShapesAndKeys(half, &shape_to, &key_to);
  const CopyingNameTable& names = half.computation_names_;

  const uint32_t instr_base = static_cast<uint32_t>(to.instructions().size());
  const uint32_t comp_base = static_cast<uint32_t>(to.computations().size());
  const uint32_t order_base = static_cast<uint32_t>(to.order().size());
  const uint32_t attr_base = static_cast<uint32_t>(to.attributes().size());
  auto comp_to = [&](CompId c) {
    return c >= NameResolver::kNotKnownYetComputation ? external_to[c - NameResolver::kNotKnownYetComputation] : c + comp_base;
  };

  auto& comps = to.computations();
  auto shifted = [&](InstrId id) { return id + instr_base; };
  // The lists first: a computation's list written out lands after them.
  auto& order = to.order();
  order.insert(order.end(), from.order().begin(), from.order().end());
  for (InstrId& id : std::span(order.data() + order_base, from.order().size())) id += instr_base;
  for (const Computation& c : from.computations()) {
    AppendComputation(comps, c, shifted, shape_to, order_base, order);
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
    for (size_t k = begin; k < end; ++k) {
      Instruction& in = instrs[first + k - begin];
      // The fragment's lists are laid out in id order from 0: header words,
      // operands, called computations, users, control predecessors.
      uint32_t* list = merged_ids + in.operands_begin;
      in.operands_begin += ids_base;
      in.attrs_begin += attr_base;
      const uint32_t users = half.module_->UserCount(static_cast<InstrId>(k));
      RenumberMerged(in, list, users, shifted, comp_to, comps, shape_to, NameResolver::kNotKnownYetComputation);
    }
  }
  for (const auto& [index, offset] : from.apart_attribute_names()) {
    to.apart_attribute_names().emplace_back(index + attr_base, offset);
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
  auto& hashes = to.name_hashes();
  hashes.insert(hashes.end(), from.name_hashes().begin(), from.name_hashes().end());
  to.counted_users += from.counted_users;
  to.AdoptFinishedUsers(from, instr_base);
  // Later fragments and chunks may call the fragment's computations. The
  // table of a module of 100,000s of computations is far bigger than the
  // caches: each slot is fetched a few names ahead.
  constexpr size_t kAhead = 8;
  for (size_t k = 0; k < names.size(); ++k) {
    if (k + kAhead < names.size()) computation_names_.Prefetch(names.name(k + kAhead));
    computation_names_.Insert(names.name(k), names.value(k) + comp_base);
  }

  if (half.fragment_entry_ != kNoId) *entry = half.fragment_entry_ + comp_base;
  HandOverMarkers(lexer_.offset());
  file_.AdoptMarkers(lexer_.offset(), half.lexed_markers_);
  lexer_.Reset(half.fragment_end_);
  RestartMarkers(half.fragment_end_);
  Lex();
  ++merged_fragments_;
  return true;
}

bool ModuleParser::TakeContinuation(ModuleParser& half, CompId computation, InstrId* root,
                                    uint32_t* root_offset) {
  Module::Builder& to = *builder_;
  Module::Builder& from = *half.builder_;
  const std::vector<Instruction>& half_instrs = from.instructions();
  ScopeNameTable& scope = scopes_[scope_depth_ - 1];
  const std::vector<uint64_t>& half_hashes = from.name_hashes();
  // Whether an instruction here has the name of the other side's `f`.
  auto named_as_half = [&](InstrId f) {
    const Instruction& in = half_instrs[f];
    return NamedAs(half.module_->text(in.name_offset, half.module_->NameSize(in)), half_hashes[f]);
  };

  // Everything that can refuse the merge is checked before anything changes
  // (but the names, whose inserts are undone on a refusal).
  if (half.continuation_root_ != kNoId && *root != kNoId) return false;  // two ROOTs
  std::vector<CompId> external_to;
  if (!CanMerge(half, &external_to)) return false;
  const CopyingNameTable& names = half.computation_names_;
  const ShapeTable& half_shapes = from.shapes();
  // Each stub names an instruction defined before the cut, of the shape the
  // text declared for it there; else the one-thread parse reads otherwise.
  std::vector<InstrId> stub_to(half.names_.stubs().size());
  for (size_t k = 0; k < half.names_.stubs().size(); ++k) {
    const InstrId stub = half.names_.stubs()[k];
    const uint32_t found =
        scope.FindHashedIf(static_cast<uint32_t>(half_hashes[stub]), named_as_half(stub));
    if (found == ScopeNameTable::kNotFound) return false;
    const Shape& declared = half_shapes.Get(half_instrs[stub].shape);
    if (!SameShape(shape(to.instructions()[found].shape), declared)) return false;
    stub_to[k] = found;
  }
  // Ids through a map: the stubs become the instructions they stand for,
  // the rest follow this module's last instruction in order.
  std::vector<InstrId> id_to(half_instrs.size());
  {
    InstrId next = static_cast<InstrId>(to.instructions().size());
    size_t k = 0;
    for (InstrId f = 0; f < half_instrs.size(); ++f) {
      id_to[f] = k < half.names_.stubs().size() && half.names_.stubs()[k] == f ? stub_to[k++] : next++;
    }
  }
  // The names go into this scope's table, which also finds any name
  // defined on both sides of the cut; then the inserts so far are undone
  // and nothing has changed. One probe a name: the table of a large
  // computation is far bigger than the caches, so its slots are fetched a
  // few names ahead.
  const std::vector<InstrId>& half_order = half.scope_order_[0];
  constexpr size_t kAhead = 16;
  scope.MakeRoomFor(half_order.size());
  for (size_t i = 0; i < half_order.size(); ++i) {
    if (i + kAhead < half_order.size()) {
      scope.Prefetch(static_cast<uint32_t>(half_hashes[half_order[i + kAhead]]));
    }
    const InstrId f = half_order[i];
    if (half_instrs[f].flags & Instruction::kAnonymous) continue;
    const auto hash = static_cast<uint32_t>(half_hashes[f]);
    if (scope.InsertHashedIf(hash, id_to[f], named_as_half(f)) == id_to[f]) continue;
    while (i-- > 0) {
      const InstrId g = half_order[i];
      if (half_instrs[g].flags & Instruction::kAnonymous) continue;
      scope.UndoInsert(static_cast<uint32_t>(half_hashes[g]), id_to[g]);
    }
    return false;
  }

  std::vector<ShapeId> shape_to;
  std::vector<uint32_t> key_to;
  MergeShapesAndKeys(half, &shape_to, &key_to);
  const uint32_t comp_base = static_cast<uint32_t>(to.computations().size());
  const uint32_t order_base = static_cast<uint32_t>(to.order().size());
  const uint32_t attr_base = static_cast<uint32_t>(to.attributes().size());
  // The fragment's computation 0 is the one continued; its others (inline
  // computations of the continuation) follow this module's.
  auto comp_to = [&](CompId c) {
    return c >= NameResolver::kNotKnownYetComputation ? external_to[c - NameResolver::kNotKnownYetComputation]
           : c == 0                  ? computation
                                     : c - 1 + comp_base;
  };
  auto& comps = to.computations();
  auto mapped = [&](InstrId id) { return id_to[id]; };
  // The lists first: a computation's list written out lands after them.
  auto& order = to.order();
  for (InstrId f : from.order()) order.push_back(id_to[f]);
  for (size_t c = 1; c < from.computations().size(); ++c) {
    AppendComputation(comps, from.computations()[c], mapped, shape_to, order_base, order);
  }
  to.AdoptLists(*half.module_);

  auto& instrs = to.instructions();
  auto& ids = to.ids();
  const std::vector<uint32_t>& half_ids = from.ids();
  const uint32_t ids_base = static_cast<uint32_t>(ids.size());
  ids.insert(ids.end(), half_ids.begin(), half_ids.end());  // a stub's block is empty
  uint32_t* const merged_ids = ids.data() + ids_base;
  auto& hashes = to.name_hashes();
  for (InstrId f = 0; f < half_instrs.size(); ++f) {
    const Instruction& source = half_instrs[f];
    if (half.names_.InstructionNotKnownYet(f)) {
      to.AddUses(id_to[f], source.user_count);
      continue;
    }
    Instruction& in = instrs.emplace_back(source);
    hashes.push_back(from.name_hashes()[f]);
    uint32_t* list = merged_ids + in.operands_begin;
    in.operands_begin += ids_base;
    in.attrs_begin += attr_base;
    RenumberMerged(in, list, 0, mapped, comp_to, comps, shape_to, NameResolver::kNotKnownYetComputation);
  }
  for (const auto& [index, offset] : from.apart_attribute_names()) {
    to.apart_attribute_names().emplace_back(index + attr_base, offset);
  }
  auto& attributes = to.attributes();
  const size_t attr_first = attributes.size();
  attributes.insert(attributes.end(), from.attributes().begin(), from.attributes().end());
  for (Attribute& a : std::span(attributes.data() + attr_first, from.attributes().size())) {
    if (a.value_key != 0) a.value_key = key_to[a.value_key];
  }
  to.counted_users += from.counted_users;
  for (InstrId used : from.more_uses) to.more_uses.push_back(id_to[used]);
  for (size_t k = 0; k < names.size(); ++k) {
    computation_names_.Insert(names.name(k), comp_to(names.value(k)));
  }

  // The computation goes on here: its instructions (their names are in
  // the table already), compact get-tuple-elements and async chains as if
  // this thread had read them.
  std::vector<InstrId>& scope_order = scope_order_[scope_depth_ - 1];
  for (const InstrId f : half_order) scope_order.push_back(id_to[f]);
  for (const auto& [key, gte] : half.gte_cache_[0]) {
    const uint64_t tuple = id_to[static_cast<InstrId>(key >> 32)];
    gte_cache_[scope_depth_ - 1].emplace((tuple << 32) | (key & 0xffffffffu), id_to[gte]);
  }
  for (const auto& [instr, start] : half.async_start_of_) {
    async_start_of_[id_to[instr]] = id_to[start];
  }
  if (half.continuation_root_ != kNoId) {
    *root = id_to[half.continuation_root_];
    *root_offset = half.continuation_root_offset_;
  }

  HandOverMarkers(lexer_.offset());
  file_.AdoptMarkers(lexer_.offset(), half.lexed_markers_);
  lexer_.Reset(half.fragment_end_);
  RestartMarkers(half.fragment_end_);
  Lex();
  ++merged_fragments_;
  return true;
}

}  // namespace hlolint
