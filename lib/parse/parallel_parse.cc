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

}  // namespace hlolint
