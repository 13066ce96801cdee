// Internal: the module-level parser (XLA's HloParserImpl structure on top of
// ValueParser). See parser.h for the public entry point.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bitset>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "memory/prefault.h"
#include "parse/parser.h"
#include "parse/value_parser.h"
#include "parse/name_table.h"
#include "parse/scope_name_table.h"
#include "util/hash.h"
#include "util/prefetch.h"

namespace hlolint {

// How an attribute value is parsed (XLA's AttrTy).
enum class AttrType : uint8_t {
  kNotAllowed = 0,
  kBool,
  kInt64,
  kInt32,
  kFloat,
  kString,
  kStringOrJson,
  kLiteral,
  kIntList,
  kIntListList,
  kComputation,
  kComputationList,
  kFftType,
  kPaddingType,
  kComparisonDirection,
  kComparisonType,
  kWindow,
  kConvDims,
  kSharding,
  kFrontendAttributes,
  kStatistics,
  kBoolListOrBool,
  kParameterReplication,
  kInstructionList,
  kSliceRanges,
  kPaddingConfig,
  kMetadata,
  kFusionKind,
  kDistribution,
  kDomain,
  kPrecisionList,
  kShape,
  kShapeList,
  kTranspose,
  kRandomAlgorithm,
  kPrecisionAlgorithm,
  kInstructionAliasing,
  kCustomCallSchedule,
  kApiVersion,
  kReplicaGroups,
  kResultAccuracy,
  kOriginalValue,
  kMode,
  kConvKind,
  kSparsityConfig,
};

// The attributes an instruction may carry: a type per name and the required
// ones. Copied per instruction from a per-opcode template, then adjusted.
struct AttrSet {
  std::array<AttrType, kAttrNameCount> types{};
  std::bitset<kAttrNameCount> required;
  // Not allowed here, but by the parser of another XLA than the one read
  // for (ParseLimits::xla): the error says which.
  std::bitset<kAttrNameCount> other_xla;
  void Allow(AttrName name, AttrType type, bool is_required = false) {
    types[static_cast<size_t>(name)] = type;
    required[static_cast<size_t>(name)] = is_required;
  }
  void Require(AttrName name, bool is_required) { required[static_cast<size_t>(name)] = is_required; }
  AttrType type(AttrName name) const { return types[static_cast<size_t>(name)]; }
};

// The sets of XLA latest.
const AttrSet& AttrSetFor(Opcode opcode);
// The sets of the parser of `xla`, indexed by opcode (the parser keeps the
// pointer; a few attributes were accepted by some XLA only).
const AttrSet* AttrSetTable(const XlaProfile& xla);

inline bool IsAsyncOpcode(Opcode op) {
  return op == Opcode::kAsyncStart || op == Opcode::kAsyncUpdate || op == Opcode::kAsyncDone;
}

// What a caller decides of a new instruction; AddInstruction fills in the
// rest of its record. Read field by field, as the caller wrote it: a whole
// Instruction built on the stack a field at a time and copied in 16-byte
// loads stalled on store forwarding, once per instruction.
struct NewInstruction {
  uint32_t name_offset = 0;
  ShapeId shape = kNoShape;
  Opcode opcode = Opcode::kInvalid;
  uint8_t flags = 0;  // Instruction::Flags
};

class ModuleParser : public ValueParser {
 public:
  ModuleParser(const SourceFile& file, uint32_t start, const ParseLimits& limits);
  ~ModuleParser() override;

  // Parses the module that starts at the current token. Afterwards the
  // lexer stands on the first token after it.
  ParsedModule ParseNextModule();

 private:
  void ReserveFor(size_t text_bytes);
  void ReleaseScratch();
  size_t previous_module_bytes_ = SIZE_MAX;

 public:
  // After an error: moves to the next `HloModule` line or `// -----` line.
  void SkipToNextModule(uint32_t error_offset);
  // Skips split markers; returns false at end of file.
  bool SkipSeparators();

 protected:
  bool ValidateEmbeddedModule(uint32_t string_offset, std::string_view text) override;

