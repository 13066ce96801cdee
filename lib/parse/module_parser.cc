// Modules and computations: the top of the grammar, and the entry points.
#include "parse/module_parser.h"

#include <algorithm>
#include <cstring>

#include "parse/format_sniff.h"
#include "parse/parallel_parse.h"
#include "util/strings.h"

namespace hlolint {

// ---------------------------------------------------------------------------
// Driver

ModuleParser::ModuleParser(const SourceFile& file, uint32_t start, const ParseLimits& limits)
    : ValueParser(file, start, nullptr, limits) {
  lexer_.CollectDirectiveMarkers(file.DirectiveMarker(), &lexed_markers_.markers);
  RestartMarkers(start);
}

void ModuleParser::HandOverMarkers(uint32_t to) {
  lexed_markers_.searched_to = std::max(lexed_markers_.searched_to, to);
  if (fragment_) return;  // the first thread takes a fragment's at the merge
  file_.AdoptMarkers(markers_from_, lexed_markers_);
  std::vector<uint32_t>& noted = lexed_markers_.markers;
  noted.erase(noted.begin(), std::lower_bound(noted.begin(), noted.end(), lexed_markers_.searched_to));
  markers_from_ = lexed_markers_.searched_to;
}

void ModuleParser::RestartMarkers(uint32_t at) {
  lexed_markers_.markers.clear();
  lexed_markers_.searched_to = at;
  markers_from_ = at;
}

bool ModuleParser::SkipSeparators() {
  while (kind() == TokKind::kSplitMarker) Lex();
  return kind() != TokKind::kEof;
}

void ModuleParser::SkipToNextModule(uint32_t error_offset) {
  const char* data = file_.data();
  const uint32_t size = file_.size();
  uint32_t pos = std::min(error_offset, size);
  // The text skipped is not lexed: the file searches it for markers.
  HandOverMarkers(std::min(pos, lexer_.offset()));
  auto resume_at = [this](uint32_t at) {
    lexer_.Reset(at);
    RestartMarkers(at);
    Lex();
  };
  // Start at the line after the error.
  while (pos < size && data[pos] != '\n') ++pos;
  while (pos < size) {
    ++pos;  // skip '\n'
    const uint32_t line = pos;
    if (size - line >= 10 && std::memcmp(data + line, "HloModule", 9) == 0 &&
        (data[line + 9] == ' ' || data[line + 9] == '\t')) {
      resume_at(line);
      return;
    }
    uint32_t p = line;
    while (p < size && (data[p] == ' ' || data[p] == '\t')) ++p;
    if (size - p >= 2 && data[p] == '/' && data[p + 1] == '/') {
      uint32_t q = p + 2;
      while (q < size && data[q] == ' ') ++q;
      if (size - q >= 5 && std::memcmp(data + q, "-----", 5) == 0) {
        uint32_t r = q + 5;
        while (r < size && (data[r] == ' ' || data[r] == '\t' || data[r] == '\r')) ++r;
        if (r >= size || data[r] == '\n') {
          resume_at(line);
          return;
        }
      }
    }
    const void* nl = std::memchr(data + line, '\n', size - line);
    if (nl == nullptr) break;
    pos = static_cast<uint32_t>(static_cast<const char*>(nl) - data);
  }
  resume_at(size);
}

void ModuleParser::BeginModule(uint32_t begin_offset) {
  module_ = std::make_unique<Module>(file_);
  builder_ = std::make_unique<Module::Builder>(Module::Builder{*module_});
  shapes_ = &builder_->shapes();
  error_.reset();
  error_note_.reset();
  stopped_at_.reset();
  depth_ = 0;
  depth_exceeded_ = false;
  scope_depth_ = 0;
  computation_names_.Clear();
  value_keys_.Clear();
  value_key_count_ = 0;
  module_shape_cache_.Clear();
  dump_forms_.BeginModule();
  async_start_of_.clear();
  if (limits_.fast_paths) shape_cache_ = &module_shape_cache_;
  scratch_level_ = 0;
  builder_->begin_offset() = begin_offset;
  merged_fragments_ = 0;
}

ParsedModule ModuleParser::ParseNextModule() {
  ParsedModule out;
  out.begin_offset = lexer_.offset();
  BeginModule(out.begin_offset);
  ReserveFor(std::min<size_t>(file_.size() - out.begin_offset, previous_module_bytes_));

  bool ok;
  if (kind() == TokKind::kw_HloModule) {
    ok = ParseHloModule(true, &out);
  } else if (kind() == TokKind::kw_ENTRY || lexer_.LookAhead() == TokKind::kLbrace) {
    ok = ParseHloModule(false, &out);
  } else if (kind() == TokKind::kError) {
    ok = TokenError("expects an HLO module");

  } else {
    // XLA parses such text as one instruction; dumps never are. Headerless
    // computations with a signature and no ENTRY end up here too.
    ok = TokenError(StrCat(
        "expects 'HloModule', 'ENTRY' or a computation, but sees ", TokKindName(kind()),
        " (XLA would read this text as a single instruction)"));
  }
  ReleaseScratch();
  out.instruction_count = static_cast<uint32_t>(module_->instruction_count());
  out.computation_count = static_cast<uint32_t>(module_->computation_count());
  out.merged_fragments = merged_fragments_;
  if (!ok && stopped_at_) {
    out.instruction_count = stopped_at_->first;
    out.computation_count = stopped_at_->second;
  }
  if (!ok) {
    out.error = error_ ? error_ : ParseError{lexer_.offset(), "syntax error"};
    out.error_note = error_note_;
    if (out.name.empty()) out.name = std::string(module_->name());
    out.module.reset();
    return out;
  }
  // After the release: its table lands in the parse's freed memory.
  builder_->BuildParents();
  out.name = std::string(module_->name());
  out.module = std::move(module_);
  previous_module_bytes_ = lexer_.offset() - out.begin_offset;
  return out;
}

// The name tables and per-scope lists of a large module are no use to the
// rules, which run while this parser waits for the next module: give their
// memory back before that, keeping small ones for files of many modules.
void ModuleParser::ReleaseScratch() {
  constexpr size_t kKept = ScopeNameTable::kKeptSlots;
  for (ScopeNameTable& table : scopes_) table.Release();
  computation_names_.Release();
  value_keys_.Release();
  module_shape_cache_.Release();
  auto release = [](auto& list) {
    if (list.capacity() > kKept) std::decay_t<decltype(list)>().swap(list);
  };
  for (auto& order : scope_order_) release(order);
  for (auto& params : parameter_scopes_) release(params);
  for (auto& numbers : parameter_numbers_) {
    release(numbers.by_number);
    if (numbers.large.capacity() > kKept) decltype(numbers.large)().swap(numbers.large);
  }
  for (auto& cache : gte_cache_) {
    if (cache.capacity() > kKept) std::decay_t<decltype(cache)>().swap(cache);
  }
  if (async_start_of_.capacity() > kKept) decltype(async_start_of_)().swap(async_start_of_);
}

// Reserving from the text size avoids regrowing (and briefly doubling) the
// big arrays; reserved pages that are never touched cost no memory. The
// previous module's size bounds the guess for files of many small modules.
void ModuleParser::ReserveFor(size_t text_bytes) {
  const size_t instructions = text_bytes / 96 + 16;
  builder_->instructions().reserve(instructions);
  builder_->ids().reserve(instructions * 3);
  builder_->order().reserve(instructions);
  builder_->name_hashes().reserve(instructions);
  builder_->attributes().reserve(instructions * 2);
  // Generated and real dumps average a computation per 1-2 KB of text
  // (fusions of a few instructions), so this rarely regrows.
  builder_->computations().reserve(text_bytes / 512 + 4);
  read_ahead_.BeginModule(text_bytes);
}

bool ModuleParser::ParseHloModule(bool has_header, ParsedModule* out) {
  ModuleHeader& header = builder_->header();
  header.offset = lexer_.offset();
  if (has_header) {
    header.present = true;
    Lex();
    if (kind() != TokKind::kIdent && kind() != TokKind::kName) return TokenError("expects name");
    header.name_offset = static_cast<uint32_t>(tok().text.data() - file_.data());
    header.name_size = static_cast<uint32_t>(tok().text.size());
    builder_->name() = std::string(tok().text);
    out->name = builder_->name();
    Lex();
    if (!ParseHeaderAttributes()) return false;
  }
  if (!ParseStackFrameIndex()) return false;

  // In a large file the parsed text leaves the resident set behind the
  // parser, so text and IR are never resident in full at the same time.
  parsed_text_.emplace(file_, lexer_.offset());
  // A large module's later chunks are parsed on another thread meanwhile.
  std::unique_ptr<ParallelParse> parallel = StartParallelParse(lexer_.offset());
  struct ParallelGuard {
    ModuleParser* p;
    ~ParallelGuard() { p->parallel_ = nullptr; }
  } parallel_guard{this};
  parallel_ = parallel.get();
  CompId entry = kNoId;
  do {
    if (parallel != nullptr && MergeFragmentsAt(*parallel, &entry)) continue;
    if (!ParseComputation(&entry)) return false;
  } while (kind() != TokKind::kEof && kind() != TokKind::kw_HloModule &&
           kind() != TokKind::kSplitMarker);
  parallel_ = nullptr;
  parallel.reset();  // chunks not merged were not this module's
  HandOverMarkers(lexer_.offset());
  parsed_text_->ReleaseTo(lexer_.offset());
  auto& comps = builder_->computations();
  if (entry == kNoId) {
    // The last top-level computation is the entry.
    for (CompId c = static_cast<CompId>(comps.size()); c-- > 0;) {
      if (!comps[c].is_inline) {
        entry = c;
        break;
      }
    }
  }
  builder_->entry() = entry;
  comps[entry].is_entry = true;
  if (!has_header) {
    builder_->name() = StrCat("module_", module_->computation_name(entry));
    header.name_offset = comps[entry].name_offset;
    header.name_size = comps[entry].name_size;
  }
  builder_->end_offset() = lexer_.offset();
  return FinishModule(out);
}

// ---------------------------------------------------------------------------
// Computations

bool ModuleParser::ParseComputation(CompId* entry) {
  const uint32_t begin = lexer_.offset();
  const bool is_entry = EatIfPresent(TokKind::kw_ENTRY);
  const uint32_t name_offset = lexer_.offset();
  if (kind() != TokKind::kIdent && kind() != TokKind::kName) return TokenError("expects name");
  std::string_view name = tok().text;
  const uint32_t name_text_offset = static_cast<uint32_t>(name.data() - file_.data());
  computation_names_.Prefetch(name);  // inserted after the body
  Lex();

  std::vector<ShapeId>& params = signature_scratch_;
  params.clear();
  ShapeId result = kNoShape;
  uint32_t result_offset = 0;
  const bool has_signature = kind() == TokKind::kLparen;
  if (has_signature && !ParseSignature(&result, &result_offset)) return false;

  if (is_entry && scope_depth_ == 0) ReserveEntryScope(begin);
  CompId id;
  if (!ParseInstructionList(name, name_text_offset, false, begin, params, &id)) return false;
  Computation& comp = builder_->computations()[id];
  comp.has_signature = has_signature;
  comp.signature_result = result;
  comp.signature_offset = result_offset;
  if (has_signature) {
    const Shape& root_shape = module_->shape(comp.root);
    if (root_shape.element_type != PrimitiveType::kInvalid &&
        !Compatible(root_shape, shape(result))) {
      return Error(result_offset,
                   StrCat("Shape of computation ", name, ", ",
                                ShapeToString(shape(result), false),
                                ", is not compatible with that of its root instruction ",
                                module_->name(comp.root), ", ", ShapeToString(root_shape, false)));
    }
  }
  if (!ParseComputationAttributes(id)) return false;
  if (is_entry) {
    if (*entry != kNoId) return Error(begin, "expects only one ENTRY");
    *entry = id;
  }
  const CompId existing = computation_names_.Insert(name, id);
  names_.NoteComputationDefined(name);
  if (existing != id) {
    error_note_ = ParseError{builder_->computations()[existing].name_offset,
                             "computation previously defined here"};
    return Error(name_offset, StrCat("computation already exists: ", name));
  }
  return true;
}

// Signature: (name shape, ...) -> shape.
bool ModuleParser::ParseSignature(ShapeId* result, uint32_t* result_offset) {
  std::vector<ShapeId>& params = signature_scratch_;
  if (dump_forms_.TrySignature(lexer_.offset(), &params, result, result_offset)) return true;
  Lex();
  if (kind() != TokKind::kRparen) {
    do {
      std::string_view param_name;
      ShapeId param;
      if (!ParseName(&param_name) || !ParseShape(&param)) return false;
      params.push_back(param);
    } while (EatIfPresent(TokKind::kComma));
  }
  if (!ParseToken(TokKind::kRparen, "expects ')' at the end of param list") ||
      !ParseToken(TokKind::kArrow, "expects '->'")) {
    return false;
  }
  *result_offset = lexer_.offset();
  return ParseShape(result);
}

bool ModuleParser::ParseComputationAttributes(CompId id) {
  while (EatIfPresent(TokKind::kComma)) {
    const uint32_t offset = lexer_.offset();
    if (kind() != TokKind::kAttributeName) return TokenError("expects attribute name");
    std::string_view attr = tok().text;
    Lex();
    if (attr == "execution_thread") {
      std::string_view thread;
      if (!ParseString(&thread)) return Error(offset, "error parsing attribute execution_thread");
      builder_->computations()[id].thread_offset =
          static_cast<uint32_t>(thread.data() - file_.data());
    } else if (attr == "backend_config") {
      std::string_view raw;
      bool ok = kind() == TokKind::kString ? ParseString(&raw)
                : kind() == TokKind::kLbrace ? ParseJsonDict(&raw)
                                             : TokenError("expects a string or a JSON object");
      if (!ok) return false;
    } else {
      return Error(offset, StrCat("unexpected attribute \"", attr,
                                        "\". Allowed attributes: backend_config, execution_thread"));
    }
  }
  return true;
}

// Dumps print the entry computation last, and it is most often the largest
// (a scheduled entry holds most of a module's instructions): its name
// table is sized from the text left and the bytes per instruction so far,
// in at most an eighth of the text left (so an entry of a few instructions
// and huge literals, or one not printed last, costs little).
// With too few instructions before it to go by (a module before
// optimizations is its entry after a few reducers; a fragment of the
// two-thread parse often starts just before the entry), it takes
// ReserveFor's guess per instruction. A fragment sizes it for the text left
// in its chunk.
void ModuleParser::ReserveEntryScope(uint32_t entry_offset) {
  constexpr size_t kMinSample = 1024;   // instructions before guessing
  constexpr size_t kMaxTextShare = 8;   // table bytes <= text left / this
  constexpr size_t kGuessBytesPerInstruction = 96;  // ReserveFor's
  const size_t parsed = builder_->instructions().size();
  const size_t parsed_bytes = entry_offset - builder_->begin_offset();
  const bool sampled = parsed >= kMinSample && parsed_bytes != 0;
  if (names_.in_continuation()) return;
  const size_t end = fragment_ && fragment_stop_ != 0 ? fragment_stop_ : file_.size();
  if (end <= entry_offset) return;
  // Of a file of several modules, this one is likely the size of the one
  // before (as ReserveFor guesses): sizing every entry's table for the rest
  // of the file would fill a table per module, quadratic in their number.
  const size_t left = std::min<size_t>(end - entry_offset, previous_module_bytes_);
  const size_t expected = sampled ? left * parsed / parsed_bytes : left / kGuessBytesPerInstruction;
  EnsureScopeStorage(0);
  scopes_[0].Reserve(expected, left / kMaxTextShare);
}

void ModuleParser::EnsureScopeStorage(size_t scope) {
  if (scopes_.size() > scope) return;
  scopes_.emplace_back();
  scope_order_.emplace_back();
  parameter_scopes_.emplace_back();
  parameter_numbers_.emplace_back();
  gte_cache_.emplace_back();
}

bool ModuleParser::ParseInstructionList(std::string_view name, uint32_t name_offset,
                                        bool is_inline, uint32_t begin_offset,
                                        std::span<const ShapeId> signature, CompId* out) {
  auto& comps = builder_->computations();
  read_ahead_.ComputationArray(*builder_);
  const CompId id = static_cast<CompId>(comps.size());
  comps.emplace_back();
  comps[id].name_offset = name_offset;
  comps[id].name_size = static_cast<uint32_t>(name.size());
  comps[id].begin_offset = begin_offset;
  comps[id].is_inline = is_inline;
  *out = id;

  EnsureScopeStorage(scope_depth_);
  ++scope_depth_;
  struct ScopeGuard {
    ModuleParser* p;
    ~ScopeGuard() {
      --p->scope_depth_;
      p->scope_order_[p->scope_depth_].clear();
      p->parameter_scopes_[p->scope_depth_].clear();
      p->parameter_numbers_[p->scope_depth_].clear();
      p->gte_cache_[p->scope_depth_].clear();
    }
  } guard{this};
  const size_t scope = scope_depth_ - 1;
  scopes_[scope].Begin(static_cast<uint32_t>(builder_->instructions().size()));

  if (!ParseToken(TokKind::kLbrace, "expects '{' at the beginning of instruction list.")) {
    return false;
  }
  InstrId root = kNoId;
  uint32_t root_offset = 0;
  do {
    if (!ParseInstruction(id, &root, &root_offset)) return FailWithQueuedClash(scope);
    if (!AfterListInstruction(id, scope, &root, &root_offset)) return false;
  } while (kind() != TokKind::kRbrace);
  if (!FlushNames(scope)) return false;
  const uint32_t end = lexer_.position();
  if (!ParseToken(TokKind::kRbrace, "expects '}' at the end of instruction list.")) return false;
  return FinishInstructionList(id, scope, root, end, signature);
}

inline bool ModuleParser::AfterListInstruction(CompId id, size_t scope, InstrId* root,
                                        uint32_t* root_offset) {
  read_ahead_.Text(file_.data(), file_.size(), lexer_.offset());
  if (parsed_text_) AdvanceParsedText();
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) [[unlikely]] {
    return Error(lexer_.offset(), "parse cancelled");
  }
  // The other thread may have parsed the instructions from here on (the
  // merge inserts its names at once: none may be queued).
  while (parallel_ != nullptr && scope == 0 && parallel_->next < parallel_->boundaries.size() &&
         lexer_.offset() >= parallel_->boundaries[parallel_->next]) {
    if (!FlushNames(scope)) return false;
    if (!MergeContinuationAt(*parallel_, id, root, root_offset)) break;
  }
  return true;
}

