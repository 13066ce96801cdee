#include "parse/module_parser.h"

#include <algorithm>
#include <cstring>

#include "lex/byte_scan.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// Keeps the pages ahead of a growing IR array faulted in.
template <typename Vector>
void Ahead(const Vector& v, PopulateAhead& ahead) {
  using T = typename Vector::value_type;
  ahead.Grow(v.data(), v.size() * sizeof(T), v.capacity() * sizeof(T));
}

bool CanInferShape(Opcode op) {
  switch (op) {
    case Opcode::kAbs: case Opcode::kAcos: case Opcode::kAcosh: case Opcode::kAsin:
    case Opcode::kAsinh: case Opcode::kAtan: case Opcode::kAdd: case Opcode::kAddDependency:
    case Opcode::kAfterAll: case Opcode::kAtan2: case Opcode::kAtanh:
    case Opcode::kBatchNormGrad: case Opcode::kBatchNormInference:
    case Opcode::kBatchNormTraining: case Opcode::kBroadcast: case Opcode::kCall:
    case Opcode::kCeil: case Opcode::kCholesky: case Opcode::kClamp: case Opcode::kClz:
    case Opcode::kCompare: case Opcode::kComplex: case Opcode::kConcatenate:
    case Opcode::kConditional: case Opcode::kConvolution: case Opcode::kCopy:
    case Opcode::kCos: case Opcode::kCosh: case Opcode::kOptimizationBarrier:
    case Opcode::kDivide: case Opcode::kDomain: case Opcode::kDot: case Opcode::kErf:
    case Opcode::kExp: case Opcode::kExpm1: case Opcode::kFft: case Opcode::kFloor:
    case Opcode::kGather: case Opcode::kGetDimensionSize: case Opcode::kSetDimensionSize:
    case Opcode::kGetTupleElement: case Opcode::kImag: case Opcode::kIsFinite:
    case Opcode::kLog: case Opcode::kLog1p: case Opcode::kLogistic: case Opcode::kAnd:
    case Opcode::kNot: case Opcode::kOr: case Opcode::kXor: case Opcode::kMap:
    case Opcode::kMaximum: case Opcode::kMinimum: case Opcode::kMulhi: case Opcode::kMultiply:
    case Opcode::kNegate: case Opcode::kPad: case Opcode::kPartitionId:
    case Opcode::kPopulationCount: case Opcode::kPower: case Opcode::kRaggedDot:
    case Opcode::kReal: case Opcode::kReduce: case Opcode::kRemainder: case Opcode::kReplicaId:
    case Opcode::kReverse: case Opcode::kRoundNearestAfz: case Opcode::kRoundNearestEven:
    case Opcode::kRsqrt: case Opcode::kScan: case Opcode::kScaledDot: case Opcode::kScatter:
    case Opcode::kSelect: case Opcode::kShiftLeft: case Opcode::kShiftRightArithmetic:
    case Opcode::kShiftRightLogical: case Opcode::kSign: case Opcode::kSin: case Opcode::kSinh:
    case Opcode::kSqrt: case Opcode::kCbrt: case Opcode::kReduceWindow:
    case Opcode::kSelectAndScatter: case Opcode::kSort: case Opcode::kSubtract:
    case Opcode::kTan: case Opcode::kTanh: case Opcode::kTranspose:
    case Opcode::kTriangularSolve: case Opcode::kTuple: case Opcode::kWhile: case Opcode::kTopK:
    case Opcode::kShuffle:
      return true;
    default:
      return false;
  }
}

// Names XLA's NameUniquer would change: element type names (except tuple)
// and a `__` prefix not reserved as `__xla_`. ("buffer" became a type name
// after the XLA versions hlolint follows, so it stays a valid name.)
// What XLA's SetAndSanitizeName would change, checked without allocating.
bool NeedsSanitizing(std::string_view name) {
  if (name.size() >= 2 && name[0] == '_' && name[1] == '_' && name.rfind("__xla_", 0) != 0) {
    return true;
  }
  // PrimitiveTypeFromName knows element types only, so "tuple" is no type.
  return PrimitiveTypeFromName(name) != PrimitiveType::kInvalid;
}

std::string SanitizedName(std::string_view name) {
  std::string out(name);
  if (out != "tuple" && PrimitiveTypeFromName(out) != PrimitiveType::kInvalid) {
    out += "_";
  }
  if (out.size() >= 2 && out[0] == '_' && out[1] == '_' && out.rfind("__xla_", 0) != 0) out[0] = 'a';
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------
// Scratch

void ModuleParser::InstrScratch::Reset() {
  static_cast<InstrScratchValues&>(*this) = InstrScratchValues{};
  operands.clear();
  operand_offsets.clear();
  operand_shapes.clear();
  attributes.clear();
  apart_names.clear();
  controls.clear();
  called.clear();
  branches.clear();
  dimensions.clear();
  layout_constraints.clear();
}

void ModuleParser::GrowScratch(size_t level) {
  while (scratch_.size() <= level) scratch_.push_back(std::make_unique<InstrScratch>());
}

// ---------------------------------------------------------------------------
// Driver

ModuleParser::ModuleParser(const SourceFile& file, uint32_t start, const ParseLimits& limits)
    : ValueParser(file, start, nullptr, limits) {
  lexer_.CollectSuppressionMarkers(&lexed_markers_.markers);
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
  recent_shapes_.fill(RecentShape{});
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
  prefetch_text_ = text_bytes >= kPrefetchTextMinBytes;
  populate_ahead_ = text_bytes >= kPrefetchTextMinBytes;
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

  // Signature: (name shape, ...) -> shape.
  std::vector<ShapeId>& params = signature_scratch_;
  params.clear();
  ShapeId result = kNoShape;
  uint32_t result_offset = 0;
  bool has_signature = false;
  if (kind() == TokKind::kLparen &&
      TryFastSignature(lexer_.offset(), &params, &result, &result_offset)) {
    has_signature = true;
  } else if (kind() == TokKind::kLparen) {
    has_signature = true;
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
    result_offset = lexer_.offset();
    if (!ParseShape(&result)) return false;
  }

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
  // Computation attributes.
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
  if (is_entry) {
    if (*entry != kNoId) return Error(begin, "expects only one ENTRY");
    *entry = id;
  }
  const CompId existing = computation_names_.Insert(name, id);
  if (fragment_) defined_in_fragment_.Add(NameHashOf(name));
  if (existing != id) {
    error_note_ = ParseError{builder_->computations()[existing].name_offset,
                             "computation previously defined here"};
    return Error(name_offset, StrCat("computation already exists: ", name));
  }
  return true;
}

const char* ModuleParser::CachedShapeAt(const char* p, ShapeId* id) {
  const char* q = ShapeTextEnd(p, std::min(p + kShapeTextLimit, file_.data() + file_.size()));
  if (q == nullptr) return nullptr;
  const uint32_t found = shape_cache_->Find(std::string_view(p, static_cast<size_t>(q - p)));
  if (found == CopyingNameTable::kNotFound) return nullptr;
  RememberShape(p, static_cast<size_t>(q - p), found);
  *id = found;
  return q;
}

static size_t RecentShapeSet(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return static_cast<size_t>((v * 0x9E3779B97F4A7C15ull) >> 57) * 2;
}

// A recent text T at p is the shape ShapeTextEnd would find there when the
// bytes after it are ones ShapeTextEnd stops at without looking further: a
// blank then a name or opcode (T holds no blank unless it is a tuple, which
// ends at its balanced ')'; a T ending in ']' is not followed by a layout),
// or `, ` / `) ` (T does not end in ',' or ')' unless a tuple, so nothing
// is trimmed back into it).
const char* ModuleParser::RecentShapeAt(const char* p, ShapeFollower follower, ShapeId* id) const {
  const char* const end = file_.data() + file_.size();
  if (end - p < 8) return nullptr;
  const RecentShape* set = &recent_shapes_[RecentShapeSet(p)];
  for (int way = 0; way < 2; ++way) {
    const RecentShape& r = set[way];
    // *end is NUL, so with r.size < end - p both follower bytes are readable.
    if (r.size == 0 || static_cast<size_t>(end - p) <= r.size) continue;
    // Further back than the text kept resident: maybe released.
    if (r.text < p && static_cast<size_t>(p - r.text) > TextReleaser::kMargin) continue;
    const char* q = p + r.size;
    bool follows = false;
    switch (follower) {
      case ShapeFollower::kWord:
        follows = q[0] == ' ' && (q[1] == '%' || IsIdentStartByte(q[1]));
        break;
      case ShapeFollower::kListSeparator:
        follows = (q[0] == ',' || q[0] == ')') && q[1] == ' ';
        break;
    }
    if (follows && BytesEqual(p, r.text, r.size)) {
      *id = r.id;
      return q;
    }
  }
  return nullptr;
}

void ModuleParser::RememberShape(const char* p, size_t size, ShapeId id) {
  if (file_.data() + file_.size() - p < 8) return;
  RecentShape* set = &recent_shapes_[RecentShapeSet(p)];
  set[1] = set[0];
  set[0] = RecentShape{p, static_cast<uint32_t>(size), id};
}

// Computation headers repeat shapes the module already knows. Read like
// TryFastHead: `name: shape` pairs separated by `, `, then ` -> shape {`,
// shapes by exact text from the shape cache (ShapeTextEnd decides where a
// shape ends exactly as ParseShape does); anything else is left to the
// token grammar.
// For a byte-wise reader that met a shape the shape cache does not hold:
// the grammar reads it at `p`, as the token-level parser would at that
// point, and the cache keeps its text. Returns where it ends, or null (an
// error the token-level parser will meet and report again is dropped).
// Moves the lexer (and says so in *lexer_moved).
const char* ModuleParser::ShapeThroughGrammar(const char* p, ShapeId* id, bool* lexer_moved) {
  if (error_) return nullptr;
  *lexer_moved = true;
  lexer_.Reset(static_cast<uint32_t>(p - file_.data()));
  Lex();
  if (!ParseShape(id)) {
    error_.reset();
    return nullptr;
  }
  return file_.data() + lexer_.previous_end();
}

bool ModuleParser::TryFastSignature(uint32_t pos, std::vector<ShapeId>* params, ShapeId* result,
                                    uint32_t* result_offset) {
  if (!limits_.fast_paths || shape_cache_ == nullptr || depth_ + 1 > limits_.max_nesting_depth) {
    return false;
  }
  const char* const base = file_.data();
  const char* const end = base + file_.size();
  const char* p = base + pos;
  if (*p != '(') return false;
  ++p;
  const size_t first = params->size();
  bool closed = *p == ')';
  bool lexer_moved = false;
  while (!closed) {
    // A plain name right before ':' is a kName token whatever its spelling.
    if (!IsIdentStartByte(*p)) break;
    p = SkipIdentChars(p, end);
    if (p[0] != ':' || p[1] != ' ') break;
    ShapeId param;
    const char* shape_begin = p + 2;
    p = KnownShapeAt(shape_begin, ShapeFollower::kListSeparator, &param);
    // A shape the module has not used yet (an entry's parameters often
    // print without the layouts their instructions have).
    if (p == nullptr) p = ShapeThroughGrammar(shape_begin, &param, &lexer_moved);
    if (p == nullptr) break;
    params->push_back(param);
    if (*p == ')') {
      closed = true;
    } else if (p[0] == ',' && p[1] == ' ') {
      p += 2;
    } else {
      break;
    }
  }
  if (closed && end - p > 5 && std::memcmp(p, ") -> ", 5) == 0) {
    p += 5;
    ShapeId result_shape;
    const char* shape_end = CachedShapeAt(p, &result_shape);
    if (shape_end == nullptr) shape_end = ShapeThroughGrammar(p, &result_shape, &lexer_moved);
    if (shape_end != nullptr && shape_end[0] == ' ' && shape_end[1] == '{') {
      *result = result_shape;
      *result_offset = static_cast<uint32_t>(p - base);
      lexer_.Reset(static_cast<uint32_t>(shape_end - base));
      Lex();
      return true;
    }
  }
  params->resize(first);
  if (lexer_moved) {
    lexer_.Reset(pos);
    Lex();
  }
  return false;
}

// Dumps print the entry computation last, and it is most often the largest
// (a scheduled entry holds most of a module's instructions): its name
// table is sized from the text left and the bytes per instruction so far,
// in at most an eighth of the text left (an entry of a few instructions and
// huge literals, or one not printed last, costs little more than before).
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
  if (continuation_) return;
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
  if (populate_ahead_) Ahead(comps, comps_ahead_);
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
    // A large file's text streams from memory, and the hardware prefetcher
    // stops at every 4 KB page: a few lines ahead are asked for here.
    if (prefetch_text_) PrefetchText();
    if (parsed_text_) AdvanceParsedText();
    if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) [[unlikely]] {
      return Error(lexer_.offset(), "parse cancelled");
    }
    // The other thread may have parsed the instructions from here on (the
    // merge inserts its names at once: none may be queued).
    while (parallel_ != nullptr && scope == 0 && parallel_->next < parallel_->boundaries.size() &&
           lexer_.offset() >= parallel_->boundaries[parallel_->next]) {
      if (!FlushNames(scope)) return false;
      if (!MergeContinuationAt(*parallel_, id, &root, &root_offset)) break;
    }
  } while (kind() != TokKind::kRbrace);
  if (!FlushNames(scope)) return false;
  const uint32_t end = lexer_.position();
  if (!ParseToken(TokKind::kRbrace, "expects '}' at the end of instruction list.")) return false;

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
  // are used only by one another: once a few thousand of them are done,
  // their user lists are laid out, while their records and lists are still
  // in the cache, and on the thread that parsed them (a two-thread parse's
  // fragments arrive finished). Not after every small computation: each
  // call costs 200-300 instructions of its own.
  if (scope == 0 && builder_->UnfinishedInstructions() >= kFinishUsersBatch) {
    builder_->FinishUsers();
  }
  return true;
}