 private:
  // The scalar part of InstrScratch: plain values with their defaults,
  // reset by one assignment (a few wide stores) rather than field by field.
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
  };
  // Resets the per-module state and starts an empty module.
  void BeginModule(uint32_t begin_offset);
  bool ParseHloModule(bool has_header, ParsedModule* out);

  // --- One module on two threads (parallel_parse.cc) ---
  // A large module's text is cut into chunks at computation boundaries.
  // This thread parses them front to back as usual; another thread parses
  // them back to front, each into a module of its own (a fragment), until
  // the two meet. This thread then merges the other's fragments in order:
  // the same IR as parsing on one thread. Whatever a fragment could not
  // settle alone (a check that needs the body of a computation before it,
  // an error, a chunk boundary that was not one) this thread parses itself.
  struct ParallelParse {
    std::vector<uint32_t> boundaries;  // chunk i >= 1 starts at boundaries[i - 1]
    std::mutex mutex;
    size_t entered = 0;           // the last chunk this thread entered (mutex)
    size_t claimed_from = SIZE_MAX;  // the first chunk the other thread took (mutex)
    std::vector<std::unique_ptr<ModuleParser>> fragments;  // by chunk
    std::vector<char> parsed;     // by chunk: the fragment reached the chunk's end
    std::atomic<bool> cancel{false};
    std::thread thread;
    bool joined = false;
    size_t next = 0;              // the next boundary this thread reaches
    // The boundaries are instruction lines inside one large computation
    // (a module with no computation boundary to cut at): every chunk after
    // the first continues the computation this thread is in when it gets
    // there (ParseContinuation, TakeContinuation).
    bool continuation = false;
    // Once the other thread has parsed its last chunk it faults in the
    // pages the merges will copy its fragments into, while this thread
    // merges: this thread gives it where this module's arrays end (fresh
    // memory is a page fault a page, which the merge would pay itself).
    std::condition_variable changed;
    bool other_done = false;   // (mutex)
    bool room_given = false;   // (mutex)
    std::array<std::pair<char*, size_t>, 5> room{};  // (mutex) past each array's end
    size_t chunks() const { return boundaries.size() + 1; }
    ~ParallelParse();
  };
  // Starts the other thread on the module whose computations start at
  // `body_begin` when that pays (ParseLimits::threads and
  // parallel_min_bytes); null otherwise.
  std::unique_ptr<ParallelParse> StartParallelParse(uint32_t body_begin);
  // The other thread: chunks from the last down, until this one comes; then
  // it readies the pages the merges will fill.
  static void ParseChunksFromTheEnd(ParallelParse* work, ModuleParser* owner);
  static void ParseChunks(ParallelParse* work, ModuleParser* owner);
  // The free room of this module's arrays the merges append to, in the
  // order ParseChunksFromTheEnd sizes them.
  std::array<std::pair<char*, size_t>, 5> ArrayRoom();
  // In a fragment's parser: the computations from the current token up to
  // `stop` (a computation's first token; 0: the end of the module).
  bool ParseFragment(const std::atomic<bool>& cancel, uint32_t stop);
  // In a fragment's parser: the instructions from the current token, which
  // continue a computation begun before, up to `stop` (an instruction's
  // first token) or the computation's '}' (0: the '}'). Names used but not
  // defined here become stubs (OperandStub).
  bool ParseContinuation(const std::atomic<bool>& cancel, uint32_t stop);
  // At the first token of a computation: merges the fragments that start
  // here, if any (the lexer then stands after them); true when it did.
  bool MergeFragmentsAt(ParallelParse& work, CompId* entry);
  // Between two instructions of top-level computation `computation`: merges
  // the continuation that starts here, if any (the lexer then stands after
  // it); true when it did.
  bool MergeContinuationAt(ParallelParse& work, CompId computation, InstrId* root,
                           uint32_t* root_offset);
  // The fragment of the chunk that starts at the current token, once the
  // other thread is done with it; null when this thread parses the chunk.
  std::unique_ptr<ModuleParser> FragmentAt(ParallelParse& work);
  // Merges a continuation that starts at the current token into the
  // computation being parsed, or returns false having changed nothing.
  bool TakeContinuation(ModuleParser& half, CompId computation, InstrId* root,
                        uint32_t* root_offset);
  // In a continuation: an instruction defined before the cut, named by an
  // operand with a declared shape; the merge puts the real one in its place.
  // kNoId (and the fragment given up) without a declared shape.
  InstrId OperandStub(std::string_view name, uint32_t name_offset, ShapeId declared);
  bool IsStub(InstrId id) const {
    return !stubs_.empty() && std::binary_search(stubs_.begin(), stubs_.end(), id);
  }
  // Merges one fragment that starts at the current token, or returns false
  // having changed nothing.
  bool TakeFragment(ModuleParser& half, CompId* entry);
  // What any merge of `half` needs: the computations it calls that this
  // module defines (into `external_to`), no computation defined on both
  // sides, room for its value keys, shapes and computations.
  bool CanMerge(const ModuleParser& half, std::vector<CompId>* external_to) const;
  // Interns `half`'s shapes and value keys here, in the order the fragment
  // met them, and gives each one's id here.
  void MergeShapesAndKeys(const ModuleParser& half, std::vector<ShapeId>* shape_to,
                          std::vector<uint32_t>* key_to);
  // The computation named `name` for a reference to it; in a fragment, a
  // name not defined before in it stands for a first-half computation,
  // resolved by the merge (kExternalComputation + index).
  CompId LookupComputation(std::string_view name);
  static constexpr CompId kExternalComputation = 0x80000000u;
  bool IsExternal(CompId c) const { return fragment_ && c != kNoId && c >= kExternalComputation; }
  // In a fragment: a check needs what the first half holds; the fragment is
  // given up and parsed again by the first thread.
  bool NeedsFirstHalf(uint32_t offset);
  bool fragment_ = false;
  bool fragment_unusable_ = false;
  const std::atomic<bool>* cancel_ = nullptr;
  ExternalNames external_computations_;
  // In a fragment, the computations it defines: most that an entry chunk
  // calls are defined before it, and each would miss in its table.
  NameFilter defined_in_fragment_;
  CompId fragment_entry_ = kNoId;
  uint32_t fragment_end_ = 0;  // the token after the fragment
  uint32_t fragment_stop_ = 0;  // where the fragment's chunk ends; 0: the file's end
  uint32_t merged_fragments_ = 0;  // in this module
  // The suppression markers in the comments the lexer skipped
  // (Lexer::CollectSuppressionMarkers) from markers_from_ on, until the
  // file takes them: a fragment's at its merge, the first thread's before
  // the text they are in is released, at the end of each module and
  // before a jump over text not lexed. The file never searches lexed text.
  SuppressionMarkerSink lexed_markers_;
  uint32_t markers_from_ = 0;
  // Every marker in a comment before `to` has been noted: the first thread
  // hands them to the file; a fragment keeps them for its merge.
  void HandOverMarkers(uint32_t to);
  // The lexer jumps to `at` over text it does not lex (what was noted past
  // the last hand-over is dropped); the file searches that text itself.
  void RestartMarkers(uint32_t at);
  // Advances parsed_text_ to the lexer, handing the markers over first when
  // text is to be released.
  void AdvanceParsedText() {
    if (parsed_text_->Due(lexer_.offset())) {
      HandOverMarkers(lexer_.offset());
      parsed_text_->Advance(lexer_.offset());
    }
  }
  // A continuation fragment: its stubs in creation order, and its ROOT.
  bool continuation_ = false;
  std::vector<InstrId> stubs_;  // sorted
  InstrId continuation_root_ = kNoId;
  uint32_t continuation_root_offset_ = 0;
  // The parse on two threads of the module being parsed, if any.
  ParallelParse* parallel_ = nullptr;