bool ModuleParser::FinishInstructionList(CompId id, size_t scope, InstrId root, uint32_t end,
                                         std::span<const ShapeId> signature) {
  std::vector<InstrId>& order = scope_order_[scope];
  if (root == kNoId) root = order.back();
  auto& instrs = builder_->instructions();
  instrs[root].flags |= Instruction::kIsRoot;

  // Parameter numbers must be exactly 0..n-1 (XLA CHECK-fails otherwise).
  std::vector<std::pair<int64_t, InstrId>>& params = parameter_scopes_[scope];
  std::vector<InstrId>& by_number = parameters_scratch_;
  by_number.assign(params.size(), kNoId);
  for (auto [number, instr] : params) {
    if (number >= static_cast<int64_t>(params.size())) {
      return Error(instrs[instr].name_offset,
                   StrCat("invalid parameter number. Expected [0, ", params.size(),
                                "), got ", number, " (parameter numbers of a computation must be "
                                "0..n-1 without gaps)"));
    }
    by_number[static_cast<size_t>(number)] = instr;
  }

  Computation& comp = builder_->computations()[id];
  comp.root = root;
  comp.end_offset = end;
  // Into the module's list storage: no allocation per computation.
  comp.lists = builder_->StoreLists(by_number, signature);
  comp.parameter_count = static_cast<uint32_t>(by_number.size());
  comp.signature_param_count = static_cast<uint32_t>(signature.size());
  // Most computations' instructions are consecutive ids (an inline
  // computation's own, parsed in the middle, break the run): those store
  // no list. The ids of a scope's order only increase (AddInstruction gives
  // the next id; TakeContinuation's follow every id given before), so the
  // ends tell.
  comp.order_count = static_cast<uint32_t>(order.size());
  const bool consecutive = order.empty() || order.back() - order.front() == order.size() - 1;
  comp.consecutive_order = consecutive;
  auto& module_order = builder_->order();
  if (consecutive) {
    comp.order_begin = order.empty() ? 0 : order[0];
  } else {
    comp.order_begin = static_cast<uint32_t>(module_order.size());
    module_order.insert(module_order.end(), order.begin(), order.end());
  }
  // A top-level computation's instructions (its inline computations' too)
  // are used only by one another: once a batch of them is done, their user
  // lists are laid out while their records and lists are still in the
  // cache, and on the thread that parsed them (a two-thread parse's
  // fragments arrive finished). Not after every small computation: each
  // call has a cost of its own.
  if (scope == 0 && builder_->UnfinishedInstructions() >= kFinishUsersBatch) {
    builder_->FinishUsers();
  }
  return true;
}