bool ModuleParser::ParseInstruction(CompId computation, InstrId* root, uint32_t* root_offset) {
  const uint32_t maybe_root = lexer_.offset();
  const bool is_root = EatIfPresent(TokKind::kw_ROOT);
  if (kind() != TokKind::kIdent && kind() != TokKind::kName) {
    if (kind() == TokKind::kSplitMarker || kind() == TokKind::kw_HloModule ||
        kind() == TokKind::kEof) {
      // A truncated file, or a missing '}': show where the computation began.
      error_note_ = ParseError{builder_->computations()[computation].begin_offset,
                               "the unclosed computation starts here"};
      return Error(lexer_.offset(),
                   StrCat("expects name (the computation is not closed with '}' before ",
                          TokKindName(kind()), ")"));
    }
    return TokenError(is_root ? "expects name after ROOT" : "expects name");
  }
  std::string_view name = tok().text;
  const uint32_t name_offset = static_cast<uint32_t>(name.data() - file_.data());
  // ` = ` as dumps print it is checked byte-wise, so the instruction's head
  // can be read without the lexer (TryFastHead).
  uint32_t fast_from = 0;
  {
    const char* p = file_.data() + lexer_.position();
    while (*p == ' ') ++p;
    if (*p == '=') {
      ++p;
      while (*p == ' ') ++p;
      fast_from = static_cast<uint32_t>(p - file_.data());
    }
  }
  if (fast_from == 0) {
    Lex();
    if (!ParseToken(TokKind::kEqual, "expects '=' in instruction")) return false;
  }
  if (is_root && *root != kNoId) {
    error_note_ = ParseError{*root_offset, "the first ROOT is here"};
    return Error(maybe_root, "one computation should have only one ROOT");
  }
  InstrId id;
  recorded_error_.reset();
  if (!ParseInstructionRhs(computation, name_offset, static_cast<uint32_t>(name.size()), true, &id,
                           fast_from)) {
    // XLA reports the errors it recorded and went on past first.
    if (recorded_error_ && !depth_exceeded_) {
      error_ = recorded_error_;
      error_note_.reset();
    }
    recorded_error_.reset();
    return false;
  }
  recorded_error_.reset();
  if (is_root) {
    *root = id;
    *root_offset = maybe_root;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Instructions

bool ModuleParser::ParseOpcode(Opcode* opcode, Opcode* wrapped) {
  *wrapped = Opcode::kInvalid;
  if (kind() != TokKind::kIdent) return TokenError("expects opcode");
  std::string_view text = tok().text;
  if (auto op = OpcodeFromName(text)) {
    *opcode = *op;
    Lex();
    return true;
  }
  for (auto [suffix, async_op] : {std::pair{std::string_view("-start"), Opcode::kAsyncStart},
                                  {std::string_view("-update"), Opcode::kAsyncUpdate},
                                  {std::string_view("-done"), Opcode::kAsyncDone}}) {
    if (text.size() <= suffix.size() || text.substr(text.size() - suffix.size()) != suffix) continue;
    std::string_view prefix = text.substr(0, text.size() - suffix.size());
    auto inner = OpcodeFromName(prefix);
    if (!inner) {
      return TokenError(StrCat("expects async wrapped opcode but sees: ", text,
                                     ", error: Unknown opcode: ", prefix));
    }
    // These have real -start/-done opcodes; their sugar forms do not exist.
    switch (*inner) {
      case Opcode::kAllGather: case Opcode::kAllReduce: case Opcode::kCollectivePermute:
      case Opcode::kCopy: case Opcode::kRecv: case Opcode::kSend:
        return TokenError(StrCat("expects opcode but sees: ", text,
                                       ", error: Unknown opcode: ", text));
      default:
        break;
    }
    *opcode = async_op;
    *wrapped = *inner;
    Lex();
    return true;
  }
  return TokenError(StrCat("expects opcode but sees: ", text, ", error: Unknown opcode: ", text));
}

bool ModuleParser::ParseOperands(CompId computation, std::vector<InstrId>* operands,
                                 std::vector<uint32_t>* offsets) {
  DepthGuard guard(this);
  if (!guard.ok) return false;
  if (!ParseToken(TokKind::kLparen, "expects '(' at the beginning of operands")) return false;
  if (kind() != TokKind::kRparen) {
    do {
      offsets->push_back(lexer_.offset());
      const size_t before = operands->size();
      if (!ParseOperand(computation, operands)) return false;
      if (operands->size() == before) offsets->pop_back();  // skipped, as XLA does
    } while (EatIfPresent(TokKind::kComma));
  }
  return ParseToken(TokKind::kRparen, "expects ')' at the end of operands");
}

InstrId ModuleParser::FindName(std::string_view name) const {
  const uint64_t hash = StringViewHash()(name);
  const uint32_t id =
      scopes_[scope_depth_ - 1].FindHashedIf(static_cast<uint32_t>(hash), NamedAs(name, hash));
  return id == ScopeNameTable::kNotFound ? kNoId : id;
}

// Operands most often name the instruction right before: compared first,
// without hashing. The scope's last entry is in its name table unless it is
// anonymous (nested or compact get-tuple-element).
InstrId ModuleParser::FindOperandName(std::string_view name) const {
  const std::vector<InstrId>& order = scope_order_[scope_depth_ - 1];
  if (!order.empty()) {
    const Instruction& last = builder_->instructions()[order.back()];
    if (module_->NameSize(last) == name.size() && !(last.flags & Instruction::kAnonymous) &&
        BytesEqual(file_.data() + last.name_offset, name.data(), name.size())) {
      return order.back();
    }
  }
  return FindName(name);
}

bool ModuleParser::ParseOperand(CompId computation, std::vector<InstrId>* operands) {
  const uint32_t start = lexer_.offset();
  // An empty operand (`add(p,, q)`, `tuple(p,)`, `f(, p)`): XLA's
  // ParseOperands tries both readings, and when neither works it only
  // records the error ("cannot parse as an instruction name or as a nested
  // instruction:") and goes on with the loop `while
  // (EatIfPresent(TokKind::kComma))`, so the operand is skipped and the text
  // parses unless a later check (the operand count) fails. Both readings
  // stop at this token without consuming it, so skip it the same way.
  if (kind() == TokKind::kComma || kind() == TokKind::kRparen) {
    if (!recorded_error_) {
      recorded_error_ = ParseError{start, StrCat("expects an operand (a name or a nested "
                                                 "instruction), but sees ",
                                                 TokKindName(kind()))};
    }
    return true;
  }
  // Nothing that can start an operand: say so at this token.
  if (kind() != TokKind::kIdent && kind() != TokKind::kName && !CanBeShape()) {
    return TokenError(StrCat("expects an operand (a name or a nested instruction), but sees ",
                             TokKindName(kind())));
  }
  // Fast path: [shape] name ('#' index)*, followed by ',' or ')'.
  std::optional<ParseError> plain_error;
  {
    ShapeId declared = kNoShape;
    bool ok = true;
    if (CanBeShape()) ok = ParseShape(&declared);
    if (ok && (kind() == TokKind::kIdent || kind() == TokKind::kName)) {
      std::string_view name = tok().text;
      const uint32_t name_offset = static_cast<uint32_t>(name.data() - file_.data());
      InstrId id = FindName(name);
      Lex();
      // Only a plain operand: `constant(2)` is a nested instruction.
      if (id == kNoId && continuation_ &&
          (kind() == TokKind::kComma || kind() == TokKind::kRparen)) {
        id = OperandStub(name, name_offset, declared);
      }
      if (id == kNoId) {
        plain_error = ParseError{name_offset, StrCat("instruction does not exist: ", name)};
      } else {
        bool compact = false;
        while (!plain_error && kind() == TokKind::kOctothorp) {
          compact = true;
          const uint32_t hash_offset = lexer_.offset();
          Lex();
          const uint32_t index_offset = lexer_.offset();
          if (kind() != TokKind::kInt) {
            plain_error = ParseError{index_offset, "expects integer"};
            break;
          }
          const int64_t index = tok().int_value;
          const uint32_t end = lexer_.position();
          Lex();
          const Shape& tuple = module_->shape(id);
          if (index < 0 || index > INT32_MAX) {
            plain_error = ParseError{index_offset, StrCat("GTE index ", index,
                                                          " out of bounds for shape: ",
                                                          ShapeToString(tuple, false))};
            break;
          }
          if (module_->has_known_shape(id)) {
            if (!tuple.IsTuple()) {
              plain_error = ParseError{hash_offset, StrCat("GTE operand must be tuple, but has shape: ",
                                                           ShapeToString(tuple, false))};
              break;
            }
            if (index < 0 || index >= static_cast<int64_t>(tuple.tuple_shapes.size())) {
              plain_error = ParseError{index_offset, StrCat("GTE index ", index,
                                                            " out of bounds for shape: ",
                                                            ShapeToString(tuple, false))};
              break;
            }
          }
          id = CompactGte(id, index, name_offset, end);
        }
        if (!plain_error && declared != kNoShape && module_->has_known_shape(id) &&
            !CompatibleWithBuiltShape(shape(declared), id)) {
          plain_error = ParseError{
              start, compact ? StrCat("operand shape ", ShapeToString(shape(declared), false),
                                      " does not match instruction shape ",
                                      ShapeToString(module_->shape(id), false))
                             : StrCat("The declared operand shape ",
                                      ShapeToStringWithDefaultLayout(shape(declared)),
                                      " is not compatible with the shape of the operand "
                                      "instruction ",
                                      ShapeToStringWithDefaultLayout(module_->shape(id)), ".")};
        }
        if (!plain_error && (kind() == TokKind::kComma || kind() == TokKind::kRparen)) {
          operands->push_back(id);
          return true;
        }
      }
    } else if (!ok) {
      plain_error = error_;
    }
  }
  // Slow path: a nested instruction such as add(x, multiply(y, z)).
  error_.reset();
  const uint32_t after_plain = lexer_.offset();
  const TokKind after_plain_kind = kind();
  lexer_.Reset(start);
  Lex();
  // nested_started_ tells whether the nested reading got past `opcode(`;
  // operands of that nested instruction use it too, so keep ours apart.
  const bool outer_started = nested_started_;
  nested_started_ = false;
  InstrId nested;
  const size_t instructions_before = builder_->instructions().size();
  const size_t computations_before = builder_->computations().size();
  const int scope_depth_before = scope_depth_;
  const bool nested_ok = ParseInstructionRhs(computation, start, 0, false, &nested);
  const bool started = nested_started_;
  nested_started_ = outer_started;
  if (nested_ok) {
    error_.reset();
    operands->push_back(nested);
    return true;
  }
  // Too deep: that error stands, whichever reading got further.
  if (depth_exceeded_) return false;
  // XLA's ParseOperands does not fail when both readings fail: it records
  // the errors and continues at the token where the nested reading stopped,
  // `} while (EatIfPresent(TokKind::kComma));` then `expects ')' at the end
  // of operands`. So an operand such as `f32[4]` (a shape, no name: XLA
  // reads the shape, then finds no opcode at the ',') or `negate` (an
  // opcode, no operand list) is dropped when the nested reading stopped at
  // ',' or ')'. Mirrored where the nested reading stopped where XLA's does
  // and added nothing to the module: before `opcode(` (`started`: after the
  // shape or the opcode), or after a whole `opcode(...)` that failed a check
  // (`negate()`, a second nested `parameter(1)`) without adding an
  // instruction or a computation (XLA keeps inner nested instructions that
  // were added; hlolint does not drop those, it fails).
  const bool added = builder_->instructions().size() != instructions_before ||
                     builder_->computations().size() != computations_before ||
                     scope_depth_ != scope_depth_before;
  const bool skip = !fragment_unusable_ && (!started || !added) &&
                    (kind() == TokKind::kComma || kind() == TokKind::kRparen);
  // Both readings failed: report the one that got further as the user meant
  // (`opcode(...)` reads as a nested instruction).
  std::optional<ParseError> nested_error = error_;
  if (started && nested_error && (!plain_error || nested_error->offset >= plain_error->offset)) {
    error_ = nested_error;
  } else if (plain_error) {
    error_ = plain_error;
  } else if (after_plain_kind == TokKind::kError) {
    // Describe the bad token itself (re-lexed: the lexer has moved on).
    Lexer relex(file_.data(), file_.size(), after_plain);
    relex.Lex();
    error_ = ParseError{relex.offset(), StrCat(DescribeLexError(relex.tok(), file_.data()),
                                               " (expects ',' or ')' after an operand)")};
  } else {
    error_ = ParseError{after_plain, StrCat("expects ',' or ')' after an operand, but sees ",
                                            TokKindName(after_plain_kind))};
  }
  if (skip) {
    RecordAndGoOn();
    error_note_.reset();
    return true;
  }
  return false;
}

// XLA compares a declared operand shape with the instruction's shape as its
// Create* function built it, which for a few opcodes ignores the written
// one: after-all is always token[] (CreateAfterAll), recv is
// (written{0}, u32[], token[]) (CreateRecv(shape->tuple_shapes(0), ...)),
// send is (data, u32[], token[]) (CreateSend; the data taken here from the
// written shape, as dumps write the operand's).
bool ModuleParser::CompatibleWithBuiltShape(const Shape& declared, InstrId id) const {
  const Shape& written = module_->shape(id);
  const Opcode op = module_->opcode(id);
  if (op == Opcode::kAfterAll) return declared.element_type == PrimitiveType::kToken;
  if ((op == Opcode::kRecv || op == Opcode::kSend) && written.IsTuple() &&
      !written.tuple_shapes.empty()) {
    return declared.IsTuple() && declared.tuple_shapes.size() == 3 &&
           Compatible(*declared.tuple_shapes[0], *written.tuple_shapes[0]) &&
           declared.tuple_shapes[1]->IsArray() && declared.tuple_shapes[1]->rank() == 0 &&
           declared.tuple_shapes[1]->element_type == PrimitiveType::kU32 &&
           declared.tuple_shapes[2]->element_type == PrimitiveType::kToken;
  }
  return Compatible(declared, written);
}

InstrId ModuleParser::CompactGte(InstrId tuple, int64_t index, uint32_t name_offset,
                                 uint32_t end_offset) {
  // Of a stub: the first part may have made this one already.
  if (IsStub(tuple)) NeedsFirstHalf(name_offset);
  auto key = (static_cast<uint64_t>(tuple) << 32) | static_cast<uint64_t>(index);
  auto& cache = gte_cache_[scope_depth_ - 1];
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  NewInstruction gte;
  gte.name_offset = name_offset;
  gte.opcode = Opcode::kGetTupleElement;
  gte.flags = Instruction::kCompactGte | Instruction::kAnonymous;
  gte.shape = module_->has_known_shape(tuple)
                  ? module_->shape(tuple).tuple_shapes[static_cast<size_t>(index)]->id
                  : module_->instr(tuple).shape;  // unknown stays unknown
  InstrScratch& s = ScratchAt(++scratch_level_);
  s.operands.push_back(tuple);
  InstrId id = AddInstruction(gte, s, end_offset - name_offset, index);
  builder_->name_hashes().push_back(0);
  --scratch_level_;
  cache.emplace(key, id);
  return id;
}

const char* ModuleParser::ScanOperandName(const char* p, std::string_view* name) const {
  if (*p == '%') {
    const char* begin = ++p;
    if (!IsIdentStartByte(*p)) return nullptr;
    p = SkipIdentChars(p, file_end());
    *name = std::string_view(begin, static_cast<size_t>(p - begin));
    return p;
  }
  if (!IsIdentStartByte(*p)) return nullptr;
  // A plain identifier may be a keyword or a type to the lexer. Before ','
  // or ')' (the operand lists dumps print) it is neither a kName nor an
  // attribute name, so the lexer's ClassifyWord decides.
  const char* q = SkipIdentChars(p + 1, file_end());
  if (*q == ',' || *q == ')') {
    const std::string_view word(p, static_cast<size_t>(q - p));
    PrimitiveType type;
    const char* dim_labels_end;
    if (ClassifyWord(word, &type, &dim_labels_end) != TokKind::kIdent) return nullptr;
    *name = word;
    return q;
  }
  Lexer lexer(file_.data(), file_.size(), static_cast<uint32_t>(p - file_.data()));
  if (lexer.Lex() != TokKind::kIdent) return nullptr;
  *name = lexer.TokenText();
  return p + name->size();
}

size_t ModuleParser::RecentReplicaGroupsAt(const char* p) const {
  const size_t left = static_cast<size_t>(file_end() - p);
  for (const std::string& text : recent_replica_groups_) {
    if (!text.empty() && left >= text.size() && std::memcmp(p, text.data(), text.size()) == 0) {
      return text.size();
    }
  }
  return 0;
}

Opcode ModuleParser::CachedOpcodeAt(const char* p, size_t size) {
  if (file_end() - p < 8 || size == 0) {
    return OpcodeFromName(std::string_view(p, size)).value_or(Opcode::kInvalid);
  }
  uint64_t word;
  std::memcpy(&word, p, 8);
  if (size < 8) word &= (uint64_t{1} << (8 * size)) - 1;
  RecentOpcode& r = recent_opcodes_[((word ^ size) * 0x9E3779B97F4A7C15ull) >> 58];
  if (r.size == size && BytesEqual(r.name, p, size)) return r.opcode;
  const std::optional<Opcode> opcode = OpcodeFromName(std::string_view(p, size));
  if (!opcode) return Opcode::kInvalid;
  r = RecentOpcode{OpcodeName(*opcode).data(), size, *opcode};
  return *opcode;
}

// Dumps spell almost every instruction as `shape opcode(shape %a, shape %b)`
// with single spaces, shapes the module has already used and operands
// defined earlier. That head is read here straight from the bytes: shapes
// by exact text from the shape cache, names from the scope's table. At the
// first byte that does not fit, it gives up having changed nothing, and the
// token-level parser reads the whole instruction (and reports any error),
// so what is accepted, and the IR built, are the same either way.
bool ModuleParser::TryFastHead(uint32_t pos, InstrScratch& s, FastHead* head) {
  // ParseOperands and ParseShape each nest one level deeper.
  if (shape_cache_ == nullptr || depth_ + 2 > limits_.max_nesting_depth) return false;
  const char* const base = file_.data();
  // A shape the module has used before, by its exact text, then one space.
  auto cached_shape = [&](const char* p, ShapeId* id) -> const char* {
    const char* q = KnownShapeAt(p, ShapeFollower::kWord, id);
    return q != nullptr && *q == ' ' ? q + 1 : nullptr;
  };
  const char* p = base + pos;
  if (!IsIdentStartByte(*p) && *p != '(') return false;
  p = cached_shape(p, &head->shape);
  if (p == nullptr) return false;
  const char* opcode_begin = p;
  if (!IsIdentStartByte(*p)) return false;
  p = SkipIdentChars(p, file_end());
  if (*p != '(') return false;
  const Opcode found = CachedOpcodeAt(opcode_begin, static_cast<size_t>(p - opcode_begin));
  if (found == Opcode::kInvalid) return false;  // async sugar, unknown opcodes: the slow path
  const std::optional<Opcode> opcode = found;
  head->opcode = *opcode;
  head->opcode_offset = static_cast<uint32_t>(opcode_begin - base);
  head->opcode_end = static_cast<uint32_t>(p - base);
  head->operands_offset = head->opcode_end;
  if (*opcode == Opcode::kParameter || *opcode == Opcode::kConstant) {
    head->operands_read = false;
    head->resume = head->opcode_end;
    if (*opcode == Opcode::kParameter) {
      // `(N)`: one integer token.
      int64_t number;
      const char* q = ScanSmallDecimal(p + 1, &number);
      if (q != nullptr && *q == ')') {
        head->parameter_number = number;
        head->resume = static_cast<uint32_t>(q + 1 - base);
      }
    }
    return true;
  }
  ++p;  // '('
  bool closed = *p == ')';
  if (!closed) {
    for (;;) {
      const char* operand = p;
      ShapeId declared = kNoShape;
      // A shape starts with a type name followed by '['; anything else
      // starting with a letter is a name.
      const char* word = SkipIdentChars(p, file_end());
      if (*word == '[' || *p == '(') {
        p = cached_shape(p, &declared);
        if (p == nullptr) break;
      }
      std::string_view name;
      p = ScanOperandName(p, &name);
      if (p == nullptr || (*p != ',' && *p != ')')) break;
      InstrId id = FindOperandName(name);
      if (id == kNoId && continuation_) {
        id = OperandStub(name, static_cast<uint32_t>(name.data() - file_.data()), declared);
      }
      if (id == kNoId) break;
      if (declared != kNoShape && declared != builder_->instructions()[id].shape) break;
      s.operand_offsets.push_back(static_cast<uint32_t>(operand - base));
      s.operands.push_back(id);
      if (*p == ')') {
        closed = true;
        break;
      }
      if (p[1] != ' ') break;
      p += 2;
    }
    if (!closed) {
      s.operands.clear();
      s.operand_offsets.clear();
      return false;
    }
  }
  head->operands_read = true;
  head->resume = static_cast<uint32_t>(p + 1 - base);
  return true;
}

bool ModuleParser::ParseInstructionRhs(CompId computation, uint32_t name_offset,
                                       uint32_t name_size, bool allow_attributes, InstrId* out,
                                       uint32_t fast_from) {
  DepthGuard guard(this);
  if (!guard.ok) return false;
  const size_t level = ++scratch_level_;
  struct LevelGuard {
    ModuleParser* p;
    ~LevelGuard() { --p->scratch_level_; }
  } level_guard{this};
  InstrScratch& s = ScratchAt(level);

  NewInstruction instr;
  instr.name_offset = name_offset;
  uint32_t instr_name_size = name_size;
  // A fusion's FusionKind, or an async op's wrapped opcode (the called word).
  uint8_t wrapped_or_kind = static_cast<uint8_t>(Opcode::kInvalid);
  int64_t instr_number = 0;

  // The name goes into the scope's table at the end; fetch its slot now.
  uint64_t name_hash = 0;  // kept in the IR; the name table uses the low 32 bits
  if (name_size != 0) {
    name_hash = StringViewHash()(module_->text(name_offset, name_size));
    scopes_[scope_depth_ - 1].Prefetch(static_cast<uint32_t>(name_hash));
  }
  FastHead head;
  const bool fast = fast_from != 0 && TryFastHead(fast_from, s, &head);
  if (fast_from != 0) {
    lexer_.Reset(fast ? head.resume : fast_from);
    Lex();
  }
  InstrOffsets at;
  at.shape = fast ? fast_from : lexer_.offset();
  const uint32_t begin = at.shape;
  ShapeId shape_id = kNoShape;
  const bool shape_written = fast || CanBeShape();
  Opcode opcode, wrapped;
  uint32_t opcode_end;
  if (fast) {
    shape_id = head.shape;
    at.opcode = head.opcode_offset;
    opcode_end = head.opcode_end;
    opcode = head.opcode;
    wrapped = Opcode::kInvalid;
  } else {
    if (shape_written && !ParseShape(&shape_id)) return false;
    at.opcode = lexer_.offset();
    opcode_end = tok().end;
    if (!ParseOpcode(&opcode, &wrapped)) return false;
  }
  if (name_size == 0) {
    // Anonymous nested instruction: named after its opcode token.
    instr.name_offset = at.opcode;
    instr_name_size = opcode_end - at.opcode;
    instr.flags |= Instruction::kAnonymous;
  }
  const bool sugar = wrapped != Opcode::kInvalid;
  s.shape_written = shape_written;
  s.shuffle_mode = opcode == Opcode::kShuffle;
  if (!shape_written && !CanInferShape(opcode)) {
    return Error(at.opcode, StrCat("cannot infer shape for opcode: ", OpcodeName(opcode)));
  }
  if (fast || kind() == TokKind::kLparen) nested_started_ = true;
  instr.opcode = opcode;
  wrapped_or_kind = static_cast<uint8_t>(wrapped);
  if (sugar) instr.flags |= Instruction::kAsyncSugar;
  if (shape_written) instr.flags |= Instruction::kShapeWritten;

  // The opcode's attribute table, copied only for the few cases that edit it.
  const AttrSet* set = &attr_sets_[static_cast<size_t>(opcode)];
  AttrSet* edited = nullptr;
  if (sugar || opcode == Opcode::kConditional || opcode == Opcode::kBroadcast) {
    s.edited_set = *set;
    edited = &s.edited_set;
    set = edited;
  }
  if (opcode == Opcode::kAsyncStart && sugar) {
    // Sugar: the wrapped op's attributes are written on the -start line.
    const AttrSet& inner = attr_sets_[static_cast<size_t>(wrapped)];
    for (int i = 0; i < kAttrNameCount; ++i) {
      if (inner.types[i] != AttrType::kNotAllowed) {
        edited->types[i] = inner.types[i];
        edited->required[i] = inner.required[i];
      }
    }
    edited->other_xla |= inner.other_xla;
    edited->Allow(AttrName::kCalls, inner.type(AttrName::kCalls),
                  inner.required[static_cast<size_t>(AttrName::kCalls)]);
  } else if ((opcode == Opcode::kAsyncUpdate || opcode == Opcode::kAsyncDone) && sugar) {
    edited->Allow(AttrName::kCalls, AttrType::kNotAllowed);
  }

  // Operands (or the parameter number / literal).
  at.operands = fast ? head.operands_offset : lexer_.offset();
  if (fast && head.operands_read) {
    int expected = ParsedOperandCount(opcode);
    if (expected >= 0 && static_cast<int>(s.operands.size()) != expected) {
      return Error(at.operands, StrCat("expects ", expected, " operands, but has ",
                                       s.operands.size(), " operands"));
    }
  } else if (opcode == Opcode::kParameter) {
    uint32_t number_offset = at.operands + 1;
    int64_t number = fast ? head.parameter_number : -1;
    if (number < 0) {
      if (!ParseToken(TokKind::kLparen, "expects '(' before parameter number")) return false;
      number_offset = lexer_.offset();
      if (!ParseInt64(&number)) return false;
      if (number < 0) return Error(number_offset, "parameter number must be >= 0");
      if (!ParseToken(TokKind::kRparen, "expects ')' after parameter number")) return false;
    }
    instr_number = number;
    if (continuation_ && scope_depth_ == 1) return NeedsFirstHalf(at.operands);
    if (const InstrId other = parameter_numbers_[scope_depth_ - 1].Find(number); other != kNoId) {
      error_note_ = ParseError{builder_->instructions()[other].name_offset,
                               "the other parameter with this number"};
      return Error(number_offset, StrCat("Duplicate parameter number ", number));
    }
  } else if (opcode == Opcode::kConstant && fast && TrySmallScalarConstant(shape_id)) {
    // `(N)` read byte-wise.
  } else if (opcode == Opcode::kConstant) {
    if (!ParseToken(TokKind::kLparen, "expects '(' before constant literal")) return false;
    const Shape& constant_shape = shape(shape_id);
    // XLA relays the literal out to this layout, which CHECK-fails on an
    // invalid one.
    std::string problem = LayoutValidationError(constant_shape);
    if (!problem.empty()) return Error(begin, StrCat("invalid constant shape: ", problem));
    if (!ParseLiteral(constant_shape)) return false;
    if (!ParseToken(TokKind::kRparen, "expects ')' after constant literal")) return false;
  } else {
    if (!ParseOperands(computation, &s.operands, &s.operand_offsets)) return false;
    int expected = ParsedOperandCount(opcode);
    if (expected >= 0 && static_cast<int>(s.operands.size()) != expected) {
      return Error(at.operands, StrCat("expects ", expected, " operands, but has ",
                                       s.operands.size(), " operands"));
    }
  }

  // XLA checks the async structure before the attributes.
  if (IsAsyncOpcode(opcode) && !CheckAsyncStructure(opcode, wrapped, shape_id, s, at)) {
    return false;
  }

  // What the per-opcode checks see: the written operands, or for the
  // `X-start` sugar the parameters of the wrapped op, shaped by the
  // elements of shape[0] and padded to X's arity with f32[1] (as XLA's
  // CreateAsyncWrappedComputation does).
  Opcode checked = opcode;
  ShapeId checked_shape = shape_id;
  if (opcode == Opcode::kAsyncStart && sugar) {
    checked = wrapped;
    const Shape& start = shape(shape_id);
    checked_shape = start.tuple_shapes[1]->id;
    const auto& params = start.tuple_shapes[0]->tuple_shapes;
    const size_t count = std::max<size_t>(std::max(OpcodeArity(wrapped), 0), params.size());
    s.virtual_operands = true;
    for (size_t i = 0; i < count; ++i) {
      static constexpr int64_t kDummyDims[] = {1};
      s.operand_shapes.push_back(
          i < params.size() ? params[i] : &shape(shapes_->MakeArray(PrimitiveType::kF32, kDummyDims)));
    }
  } else {
    // The shape table directly: the module's pointer array is filled later.
    for (InstrId operand : s.operands) {
      s.operand_shapes.push_back(&shape(builder_->instructions()[operand].shape));
    }
  }

  // Attribute requirements that depend on operands.
  if (edited && !CheckOperandsBeforeAttributes(checked, s, *edited, at)) return false;

  if (!ParseAttributes(*set, allow_attributes, s, at.opcode)) return false;
  if (lexer_.previous_end() - begin > limits_.max_instruction_bytes) {
    return Error(begin, StrCat("instruction text is longer than the limit of ",
                               limits_.max_instruction_bytes, " bytes"));
  }

  if (!shape_written) {
    // XLA's maybe_infer_shape: "failed to infer shape for opcode: %s, error: %s".
    std::string infer_error;
    shape_id = InferShape(opcode, s, &infer_error);
    if (!infer_error.empty()) {
      return Error(at.opcode, StrCat("failed to infer shape for opcode: ", OpcodeName(opcode),
                                     ", error: ", infer_error));
    }
  }
  if (!shape_written) checked_shape = shape_id;
  if (!CheckInstruction(checked, checked_shape, s, at)) return false;
  if ((opcode == Opcode::kAsyncUpdate || opcode == Opcode::kAsyncDone) &&
      !CheckAsyncAttributes(s, at)) {
    return false;
  }
  instr.shape = shape_id;
  if (opcode == Opcode::kAsyncStart && !sugar && !s.called.empty()) {
    if (IsExternal(s.called[0])) return NeedsFirstHalf(at.opcode);
    const Computation& callee = builder_->computations()[s.called[0]];
    wrapped_or_kind = static_cast<uint8_t>(builder_->instructions()[callee.root].opcode);
  } else if (opcode == Opcode::kAsyncUpdate || opcode == Opcode::kAsyncDone) {
    wrapped_or_kind = static_cast<uint8_t>(s.inherited_wrapped);
  }
  if (opcode != Opcode::kParameter) instr_number = s.int_value;
  if (opcode == Opcode::kFusion) wrapped_or_kind = static_cast<uint8_t>(s.fusion_kind);
  if (s.side_effect) instr.flags |= Instruction::kSideEffectAttr;

  // Name checks (XLA's SetAndSanitizeName) and replication count. The
  // name's view is made where it is used: kept across the calls below, it
  // is spilled in two halves and reloaded whole, a store-forwarding stall.
  if (!(instr.flags & Instruction::kAnonymous)) {
    if (const std::string_view name = module_->text(instr.name_offset, instr_name_size);
        NeedsSanitizing(name)) {
      const std::string sanitized = SanitizedName(name);
      return Error(name_offset, StrCat("illegal instruction name: ", name,
                                       "; suggest renaming to: ", sanitized));
    }
  }
  if (s.parameter_replication_count >= 0 && module_->shapes().Get(shape_id).element_type !=
                                                PrimitiveType::kInvalid) {
    const int64_t leaves = LeafCount(shape(shape_id));
    if (leaves != s.parameter_replication_count) {
      return Error(s.parameter_replication_offset,
                   StrCat("parameter has ", leaves,
                          " leaf buffers, but parameter_replication has ",
                          s.parameter_replication_count, " elements."));
    }
  }

  const InstrId id = AddInstruction(instr, s, instr_name_size, instr_number, wrapped_or_kind);
  builder_->name_hashes().push_back(name_hash);
  *out = id;
  if (opcode == Opcode::kParameter) {
    parameter_scopes_[scope_depth_ - 1].emplace_back(instr_number, id);
    parameter_numbers_[scope_depth_ - 1].Add(instr_number, id);
  }
  if (IsAsyncOpcode(opcode)) {
    // Remember the chain's start so update/done checks need no walk.
    async_start_of_[id] = opcode == Opcode::kAsyncStart ? id : async_start_of_[s.operands[0]];
  }
  if (!(instr.flags & Instruction::kAnonymous)) {
    const ScopeNameTable::Clash clash = scopes_[scope_depth_ - 1].InsertOrQueue(
        static_cast<uint32_t>(name_hash), id, SameName());
    if (clash) return NameClashError(scope_depth_ - 1, clash);
  }
  return true;
}

bool ModuleParser::NameClashError(size_t scope, ScopeNameTable::Clash clash) {
  const auto& instrs = builder_->instructions();
  const Instruction& later = instrs[clash.id];
  // An insert made at once would have stopped the parse right after
  // instruction clash.id, before the instructions and computations parsed
  // since (whose text starts at the scope's next instruction, if any).
  const std::vector<InstrId>& order = scope_order_[scope];
  uint32_t next_offset = UINT32_MAX;
  for (size_t k = order.size(); k-- > 0 && order[k] != clash.id;) {
    next_offset = instrs[order[k]].name_offset;
  }
  const auto& comps = builder_->computations();
  size_t comp_count = comps.size();
  while (comp_count > 0 && comps[comp_count - 1].begin_offset > next_offset) --comp_count;
  stopped_at_.emplace(clash.id + 1, static_cast<uint32_t>(comp_count));
  error_note_ = ParseError{instrs[clash.existing].name_offset, "instruction previously defined here"};
  return Error(later.name_offset,
               StrCat("instruction already exists: ",
                      module_->text(later.name_offset, module_->NameSize(later))));
}

bool ModuleParser::FlushNames(size_t scope) {
  const ScopeNameTable::Clash clash = scopes_[scope].FlushQueue(SameName());
  return !clash || NameClashError(scope, clash);
}

bool ModuleParser::FailWithQueuedClash(size_t scope) {
  const ScopeNameTable::Clash clash = scopes_[scope].FlushQueue(SameName());
  if (clash) {
    ForgetError();
    NameClashError(scope, clash);
  }
  return false;
}

InstrId ModuleParser::AddInstruction(const NewInstruction& instruction, InstrScratch& s,
                                     uint32_t name_size, int64_t number, uint8_t wrapped_or_kind) {
  auto& instrs = builder_->instructions();
  auto& ids = builder_->ids();
  if (populate_ahead_) {
    Ahead(instrs, instrs_ahead_);
    Ahead(ids, ids_ahead_);
    Ahead(builder_->attributes(), attrs_ahead_);
    Ahead(builder_->name_hashes(), hashes_ahead_);
  }
  const InstrId id = static_cast<InstrId>(instrs.size());
  Instruction& in = instrs.emplace_back();
  in.name_offset = instruction.name_offset;
  in.shape = instruction.shape;
  in.opcode = instruction.opcode;
  in.flags = instruction.flags;

  // Called computations in XLA's order (ParseComputationList keeps them
  // below Instruction::kMaxCalled); counted first, for the header.
  auto for_each_called = [&](auto&& fn) {
    auto each = [&](CompId c) {
      if (c != kNoId) fn(c);
    };
    switch (in.opcode) {
      case Opcode::kWhile:
        each(s.slot_condition);
        each(s.slot_body);
        break;
      case Opcode::kConditional:
        if (s.has_branches) {
          for (CompId c : s.branches) each(c);
        } else {
          each(s.slot_true);
          each(s.slot_false);
        }
        break;
      case Opcode::kSelectAndScatter:
        each(s.slot_select);
        each(s.slot_scatter);
        break;
      default:
        for (CompId c : s.called) each(c);
        break;
    }
  };
  uint32_t called_count = 0;
  if (!s.called.empty() || in.opcode == Opcode::kWhile || in.opcode == Opcode::kConditional ||
      in.opcode == Opcode::kSelectAndScatter) {
    for_each_called([&](CompId) { ++called_count; });
  }

  // The header words (Instruction::HeaderWords), in their order.
  if (name_size >= Instruction::kLongName) {
    in.name_size = Instruction::kLongName;
    ids.push_back(name_size);
  } else {
    in.name_size = static_cast<uint8_t>(name_size);
  }
  if (Instruction::HasNumber(in.opcode)) {
    ids.push_back(static_cast<uint32_t>(static_cast<uint64_t>(number)));
    ids.push_back(static_cast<uint32_t>(static_cast<uint64_t>(number) >> 32));
  }
  if (called_count != 0 || wrapped_or_kind != static_cast<uint8_t>(Opcode::kInvalid)) {
    in.flags |= Instruction::kCalledWord;
    ids.push_back(called_count | uint32_t{wrapped_or_kind} << Instruction::kWrappedShift);
  }
  if (s.operands.size() >= Instruction::kLongOperands) {
    in.operand_count = Instruction::kLongOperands;
    ids.push_back(static_cast<uint32_t>(s.operands.size()));
  } else {
    in.operand_count = static_cast<uint16_t>(s.operands.size());
  }
  if (!s.controls.empty()) {
    in.flags |= Instruction::kHasControl;
    ids.push_back(static_cast<uint32_t>(s.controls.size()));
  }
  in.operands_begin = static_cast<uint32_t>(ids.size());
  // Element by element: these lists hold a few entries, for which a range
  // insert costs several times more.
  for (InstrId operand : s.operands) ids.push_back(operand);
  builder_->CountUses(s.operands);
  auto& attrs = builder_->attributes();
  in.attrs_begin = static_cast<uint32_t>(attrs.size());
  // At most one attribute per name, so this fits.
  static_assert(kAttrNameCount <= 0xff);
  in.attr_count = static_cast<uint8_t>(s.attributes.size());
  for (const Attribute& attribute : s.attributes) attrs.push_back(attribute);
  if (!s.apart_names.empty()) [[unlikely]] {
    auto& apart = builder_->apart_attribute_names();
    const size_t first = apart.size();
    for (const auto& [name, offset] : s.apart_names) {
      for (size_t i = 0; i < s.attributes.size(); ++i) {
        if (s.attributes[i].name == name) {
          apart.emplace_back(in.attrs_begin + static_cast<uint32_t>(i), offset);
          break;
        }
      }
    }
    std::sort(apart.begin() + static_cast<std::ptrdiff_t>(first), apart.end());
  }

  const size_t called_begin = ids.size();
  if (called_count != 0) for_each_called([&](CompId c) { ids.push_back(c); });
  // Control predecessors after the other lists until FinishUsers puts the
  // users before them.
  for (InstrId control : s.controls) ids.push_back(control);
  if (in.opcode == Opcode::kFusion ||
      (in.opcode == Opcode::kAsyncStart && (in.flags & Instruction::kAsyncSugar) &&
       static_cast<Opcode>(wrapped_or_kind) == Opcode::kFusion)) {
    for (uint32_t k = 0; k < called_count; ++k) {
      // A fragment's first-half computations are marked by the merge.
      if (IsExternal(ids[called_begin + k])) continue;
      builder_->computations()[ids[called_begin + k]].is_fusion_computation = true;
    }
  }
  scope_order_[scope_depth_ - 1].push_back(id);
  return id;
}

// ---------------------------------------------------------------------------
// Attributes

bool ModuleParser::ParseAttributes(const AttrSet& set, bool allow_attributes, InstrScratch& s,
                                   uint32_t opcode_offset) {
  std::bitset<kAttrNameCount> seen;
  if (allow_attributes) {
    while (kind() == TokKind::kComma) {
      AttrName known = AttrName::kUnknown;
      if (limits_.fast_paths) {
        TakePlainAttributes(set, seen, s);
        if (kind() != TokKind::kComma) break;
        known = TakeCommonAttributeName();
        if (known == AttrName::kUnknown && !lexer_.LexAttributeNameAfterComma()) Lex();
      } else {
        Lex();
      }
      if (!ParseAttribute(set, seen, s, known)) return false;
    }
    // No instruction starts with `name=`: this is an attribute missing its ','.
    if (kind() == TokKind::kAttributeName) {
      return TokenError(StrCat("expects ',' before attribute ", tok().text));
    }
  }
  std::bitset<kAttrNameCount> missing = set.required & ~seen;
  if (missing.any()) {
    for (int i = 0; i < kAttrNameCount; ++i) {
      if (missing[i]) {
        return Error(opcode_offset, StrCat("attribute ", AttrNameText(static_cast<AttrName>(i)),
                                                 " is expected but not seen"));
      }
    }
  }
  return true;
}

namespace {

// The attribute names dumps print most, by first letter (a few each, most
// frequent first), with their text.
struct CommonAttrName {
  const char* text = nullptr;
  uint32_t size = 0;
  AttrName name = AttrName::kUnknown;
};
using CommonAttrNames = std::array<std::array<CommonAttrName, 3>, 26>;
const CommonAttrNames kCommonAttrNames = [] {
  CommonAttrNames table{};
  for (AttrName name :
       {AttrName::kMetadata, AttrName::kDimensions, AttrName::kToApply, AttrName::kIndex,
        AttrName::kSlice, AttrName::kKind, AttrName::kCalls, AttrName::kReplicaGroups,
        AttrName::kChannelId, AttrName::kUseGlobalDeviceIds, AttrName::kRhsContractingDims,
        AttrName::kLhsContractingDims, AttrName::kBackendConfig, AttrName::kSharding,
        AttrName::kDirection, AttrName::kCustomCallTarget, AttrName::kRhsBatchDims,
        AttrName::kLhsBatchDims, AttrName::kIotaDimension, AttrName::kFrontendAttributes,
        AttrName::kDynamicSliceSizes, AttrName::kIndexVectorDim}) {
    const std::string_view text = AttrNameText(name);
    for (CommonAttrName& slot : table[static_cast<size_t>(text[0] - 'a')]) {
      if (slot.text != nullptr) continue;
      slot = CommonAttrName{text.data(), static_cast<uint32_t>(text.size()), name};
      break;
    }
  }
  return table;
}();

// One of the common names at p (a lowercase letter), followed by '='.
const CommonAttrName* CommonAttrNameAt(const char* p, const char* text_end) {
  const size_t room = static_cast<size_t>(text_end - p);
  for (const CommonAttrName& c : kCommonAttrNames[static_cast<size_t>(*p - 'a')]) {
    if (c.text == nullptr) break;
    // The whole identifier: the name, then '=' (never an identifier byte).
    if (c.size < room && p[c.size] == '=' && BytesEqual(p, c.text, c.size)) return &c;
  }
  return nullptr;
}

}  // namespace

AttrName ModuleParser::TakeCommonAttributeName() {
  if (kind() != TokKind::kComma) return AttrName::kUnknown;
  const uint32_t begin = lexer_.position() + 1;
  const char* p = file_.data() + begin;
  if (p[-1] != ' ' || *p < 'a' || *p > 'z') return AttrName::kUnknown;
  const CommonAttrName* c = CommonAttrNameAt(p, file_end());
  if (c == nullptr) return AttrName::kUnknown;
  lexer_.TakeAttributeName(begin, c->size);
  return c->name;
}

void ModuleParser::TakePlainAttributes(const AttrSet& set, std::bitset<kAttrNameCount>& seen,
                                       InstrScratch& s) {
  if (kind() != TokKind::kComma) return;
  const char* const base = file_.data();
  const char* p = base + lexer_.position();  // after the ','
  const char* taken_end = nullptr;
  // ` name=` exactly as TakeCommonAttributeName takes it; anything else,
  // and every error, is left to ParseAttribute.
  while (p[0] == ' ' && p[1] >= 'a' && p[1] <= 'z') {
    const char* const name_begin = p + 1;
    const CommonAttrName* c = CommonAttrNameAt(name_begin, file_end());
    if (c == nullptr) break;
    const AttrName name = c->name;
    const AttrType type = set.type(name);
    if (type == AttrType::kNotAllowed || seen[static_cast<size_t>(name)]) break;
    const char* const value = name_begin + c->size + 1;
    // Metadata as SkipPlainMetadata reads it after the '{' token.
    const char* const end = type == AttrType::kMetadata
                                ? (*value == '{' ? PlainMetadataEnd(value + 1) : nullptr)
                                : FastAttributeValueEnd(name, type, value, s);
    if (end == nullptr) break;
    seen.set(static_cast<size_t>(name));
    // Written in place: a local copied in would be stored in bytes and
    // loaded whole, a store-forwarding stall.
    Attribute& attribute = s.attributes.emplace_back();
    attribute.name = name;
    // Right after the name and its '=' (its name_offset is implied).
    attribute.value_offset = static_cast<uint32_t>(value - base);
    if (HasValueKey(name)) KeyValueText(attribute, static_cast<uint32_t>(end - base));
    taken_end = end;
    if (*end != ',') break;
    p = end + 1;
  }
  if (taken_end == nullptr) return;
  // The token after the last value (a ',' before one not taken), as the
  // grammar's Lex after that value makes it.
  lexer_.Reset(static_cast<uint32_t>(taken_end - base));
  Lex();
}

bool ModuleParser::ParseAttribute(const AttrSet& set, std::bitset<kAttrNameCount>& seen,
                                  InstrScratch& s, AttrName known) {
  const uint32_t name_offset = lexer_.offset();
  if (kind() != TokKind::kAttributeName) return TokenError("expects attribute name");
  std::string_view text = tok().text;
  const AttrName name = known != AttrName::kUnknown ? known : AttrNameFromText(text);
  if (name != AttrName::kUnknown && seen[static_cast<size_t>(name)]) {
    return Error(name_offset, StrCat("attribute ", text, " already exists"));
  }
  const AttrType type = name == AttrName::kUnknown ? AttrType::kNotAllowed : set.type(name);
  if (type == AttrType::kNotAllowed) {
    std::vector<std::string_view> allowed;
    for (int i = 0; i < kAttrNameCount; ++i) {
      if (set.types[i] != AttrType::kNotAllowed) allowed.push_back(AttrNameText(static_cast<AttrName>(i)));
    }
    std::sort(allowed.begin(), allowed.end());
    // An attribute another XLA's parser takes: which, and how to read it so.
    const std::string other_xla =
        name != AttrName::kUnknown && set.other_xla[static_cast<size_t>(name)]
            ? StrCat(" ", OtherXlaAttributeNote(name))
            : std::string();
    return Error(name_offset, StrCat("unexpected attribute \"", text, "\"", other_xla,
                                     ". Allowed attributes: ", StrJoin(allowed, ", ")));
  }
  seen.set(static_cast<size_t>(name));
  Attribute attribute;
  attribute.name = name;
  // The value right after '=' in a common form: read byte-wise.
  attribute.value_offset = lexer_.position();
  // One way out for every reading, so the push below stays inline.
  if (!limits_.fast_paths || type == AttrType::kMetadata || !TryFastAttributeValue(name, type, s)) {
    Lex();
    attribute.value_offset = lexer_.offset();
    // Plain metadata (most attributes of a dump) straight away: ParseMetadata
    // would try this first too.
    const bool plain_metadata = type == AttrType::kMetadata && SkipPlainMetadata();
    if (!plain_metadata && !ParseAttributeValue(name, type, name_offset, s)) {
      if (!error_) Error(name_offset, StrCat("error parsing attribute ", text));
      return false;
    }
  }
  if (HasValueKey(name)) KeyValueText(attribute);
  NoteAttributeName(attribute, name_offset, s);
  s.attributes.push_back(attribute);
  return true;
}

void ModuleParser::KeyValueText(Attribute& attribute) {
  // The value's tokens, comments between them included.
  KeyValueText(attribute, lexer_.previous_end());
}

void ModuleParser::KeyValueText(Attribute& attribute, uint32_t end) {
  if (end <= attribute.value_offset) return;
  const std::string_view text = module_->text(attribute.value_offset, end - attribute.value_offset);
  if (value_key_count_ == Attribute::kMaxValueKey) return;  // unkeyed: rules read the text
  const uint32_t next = value_key_count_ + 1;
  attribute.value_key = value_keys_.Insert(text, next) & Attribute::kMaxValueKey;
  if (attribute.value_key == next) ++value_key_count_;
}

bool ModuleParser::ParseComputationRef(CompId* out) {
  DepthGuard guard(this);
  if (!guard.ok) return false;
  if (kind() == TokKind::kLbrace) {
    return ParseInstructionList("_", lexer_.offset(), true, lexer_.offset(), {}, out);
  }
  const uint32_t offset = lexer_.offset();
  if (kind() != TokKind::kIdent && kind() != TokKind::kName) {
    return Error(offset, "expects computation name");
  }
  std::string_view name = tok().text;
  const CompId found = LookupComputation(name);
  if (found == CopyingNameTable::kNotFound) {
    return Error(offset, StrCat("computation does not exist: ", name));
  }
  *out = found;
  Lex();
  return true;
}

bool ModuleParser::ParseComputationList(std::vector<CompId>* out) {
  out->clear();
  if (!ParseToken(TokKind::kLbrace, "expects a list starting with '{'")) return false;
  if (kind() != TokKind::kRbrace) {
    do {
      CompId c;
      if (!ParseComputationRef(&c)) return false;
      out->push_back(c);
    } while (EatIfPresent(TokKind::kComma));
  }
  // Instruction::called_count is 16-bit; the few single computation
  // attributes (to_apply=, calls=, ...) added to a list stay below it.
  constexpr size_t kMaxList = Instruction::kMaxCalled - 64;
  if (out->size() > kMaxList) {
    return Error(lexer_.offset(), StrCat("a list of more than ", kMaxList,
                                         " computations, more than hlolint can hold"));
  }
  return ParseToken(TokKind::kRbrace, "expects a list to end with '}'");
}

bool ModuleParser::ParseAttributeValue(AttrName name, AttrType type, uint32_t name_offset,
                                       InstrScratch& s) {
  switch (type) {
    case AttrType::kNotAllowed:
      return false;
    case AttrType::kBool: {
      bool value;
      if (!ParseBool(&value)) return false;
      NoteBool(name, value, s);
      return true;
    }
    case AttrType::kInt64: {
      int64_t value;
      if (!ParseInt64(&value)) return false;
      NoteInt64(name, value, s);
      return true;
    }
    case AttrType::kInt32: {
      const uint32_t offset = lexer_.offset();
      int64_t value;
      if (!ParseInt64(&value)) return false;
      if (value != static_cast<int32_t>(value)) return Error(offset, "value out of range for int32_t");
      return true;
    }
    case AttrType::kFloat: {
      const uint32_t offset = lexer_.offset();
      double value;
      if (!ParseDouble(&value)) return false;
      if (value > 3.4028234663852886e38 || value < -3.4028234663852886e38) {
        return Error(offset, "value out of range for float");
      }
      return true;
    }
    case AttrType::kString: {
      std::string_view raw;
      if (!ParseString(&raw)) return false;
      NoteString(name, raw, s);
      return true;
    }
    case AttrType::kStringOrJson: {
      std::string_view raw;
      if (kind() == TokKind::kString) return ParseString(&raw);
      if (kind() == TokKind::kLbrace) return ParseJsonDict(&raw);
      return TokenError("expects a string or a JSON object");
    }
    case AttrType::kLiteral:
      return ParseLiteralWithShape();
    case AttrType::kIntList: {
      const uint32_t offset = lexer_.offset();
      if (!ParseInt64List(TokKind::kLbrace, TokKind::kRbrace, TokKind::kComma, &s.ints)) return false;
      NoteIntList(name, offset, s);
      return true;
    }
    case AttrType::kIntListList: {
      if (!ParseInt64ListList(TokKind::kLbrace, TokKind::kRbrace, TokKind::kComma, &s.int_lists)) {
        return false;
      }
      if (name == AttrName::kSourceTargetPairs) {
        for (size_t i = 0; i < s.int_lists.size(); ++i) {
          if (s.int_lists[i].size() != 2) {
            return Error(name_offset, "expects 'source_target_pairs=' to be a list of pairs");
          }
        }
      }
      if (name == AttrName::kSliceSizes) s.has_slice_sizes = true;
      return true;
    }
    case AttrType::kComputation: {
      CompId c;
      if (!ParseComputationRef(&c)) return false;
      NoteComputation(name, c, s);
      return true;
    }
    case AttrType::kComputationList: {
      std::vector<CompId> list;
      if (!ParseComputationList(&list)) return false;
      if (name == AttrName::kBranchComputations) {
        s.has_branches = true;
        s.branches = std::move(list);
      } else {
        s.has_called_computations = true;
        for (CompId c : list) s.called.push_back(c);
      }
      return true;
    }
    case AttrType::kFftType:
      return ParseEnum("fft type", {"FFT", "IFFT", "RFFT", "IRFFT"});
    case AttrType::kPaddingType:
      return ParseEnum("padding type", {"PADDING_INVALID", "PADDING_VALID", "PADDING_SAME"});
    case AttrType::kComparisonDirection:
      return ParseEnum("comparison direction", {"EQ", "NE", "GE", "GT", "LE", "LT"});
    case AttrType::kComparisonType:
      if (name == AttrName::kOrder) {
        return ParseEnum("comparison order", {"TOTALORDER", "PARTIALORDER"});
      }
      return ParseEnum("comparison type", {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"});
    case AttrType::kWindow:
      return ParseWindow(&window_scratch_);
    case AttrType::kConvDims:
      return ParseConvolutionDimensionNumbers(&conv_scratch_);
    case AttrType::kSharding: {
      const uint32_t start = lexer_.offset();
      if (!ParseSharding()) return false;
      // Dumps repeat a few shardings: FastAttributeValueEnd takes the same
      // text again without reading it.
      const uint32_t end = lexer_.previous_end();
      const std::string_view text = file_.text().substr(start, end - start);
      if (limits_.fast_paths && end > start && end - start <= kRememberedShardingLimit &&
          file_.data()[end - 1] == '}' && !HoldsMarker(text)) {
        last_sharding_.assign(text);
        last_sharding_depth_ = depth_;
      }
      return true;
    }
    case AttrType::kFrontendAttributes:
      return ParseFrontendAttributes();
    case AttrType::kStatistics:
      return ParseStatistics();
    case AttrType::kBoolListOrBool:
      return ParseBooleanListOrSingleBoolean();
    case AttrType::kParameterReplication:
      s.parameter_replication_offset = name_offset;
      return ParseParameterReplication(&s.parameter_replication_count);
    case AttrType::kInstructionList: {
      if (!ParseToken(TokKind::kLbrace, "expects '{' at the beginning of instruction name list")) {
        return false;
      }
      const uint32_t offset = lexer_.offset();
      do {
        if (kind() != TokKind::kIdent && kind() != TokKind::kName) {
          return Error(offset, "expects a instruction name");
        }
        std::string_view pred = tok().text;
        const uint32_t pred_offset = lexer_.offset();
        InstrId id = FindName(pred);
        if (id == kNoId) return Error(pred_offset, StrCat("instruction '", pred, "' is not defined"));
        Lex();
        s.controls.push_back(id);
      } while (EatIfPresent(TokKind::kComma));
      return ParseToken(TokKind::kRbrace, "expects '}' at the end of instruction name list");
    }
    case AttrType::kSliceRanges:
      return ParseSliceRanges(&slice_scratch_);
    case AttrType::kPaddingConfig:
      return ParsePaddingConfig(&padding_scratch_);
    case AttrType::kMetadata:
      return ParseMetadata(nullptr);
    case AttrType::kFusionKind:
      return ParseFusionKind(&s.fusion_kind);
    case AttrType::kDistribution:
      return ParseEnumIgnoringCase("random distribution", {"rng_invalid", "rng_uniform", "rng_normal"});
    case AttrType::kDomain:
      return ParseDomain();
    case AttrType::kPrecisionList:
      return ParsePrecisionList();
    case AttrType::kShape: {
      ShapeId id;
      return ParseShape(&id);
    }
    case AttrType::kShapeList:
      s.has_layout_constraints = true;
      s.layout_constraints_offset = name_offset;
      return ParseShapeList(&s.layout_constraints);
    case AttrType::kTranspose:
      return ParseEnum("transpose", {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"});
    case AttrType::kRandomAlgorithm:
      return ParseEnumIgnoringCase("random algorithm", {"rng_default", "rng_three_fry", "rng_philox"});
    case AttrType::kPrecisionAlgorithm:
      return ParseEnumIgnoringCase(
          "algorithm",
          {"unset", "dot_any_f8_any_f8_f32", "dot_any_f8_any_f8_f32_fast_accum", "dot_f16_f16_f16",
           "dot_f16_f16_f32", "dot_bf16_bf16_bf16", "dot_bf16_bf16_f32", "dot_bf16_bf16_f32_x3",
           "dot_bf16_bf16_f32_x6", "dot_bf16_bf16_f32_x9", "dot_tf32_tf32_f32",
           "dot_tf32_tf32_f32_x3", "dot_f32_f32_f32", "dot_f64_f64_f64", "alg_unset"});
    case AttrType::kInstructionAliasing:
      return ParseOutputOperandAliasing(&aliasing_scratch_);
    case AttrType::kCustomCallSchedule:
      return ParseEnumIgnoringCase("custom-call schedule",
                                   {"schedule_none", "schedule_latest", "schedule_earliest"});
    case AttrType::kApiVersion: {
      std::string_view version;
      return ParseCustomCallApiVersion(&version);
    }
    case AttrType::kReplicaGroups: {
      // The collectives of a dump repeat a few replica group texts: one equal
      // to a recent valid one is not read again.
      const uint32_t start = lexer_.offset();
      if (const size_t size = RecentReplicaGroupsAt(file_.data() + start); size != 0) {
        lexer_.Reset(start + static_cast<uint32_t>(size));
        Lex();
        return true;
      }
      // Only validated here: the groups are not expanded (rules read them
      // from the IR's text when they need them).
      if (!ParseReplicaGroups(&replica_scratch_, /*expand=*/false)) return false;
      const uint32_t end = lexer_.previous_end();
      const char close = end > start ? file_.data()[end - 1] : '\0';
      const std::string_view text = file_.text().substr(start, end - start);
      if (limits_.fast_paths && (close == ']' || close == '}' || close == ')') &&
          end - start <= kRememberedReplicaGroupsLimit && !HoldsMarker(text)) {
        recent_replica_groups_[next_replica_groups_slot_].assign(text);
        next_replica_groups_slot_ = (next_replica_groups_slot_ + 1) % kRecentReplicaGroups;
      }
      return true;
    }
    case AttrType::kResultAccuracy:
      return ParseResultAccuracy();
    case AttrType::kOriginalValue:
      return ParseOriginalValue();
    case AttrType::kMode:
      if (name == AttrName::kMode && s.shuffle_mode) return ParseEnum("shuffle mode", {"rotate"});
      s.has_mode = true;
      return ParseEnum("collective op group mode",
                       {"cross_replica", "cross_partition", "cross_replica_and_partition",
                        "flattened_id"});
    case AttrType::kConvKind:
      return ParseEnum("convolution kind", {"fprop", "wgrad", "dgrad", "unset"});
    case AttrType::kSparsityConfig:
      return ParseSparsityConfig();
  }
  return false;
}

// ---------------------------------------------------------------------------
// Entry points

namespace {

// An HloModuleProto in protobuf text format: after blank lines and `#` or
// `//` comment lines, the text starts with `hlo_module {`.
std::optional<uint32_t> ProtoTextStart(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t line_end = text.find('\n', pos);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view line = text.substr(pos, line_end - pos);
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#' || line.substr(first, 2) == "//") {
      pos = line_end + 1;
      continue;
    }
    line = line.substr(first);
    if (line.rfind("hlo_module", 0) == 0) {
      std::string_view rest = line.substr(10);
      size_t brace = rest.find_first_not_of(" \t");
      if (brace != std::string_view::npos && rest[brace] == '{') {
        return static_cast<uint32_t>(pos + first);
      }
    }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

void ParseModules(const SourceFile& file, const std::function<void(ParsedModule&&)>& consumer,
                  const ParseLimits& limits) {
  if (std::optional<uint32_t> start = ProtoTextStart(file.text())) {
    ParsedModule proto;
    proto.begin_offset = *start;
    proto.unsupported_format = true;
    proto.error = ParseError{*start,
                             "this is an HloModuleProto in protobuf text format, not HLO text; "
                             "hlolint reads HLO text (print the module as text, e.g. with XLA's "
                             "hlo-opt, and lint that)"};
    consumer(std::move(proto));
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