  bool ParseHeaderAttributes();
  bool ParseIntSubAttributes(std::initializer_list<std::string_view> names);
  bool ParseStackFrameIndex();
  bool ParseDebugAttributes();
  bool ParseComputation(CompId* entry);
  // `signature`: the parameter shapes of the computation's signature, kept
  // with its parameters (Computation::lists).
  bool ParseInstructionList(std::string_view name, uint32_t name_offset, bool is_inline,
                            uint32_t begin_offset, std::span<const ShapeId> signature,
                            CompId* out);
  bool ParseInstruction(CompId computation, InstrId* root, uint32_t* root_offset);
  // `fast_from` (non-zero) is where the shape starts when the caller has
  // already checked the `=` byte-wise; the lexer then still stands on the name.
  bool ParseInstructionRhs(CompId computation, uint32_t name_offset, uint32_t name_size,
                           bool allow_attributes, InstrId* out, uint32_t fast_from = 0);
  // What TryFastHead read of `shape opcode(operands)`.
  struct FastHead {
    ShapeId shape = kNoShape;
    Opcode opcode = Opcode::kInvalid;
    uint32_t opcode_offset = 0;
    uint32_t opcode_end = 0;
    uint32_t operands_offset = 0;  // the '('
    uint32_t resume = 0;           // where the token-level parser continues
    bool operands_read = false;    // else it resumes at the '('
    int64_t parameter_number = -1;  // `parameter(N)` read up to the ')'
  };
  bool TryFastHead(uint32_t pos, InstrScratch& s, FastHead* head);
  // OpcodeFromName of the `size` bytes at p (at least 8 bytes before the
  // end of the text), through a small cache of the opcodes seen, keyed by
  // their first bytes and checked against the opcode's own name.
  Opcode CachedOpcodeAt(const char* p, size_t size);
  struct RecentOpcode {
    const char* name = nullptr;  // OpcodeName's text: static, never released
    size_t size = 0;
    Opcode opcode = Opcode::kInvalid;
  };
  std::array<RecentOpcode, 64> recent_opcodes_{};
  // A shape the cache lacks, read by the grammar at `p` (see the .cc).
  const char* ShapeThroughGrammar(const char* p, ShapeId* id, bool* lexer_moved);
  // The signature `(a: shape, b: shape) -> shape` after the '(' at `pos`,
  // read byte-wise like TryFastHead; false having changed nothing.
  bool TryFastSignature(uint32_t pos, std::vector<ShapeId>* params, ShapeId* result,
                        uint32_t* result_offset);
  // The name at `p` (`%name` or a plain identifier) as an operand reference,
  // exactly as the lexer would read it; null when it is not one.
  const char* ScanOperandName(const char* p, std::string_view* name) const;
  bool ParseOpcode(Opcode* opcode, Opcode* wrapped);
  // Where the parts of an instruction start, for error locations.
  struct InstrOffsets {
    uint32_t shape = 0;     // the result shape, or the opcode when none is written
    uint32_t opcode = 0;
    uint32_t operands = 0;  // the '(' of the operand list
  };