// ---------------------------------------------------------------------------
// Entry points

void ParseModules(const SourceFile& file, const std::function<void(ParsedModule&&)>& consumer,
                  const ParseLimits& limits) {
  // Not HLO text at all (MLIR, a proto, binary data, prose): one finding
  // that says what the file is, not a parse error at its first byte.
  const SniffResult sniff = SniffTextFormat(file.text().substr(0, kSniffBytes),
                                            file.size() <= kSniffBytes);
  if (IsUnsupportedFormat(sniff.format)) {
    FormatAdvice advice = AdviceFor(sniff.format);
    ParsedModule other;
    other.begin_offset = sniff.offset;
    other.unsupported_format = true;
    other.error = ParseError{sniff.offset, std::move(advice.message)};
    other.fix = std::move(advice.fix);
    consumer(std::move(other));
    return;
  }
  ModuleParser parser(file, 0, limits);
  parser.Lex();
  uint32_t count = 0;
  while (parser.SkipSeparators()) {
    if (count >= limits.max_modules_per_file) {
      ParsedModule too_many;
      too_many.begin_offset = parser.lexer().offset();
      too_many.error = ParseError{parser.lexer().offset(),
                                  StrCat("more than ", limits.max_modules_per_file,
                                               " modules in one file; the rest is not linted")};
      consumer(std::move(too_many));
      return;
    }
    ParsedModule module = parser.ParseNextModule();
    ++count;
    const bool failed = module.error.has_value();
    const uint32_t error_offset = failed ? module.error->offset : 0;
    consumer(std::move(module));
    if (failed) parser.SkipToNextModule(error_offset);
  }
  // A file with no module (empty, or only comments) has nothing to lint.
}

std::vector<ParsedModule> ParseAllModules(const SourceFile& file, const ParseLimits& limits) {
  std::vector<ParsedModule> modules;
  ParseModules(file, [&](ParsedModule&& m) { modules.push_back(std::move(m)); }, limits);
  return modules;
}

}  // namespace hlolint