  bool ParseOperands(CompId computation, std::vector<InstrId>* operands,
                     std::vector<uint32_t>* offsets);
  bool ParseOperand(CompId computation, std::vector<InstrId>* operands);
  // The get-tuple-element `%tuple#index` stands for, made once per scope;
  // its text is [name_offset, end_offset).
  InstrId CompactGte(InstrId tuple, int64_t index, uint32_t name_offset, uint32_t end_offset);
  bool ParseAttributes(const AttrSet& set, bool allow_attributes, InstrScratch& scratch,
                       uint32_t opcode_offset);
  // `known` is the name of the current token when the caller has matched it.
  bool ParseAttribute(const AttrSet& set, std::bitset<kAttrNameCount>& seen, InstrScratch& scratch,
                      AttrName known = AttrName::kUnknown);
  // After a ',' token: ` name=` with one of the names dumps print most,
  // made the current token; kUnknown, having changed nothing, otherwise.
  AttrName TakeCommonAttributeName();
  bool ParseAttributeValue(AttrName name, AttrType type, uint32_t name_offset, InstrScratch& scratch);
  // The value after `name=` when it takes a form dumps print (a `%name`
  // computation, a fusion kind, a small integer or list of them, a string
  // without escapes, ...), read byte-wise with the result the grammar would
  // give; false, having changed nothing, otherwise (fast_values.cc).
  bool TryFastAttributeValue(AttrName name, AttrType type, InstrScratch& scratch);
  // The same reading of the value at `p`, leaving the lexer alone: where
  // the value ends, or null having changed nothing.
  const char* FastAttributeValueEnd(AttrName name, AttrType type, const char* p,
                                    InstrScratch& scratch);
  // After a ',' token: the attributes that follow as dumps print them
  // (` name=value` with a common name, allowed and not yet seen, and a value
  // FastAttributeValueEnd or PlainMetadataEnd reads), taken byte-wise one
  // after another without lexing between them. Stops before the first that
  // does not fit; the lexer then stands where the grammar would have left it
  // after the last one taken (unchanged when none was).
  void TakePlainAttributes(const AttrSet& set, std::bitset<kAttrNameCount>& seen,
                           InstrScratch& scratch);
  // Sets attribute.value_key from the value text ending at `end` (default:
  // the value just read; HasValueKey holds).
  // Marks `attribute` name_apart when its name does not end right before
  // `=value`, and keeps where it is.
  static void NoteAttributeName(Attribute& attribute, uint32_t name_offset, InstrScratch& s) {
    if (attribute.value_offset - name_offset == AttrNameSize(attribute.name) + 1) [[likely]] return;
    attribute.name_apart = 1;
    s.apart_names.emplace_back(attribute.name, name_offset);
  }
  void KeyValueText(Attribute& attribute);
  void KeyValueText(Attribute& attribute, uint32_t end);
  // At the '(' of a scalar constant: `(N)` with up to four digits, for the
  // integer and float types they always fit, read byte-wise up to and
  // including the ')'; false, having changed nothing, otherwise.
  bool TrySmallScalarConstant(ShapeId shape_id);
  // What a value means to the instruction, shared by both readings.
  static void NoteBool(AttrName name, bool value, InstrScratch& s);
  static void NoteInt64(AttrName name, int64_t value, InstrScratch& s);
  static void NoteString(AttrName name, std::string_view raw, InstrScratch& s);
  static void NoteIntList(AttrName name, uint32_t offset, InstrScratch& s);  // s.ints
  static void NoteComputation(AttrName name, CompId c, InstrScratch& s);
  bool ParseComputationRef(CompId* out);
  bool ParseComputationList(std::vector<CompId>* out);
  uint32_t FirstOperandOffset(const InstrScratch& scratch, const InstrOffsets& at) const;
  // Async checks XLA makes before parsing the attributes: the tuple shape
  // form and, for update/done, the chain operand.
  bool CheckAsyncStructure(Opcode opcode, Opcode wrapped, ShapeId shape, InstrScratch& scratch,
                           const InstrOffsets& at);
  // Update/done attributes against the chain's start (thread, computation).
  bool CheckAsyncAttributes(InstrScratch& scratch, const InstrOffsets& at);
  // Attribute requirements that depend on the operands (broadcast of a
  // scalar, conditional branch index).
  bool CheckOperandsBeforeAttributes(Opcode opcode, const InstrScratch& scratch, AttrSet& set,
                                     const InstrOffsets& at);
  bool CheckInstruction(Opcode opcode, ShapeId shape, InstrScratch& scratch,
                        const InstrOffsets& at);
  bool CheckScan(InstrScratch& scratch, const InstrOffsets& at);
  // The shape of an instruction written without one. Where XLA's shape
  // inference fails on known operand shapes, sets `error` to its message.
  ShapeId InferShape(Opcode opcode, const InstrScratch& scratch, std::string* error);
  // Whether a declared operand shape is compatible with the shape XLA's
  // instruction `id` has (see module_parser.cc).
  bool CompatibleWithBuiltShape(const Shape& declared, InstrId id) const;
  // `name_size`, `number` and `wrapped_or_kind` (a fusion's FusionKind, an
  // async op's wrapped opcode) go into the record or its header words.
  InstrId AddInstruction(const NewInstruction& instruction, InstrScratch& scratch,
                         uint32_t name_size, int64_t number,
                         uint8_t wrapped_or_kind = static_cast<uint8_t>(Opcode::kInvalid));
  void ReserveEntryScope(uint32_t entry_offset);
  InstrId FindName(std::string_view name) const;
  InstrId FindOperandName(std::string_view name) const;  // FindName, last instruction first
  std::optional<int64_t> IntAttribute(InstrId id, AttrName name);
  std::string_view StringAttribute(InstrId id, AttrName name);
  bool FinishModule(ParsedModule* out);
  InstrScratch& ScratchAt(size_t level) {
    if (level >= scratch_.size()) [[unlikely]] GrowScratch(level);
    InstrScratch& s = *scratch_[level];
    s.Reset();
    return s;
  }
  void GrowScratch(size_t level);

  const AttrSet* const attr_sets_ = AttrSetTable(limits_.xla);
  std::unique_ptr<Module> module_;
  std::unique_ptr<Module::Builder> builder_;
  // Per open computation (inline computations nest): names, text order,
  // parameters seen, compact get-tuple-element cache.
  // Makes room for the lists of scope depth `scope` (0: a top-level
  // computation's).
  void EnsureScopeStorage(size_t scope);
  std::vector<ScopeNameTable> scopes_;
  // Whether instruction `id` is named `name`, whose full hash is `hash`.
  // The 64-bit hashes kept per instruction are compared first, so the text
  // of a definition far behind is read only for the name it really is: the
  // parser has released that text (TextReleaser), and reading one byte of it
  // maps the whole 2 MB folio back in; 32-bit slot-hash collisions alone
  // (thousands in a computation of millions of instructions) kept most of
  // a large one-computation file resident.
  auto NamedAs(std::string_view name, uint64_t hash) const {
    return [this, name, hash](uint32_t id) {
      const Instruction& instr = builder_->instructions()[id];
      return builder_->name_hashes()[id] == hash && module_->NameSize(instr) == name.size() &&
             BytesEqual(file_.data() + instr.name_offset, name.data(), name.size());
    };
  }
  // Whether instructions `a` and `b` have the same name (ScopeNameTable's
  // queued inserts), compared as NamedAs does.
  auto SameName() const {
    return [this](uint32_t a, uint32_t b) {
      const Instruction& named = builder_->instructions()[b];
      return NamedAs(module_->text(named.name_offset, module_->NameSize(named)),
                     builder_->name_hashes()[b])(a);
    };
  }
  // Reports a name defined twice in scope `scope`.
  bool NameClashError(size_t scope, ScopeNameTable::Clash clash);
  // After a name clash: the instruction and computation counts of the
  // module as the parse would have left them had it stopped there.
  std::optional<std::pair<uint32_t, uint32_t>> stopped_at_;
  // Makes the queued inserts of scope `scope`; false (and the error) if a
  // name was defined twice.
  bool FlushNames(size_t scope);
  // After an error in scope `scope`: a name clash among its queued inserts
  // comes first in the text, and is reported instead. Returns false.
  bool FailWithQueuedClash(size_t scope);
  std::vector<std::vector<InstrId>> scope_order_;
  std::vector<std::vector<std::pair<int64_t, InstrId>>> parameter_scopes_;
  // The parameter numbers a scope has seen: by number while they stay
  // small (the usual 0..n-1, the array grows by at most kSlack per
  // parameter), others in a map.
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
  std::vector<ParameterNumbers> parameter_numbers_;
  // The async-start of every async instruction's chain.
  absl::flat_hash_map<InstrId, InstrId> async_start_of_;
  std::vector<absl::flat_hash_map<uint64_t, InstrId>> gte_cache_;
  // Scratch for a computation's lists before they are stored in the module.
  std::vector<ShapeId> signature_scratch_;
  std::vector<InstrId> parameters_scratch_;
  CopyingNameTable computation_names_;  // lookups do not touch the source text
  CopyingNameTable value_keys_;         // value text -> Attribute::value_key
  uint32_t value_key_count_ = 0;
  // Releases the parsed text behind the parser (large files; one module).
  std::optional<TextReleaser> parsed_text_;
  // How far ahead of the parse the text has been prefetched (PrefetchText),
  // in a module large enough that its text is not in the cache (a smaller
  // one was just read into a buffer, or is small enough to stay cached:
  // there the prefetches cost the corpus files 3%).
  static constexpr size_t kTextAhead = 2048;
  static constexpr size_t kPrefetchTextMinBytes = size_t{16} << 20;
  // Instructions whose user lists are laid out together (FinishUsers): ~100
  // KB of records and lists, which stay in the cache meanwhile.
  static constexpr uint32_t kFinishUsersBatch = 4096;
  bool prefetch_text_ = false;
  // A large module's IR arrays (instructions, id lists, attributes, name
  // hashes, computations) are faulted in ahead of the parser in batches
  // (PopulateAhead), from kPrefetchTextMinBytes on: the one-thread parse of
  // a 1 GB dump took 0.92-0.97 s instead of 0.96-1.02 with a fault per page
  // (interleaved rounds, paused as for a new process).
  bool populate_ahead_ = false;
  PopulateAhead instrs_ahead_, ids_ahead_, attrs_ahead_, hashes_ahead_, comps_ahead_;
  size_t text_prefetched_ = 0;  // offset
  void PrefetchText() {
    const size_t at = lexer_.offset();
    const size_t ahead = std::min<size_t>(at + kTextAhead, file_.size());
    if (text_prefetched_ < at) text_prefetched_ = at;
    for (; text_prefetched_ < ahead; text_prefetched_ += 64) {
      PrefetchForRead(file_.data() + text_prefetched_);
    }
  }
  // Copies its shapes' text: a shape first written far behind would map
  // released text back in on every lookup that reaches the table.
  CopyingNameTable module_shape_cache_;
  // Shape texts found in the shape cache lately, by their first 8 bytes
  // (two ways per set): a repeated shape is then taken by one comparison,
  // without finding its end and hashing it. An entry further behind than
  // the text the parser keeps resident (TextReleaser::kMargin) is not used:
  // reading released text maps its 2 MB back in.
  struct RecentShape {
    const char* text = nullptr;
    uint32_t size = 0;
    ShapeId id = kNoShape;
  };
  // What follows a shape: a blank then a name or an opcode, or `, ` / `) `.
  enum class ShapeFollower { kWord, kListSeparator };
  std::array<RecentShape, 256> recent_shapes_{};
  const char* RecentShapeAt(const char* p, ShapeFollower follower, ShapeId* id) const;
  void RememberShape(const char* p, size_t size, ShapeId id);
  // The shape cached under the text at p (ShapeTextEnd), or null.
  const char* CachedShapeAt(const char* p, ShapeId* id);
  // A recent shape, else a cached one: where the shape at p ends, or null.
  const char* KnownShapeAt(const char* p, ShapeFollower follower, ShapeId* id) {
    const char* end = RecentShapeAt(p, follower, id);
    return end != nullptr ? end : CachedShapeAt(p, id);
  }
  // Scope tables are kept and cleared rather than destroyed, so parsing
  // thousands of small computations does not allocate a map for each.
  size_t scope_depth_ = 0;
  std::vector<std::unique_ptr<InstrScratch>> scratch_;
  size_t scratch_level_ = 0;
  bool nested_started_ = false;

  std::optional<ParseError> error_note_;
  // Values parsed only to validate them.
  Window window_scratch_;
  ConvolutionDimensionNumbers conv_scratch_;
  SliceRanges slice_scratch_;
  PaddingConfig padding_scratch_;
  std::vector<OutputOperandAlias> aliasing_scratch_;
  std::vector<int64_t> shape_index_scratch_;  // TryFastAttributeValue's
  ReplicaGroups replica_scratch_;
  // The last few valid replica_groups texts, copied: the collectives of a
  // dump alternate between a few, and the text behind the reader may have
  // left memory. Each ends in a bracket, so what follows one cannot change
  // how it reads.
  static constexpr size_t kRecentReplicaGroups = 4;
  static constexpr size_t kRememberedReplicaGroupsLimit = 1024;
  std::array<std::string, kRecentReplicaGroups> recent_replica_groups_;
  size_t next_replica_groups_slot_ = 0;
  // The size of the recent replica_groups text that `p` starts with, or 0.
  size_t RecentReplicaGroupsAt(const char* p) const;
  // The last valid sharding's text (ending in its '}', so what follows
  // cannot change how it lexes), and the nesting depth it was read at.
  static constexpr uint32_t kRememberedShardingLimit = 4096;
  std::string last_sharding_;
  int last_sharding_depth_ = 0;
};

}  // namespace hlolint
