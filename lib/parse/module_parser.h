// The module parser: the grammar of HLO modules, computations,
// instructions and attributes, and the checks XLA's parser makes on them,
// in the structure of XLA's HloParserImpl on top of ValueParser. It is the
// reference for what hlolint accepts. Two parts speed it up without
// changing what it accepts or builds, each behind a test that compares:
//  * DumpFormReader (dump_form_reader.h) reads the forms dumps print
//    byte-wise, called at a few forks of the grammar;
//  * the two-thread parse (parallel_parse.h) parses a large module's later
//    chunks on another thread and merges them; the checks ask a
//    NameResolver (name_resolver.h) about names defined in text such a
//    fragment has not seen.
// See parser.h for the public entry point.
#pragma once

#include <array>
#include <atomic>
#include <bitset>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "parse/attribute_sets.h"
#include "parse/dump_form_reader.h"
#include "parse/instruction_scratch.h"
#include "parse/name_resolver.h"
#include "parse/name_table.h"
#include "parse/parser.h"
#include "parse/read_ahead.h"
#include "parse/scope_name_table.h"
#include "parse/value_parser.h"
#include "util/hash.h"

namespace hlolint {

struct ParallelParse;

inline bool IsAsyncOpcode(Opcode op) {
  return op == Opcode::kAsyncStart || op == Opcode::kAsyncUpdate || op == Opcode::kAsyncDone;
}

class ModuleParser : public ValueParser {
 public:
  ModuleParser(const SourceFile& file, uint32_t start, const ParseLimits& limits);
  ~ModuleParser() override;

  // Parses the module that starts at the current token. Afterwards the
  // lexer stands on the first token after it.
  ParsedModule ParseNextModule();
  // After an error: moves to the next `HloModule` line or `// -----` line.
  void SkipToNextModule(uint32_t error_offset);
  // Skips split markers; returns false at end of file.
  bool SkipSeparators();

 protected:
  bool ValidateEmbeddedModule(uint32_t string_offset, std::string_view text) override;

 private:
  friend class DumpFormReader;

  // --- Modules (module_parser.cc, module_header_parser.cc) ---
  // Resets the per-module state and starts an empty module.
  void BeginModule(uint32_t begin_offset);
  void ReserveFor(size_t text_bytes);
  void ReleaseScratch();
  bool ParseHloModule(bool has_header, ParsedModule* out);
  bool ParseHeaderAttributes();
  bool ParseIntSubAttributes(std::initializer_list<std::string_view> names);
  bool ParseStackFrameIndex();
  bool ParseDebugAttributes();
  bool FinishModule(ParsedModule* out);

  // --- Computations (module_parser.cc) ---
  bool ParseComputation(CompId* entry);
  // `(name shape, ...) -> shape` into signature_scratch_, *result and
  // *result_offset (the result shape's offset).
  bool ParseSignature(ShapeId* result, uint32_t* result_offset);
  // `, execution_thread="..."` and `, backend_config=...` after the body.
  bool ParseComputationAttributes(CompId id);
  // `signature`: the parameter shapes of the computation's signature, kept
  // with its parameters (Computation::lists).
  bool ParseInstructionList(std::string_view name, uint32_t name_offset, bool is_inline,
                            uint32_t begin_offset, std::span<const ShapeId> signature,
                            CompId* out);
  // After an instruction of the list: keeps memory ahead, takes what the
  // other thread parsed from here on.
  [[gnu::always_inline]] inline
  bool AfterListInstruction(CompId id, size_t scope, InstrId* root, uint32_t* root_offset);
  // The end of a computation's list: its root, parameters and order.
  bool FinishInstructionList(CompId id, size_t scope, InstrId root, uint32_t end,
                             std::span<const ShapeId> signature);
  void ReserveEntryScope(uint32_t entry_offset);
  // Makes room for the lists of scope depth `scope` (0: a top-level
  // computation's).
  void EnsureScopeStorage(size_t scope);

  // --- Instructions (instruction_parser.cc) ---
  // The steps of one instruction are functions of their own for reading,
  // always inlined: the split must not add calls per instruction.
  bool ParseInstruction(CompId computation, InstrId* root, uint32_t* root_offset);
  // `fast_from` (non-zero) is where the shape starts when the caller has
  // already checked the `=` byte-wise; the lexer then still stands on the name.
  bool ParseInstructionRhs(CompId computation, uint32_t name_offset, uint32_t name_size,
                           bool allow_attributes, InstrId* out, uint32_t fast_from = 0);
  // What the head `shape opcode` of an instruction says.
  struct InstrHead {
    ShapeId shape = kNoShape;
    Opcode opcode = Opcode::kInvalid;
    Opcode wrapped = Opcode::kInvalid;  // the `X` of the async sugar `X-start`
    uint32_t opcode_end = 0;
    bool shape_written = false;
    // Read by the dump-form reader: its operands too when operands_read.
    bool read_byte_wise = false;
    bool operands_read = false;
    int64_t parameter_number = -1;  // `parameter(N)` read up to the ')'
    InstrOffsets at;
  };
  // The head at the current token, or (fast_from non-zero) at fast_from,
  // by the dump-form reader where it can.
  [[gnu::always_inline]] inline
  bool ParseInstructionHead(uint32_t fast_from, InstrScratch& s, InstrHead* head);
  // The opcode's attributes, edited in s.edited_set for the async sugar,
  // conditional and broadcast.
  [[gnu::always_inline]] inline
  const AttrSet* AttributeSetFor(const InstrHead& head, InstrScratch& s);
  // The operands, or the parameter number (*number), or the literal.
  [[gnu::always_inline]] inline
  bool ParseInstructionBody(CompId computation, const InstrHead& head, InstrScratch& s,
                            int64_t* number);
  bool ParseParameterNumber(const InstrHead& head, int64_t* number);
  // The shapes the per-opcode checks see (InstrScratch::operand_shapes);
  // returns the opcode they check (the wrapped one of the async sugar) and
  // its shape in *checked_shape.
  [[gnu::always_inline]] inline
  Opcode SetCheckedOperands(const InstrHead& head, InstrScratch& s, ShapeId* checked_shape);
  // The attributes, the shape when not written, and the per-opcode checks.
  [[gnu::always_inline]] inline
  bool ParseAndCheckAttributes(const InstrHead& head, const AttrSet& set, bool allow_attributes,
                               InstrScratch& s, ShapeId* shape);
  // XLA's SetAndSanitizeName and the parameter replication count.
  [[gnu::always_inline]] inline
  bool CheckNameAndReplication(const NewInstruction& instr, uint32_t name_size,
                               uint32_t written_name_offset, const InstrScratch& s);
  // Files a checked instruction in the IR and its scope.
  [[gnu::always_inline]] inline
  bool AddParsedInstruction(const NewInstruction& instr, InstrScratch& s, uint32_t name_size,
                            int64_t number, uint8_t wrapped_or_kind, uint64_t name_hash,
                            InstrId* out);
  bool ParseOpcode(Opcode* opcode, Opcode* wrapped);
  bool ParseOperands(CompId computation, std::vector<InstrId>* operands,
                     std::vector<uint32_t>* offsets);
  bool ParseOperand(CompId computation, std::vector<InstrId>* operands);
  // `[shape] name ('#' index)*` followed by ',' or ')'; the error of that
  // reading in *error otherwise.
  bool ParsePlainOperand(uint32_t start, std::vector<InstrId>* operands,
                         std::optional<ParseError>* error);
  // `#index` after an operand name, as many as written; an error in *error.
  InstrId ParseCompactIndices(InstrId id, uint32_t name_offset, bool* compact,
                              std::optional<ParseError>* error);
  // Both readings of an operand failed: the error to report, and whether
  // XLA skips the operand instead.
  bool ReportOperandErrors(uint32_t after_plain, TokKind after_plain_kind, bool started,
                           bool added, std::optional<ParseError> plain_error);
  // The get-tuple-element `%tuple#index` stands for, made once per scope;
  // its text is [name_offset, end_offset).
  InstrId CompactGte(InstrId tuple, int64_t index, uint32_t name_offset, uint32_t end_offset);
  // Whether a declared operand shape is compatible with the shape XLA's
  // instruction `id` has (see instruction_parser.cc).
  bool CompatibleWithBuiltShape(const Shape& declared, InstrId id) const;
  InstrId FindName(std::string_view name) const;
  // FindName, the scope's last instruction first: operands most often
  // name the instruction right before, compared without hashing (the
  // scope's last entry is in its name table unless it is anonymous).
  InstrId FindOperandName(std::string_view name) const {
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
  // `name_size`, `number` and `wrapped_or_kind` (a fusion's FusionKind, an
  // async op's wrapped opcode) go into the record or its header words.
  InstrId AddInstruction(const NewInstruction& instruction, InstrScratch& scratch,
                         uint32_t name_size, int64_t number,
                         uint8_t wrapped_or_kind = static_cast<uint8_t>(Opcode::kInvalid));
  // The called computations of the instruction, in XLA's order.
  template <typename Fn>
  [[gnu::always_inline]] static inline
  void ForEachCalled(Opcode opcode, const InstrScratch& s, Fn&& fn);
  // The lists after the header words: operands, attributes, called
  // computations, control predecessors.
  [[gnu::always_inline]] inline
  void AppendInstructionLists(Instruction& in, InstrScratch& s, uint32_t called_count,
                              uint8_t wrapped_or_kind);
  // Whether instruction `id` is named `name`, whose full hash is `hash`.
  // The 64-bit hashes kept per instruction are compared first, so the text
  // of a definition far behind is read only for the name it really is: the
  // parser has released that text (TextReleaser), and reading one byte of it
  // maps its whole folio back in, and 32-bit slot-hash collisions are
  // frequent in a computation of millions of instructions.
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
  // Whether an instruction here has the name of `half`'s instruction `f`.
  auto NamedAsIn(const ModuleParser& half, InstrId f) const {
    const Instruction& in = half.builder_->instructions()[f];
    return NamedAs(half.module_->text(in.name_offset, half.module_->NameSize(in)),
                   half.builder_->name_hashes()[f]);
  }
  // Reports a name defined twice in scope `scope`.
  bool NameClashError(size_t scope, ScopeNameTable::Clash clash);
  // Makes the queued inserts of scope `scope`; false (and the error) if a
  // name was defined twice.
  bool FlushNames(size_t scope);
  // After an error in scope `scope`: a name clash among its queued inserts
  // comes first in the text, and is reported instead. Returns false.
  bool FailWithQueuedClash(size_t scope);
  InstrScratch& ScratchAt(size_t level) {
    if (level >= scratch_.size()) [[unlikely]] GrowScratch(level);
    InstrScratch& s = *scratch_[level];
    s.Reset();
    return s;
  }
  void GrowScratch(size_t level);

  // --- Attributes (attribute_parser.cc) ---
  bool ParseAttributes(const AttrSet& set, bool allow_attributes, InstrScratch& scratch,
                       uint32_t opcode_offset);
  // `known` is the name of the current token when the caller has matched it.
  bool ParseAttribute(const AttrSet& set, std::bitset<kAttrNameCount>& seen, InstrScratch& scratch,
                      AttrName known = AttrName::kUnknown);
  bool UnexpectedAttribute(const AttrSet& set, AttrName name, std::string_view text,
                           uint32_t name_offset);
  bool ParseAttributeValue(AttrName name, AttrType type, uint32_t name_offset, InstrScratch& scratch);
  // ParseAttributeValue's cases by kind: scalars, strings and lists; the
  // computations and instructions it refers to; enumerations; structured
  // values.
  bool ParseScalarOrListValue(AttrName name, AttrType type, uint32_t name_offset,
                              InstrScratch& s);
  bool ParseReferenceValue(AttrName name, AttrType type, InstrScratch& s);
  bool ParseEnumValue(AttrName name, AttrType type, InstrScratch& s);
  bool ParseStructuredValue(AttrType type, uint32_t name_offset, InstrScratch& s);
  bool ParseInstructionNameList(InstrScratch& s);
  bool ParseShardingValue();
  bool ParseReplicaGroupsValue();
  // Marks `attribute` name_apart when its name does not end right before
  // `=value`, and keeps where it is.
  static void NoteAttributeName(Attribute& attribute, uint32_t name_offset, InstrScratch& s) {
    if (attribute.value_offset - name_offset == AttrNameSize(attribute.name) + 1) [[likely]] return;
    attribute.name_apart = 1;
    s.apart_names.emplace_back(attribute.name, name_offset);
  }
  // Sets attribute.value_key from the value text ending at `end` (default:
  // the value just read; HasValueKey holds).
  void KeyValueText(Attribute& attribute);
  void KeyValueText(Attribute& attribute, uint32_t end);
  bool ParseComputationRef(CompId* out);
  bool ParseComputationList(std::vector<CompId>* out);
  // The computation `name` refers to, or CopyingNameTable::kNotFound.
  CompId LookupComputation(std::string_view name) {
    return names_.FindComputation(name, computation_names_);
  }

  // --- XLA's checks (instruction_checks.cc) ---
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
  // CheckInstruction's larger cases.
  bool CheckOperandCount(Opcode op, const Shape& result,
                                                       const InstrScratch& s,
                                                       const InstrOffsets& at);
  bool CheckChannelDone(const InstrScratch& s, const InstrOffsets& at);
  bool CheckDynamicSliceOperandCount(Opcode op, const InstrScratch& s, const InstrOffsets& at);
  bool CheckCustomCall(InstrScratch& s);
  bool CheckScan(InstrScratch& scratch, const InstrOffsets& at);
  // The shape of an instruction written without one. Where XLA's shape
  // inference fails on known operand shapes, sets `error` to its message.
  class InferenceOperands;
  ShapeId InferShape(Opcode opcode, const InstrScratch& scratch, std::string* error);
  ShapeId InferWhileShape(const InstrScratch& s, std::string* error);
  ShapeId InferTransposeShape(const InstrScratch& s, std::string* error);
  // Whether XLA's instruction `id` has the shape the IR has for it.
  bool HasTrustedShape(InstrId id) const;
  std::optional<int64_t> IntAttribute(InstrId id, AttrName name);
  std::string_view StringAttribute(InstrId id, AttrName name);
  // A check needs what a name not known yet stands for (NameResolver):
  // the fragment is given up, and the first thread parses its text.
  bool NotKnownYet(uint32_t offset);

  // --- Directive markers in comments ---
  // The markers in the comments the lexer skipped
  // (Lexer::CollectDirectiveMarkers) from markers_from_ on, until the
  // file takes them: a fragment's at its merge, the first thread's before
  // the text they are in is released, at the end of each module and
  // before a jump over text not lexed. The file never searches lexed text.
  DirectiveMarkerSink lexed_markers_;
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

  // --- One module on two threads (parallel_parse.cc, parallel_merge.cc) ---
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
  // TakeContinuation's steps: the ids here of the continuation's
  // instructions (its stubs the ones they stand for; false when one does
  // not match); its names into this scope's table (false, and undone, when
  // a name is defined on both sides); the copy of its instructions.
  bool MapContinuationIds(const ModuleParser& half, std::vector<InstrId>* id_to) const;
  bool InsertContinuationNames(const ModuleParser& half, const std::vector<InstrId>& id_to);
  void AppendContinuation(ModuleParser& half, CompId computation,
                          const std::vector<InstrId>& id_to,
                          const std::vector<CompId>& external_to);
  // In a continuation: an instruction defined before the cut, named by an
  // operand with a declared shape; the merge puts the real one in its place.
  // kNoId (and the fragment given up) without a declared shape.
  InstrId OperandStub(std::string_view name, uint32_t name_offset, ShapeId declared);
  // Merges one fragment that starts at the current token, or returns false
  // having changed nothing.
  bool TakeFragment(ModuleParser& half, CompId* entry);
  // After either merge: reads on past the merged text.
  void ResumeAfterMerge(const ModuleParser& half);
  // What any merge of `half` needs: the computations it calls that this
  // module defines (into `external_to`), no computation defined on both
  // sides, room for its value keys, shapes and computations.
  bool CanMerge(const ModuleParser& half, std::vector<CompId>* external_to) const;
  // Interns `half`'s shapes and value keys here, in the order the fragment
  // met them, and gives each one's id here.
  void MergeShapesAndKeys(const ModuleParser& half, std::vector<ShapeId>* shape_to,
                          std::vector<uint32_t>* key_to);
  // This parser parses a fragment on the other thread.
  bool fragment_ = false;
  const std::atomic<bool>* cancel_ = nullptr;
  CompId fragment_entry_ = kNoId;
  uint32_t fragment_end_ = 0;   // the token after the fragment
  uint32_t fragment_stop_ = 0;  // where the fragment's chunk ends; 0: the file's end
  uint32_t merged_fragments_ = 0;  // in this module
  // A continuation fragment's ROOT.
  InstrId continuation_root_ = kNoId;
  uint32_t continuation_root_offset_ = 0;
  // The parse on two threads of the module being parsed, if any.
  ParallelParse* parallel_ = nullptr;

  // --- State ---
  const AttrSet* const attr_sets_ = AttrSetTable(limits_.xla);
  std::unique_ptr<Module> module_;
  std::unique_ptr<Module::Builder> builder_;
  NameResolver names_;
  DumpFormReader dump_forms_{*this};
  ReadAhead read_ahead_;
  size_t previous_module_bytes_ = SIZE_MAX;
  // Per open computation (inline computations nest): names, text order,
  // parameters seen, compact get-tuple-element cache. Kept and cleared
  // rather than destroyed, so parsing thousands of small computations does
  // not allocate a map for each.
  std::vector<ScopeNameTable> scopes_;
  std::vector<std::vector<InstrId>> scope_order_;
  std::vector<std::vector<std::pair<int64_t, InstrId>>> parameter_scopes_;
  std::vector<ParameterNumbers> parameter_numbers_;
  std::vector<absl::flat_hash_map<uint64_t, InstrId>> gte_cache_;
  size_t scope_depth_ = 0;
  // After a name clash: the instruction and computation counts of the
  // module as the parse would have left them had it stopped there.
  std::optional<std::pair<uint32_t, uint32_t>> stopped_at_;
  // The async-start of every async instruction's chain.
  absl::flat_hash_map<InstrId, InstrId> async_start_of_;
  // Scratch for a computation's lists before they are stored in the module.
  std::vector<ShapeId> signature_scratch_;
  std::vector<InstrId> parameters_scratch_;
  CopyingNameTable computation_names_;  // lookups do not touch the source text
  CopyingNameTable value_keys_;         // value text -> Attribute::value_key
  uint32_t value_key_count_ = 0;
  // Releases the parsed text behind the parser (large files; one module).
  std::optional<TextReleaser> parsed_text_;
  // Instructions whose user lists are laid out together (FinishUsers): a
  // batch whose records and lists stay in the cache meanwhile.
  static constexpr uint32_t kFinishUsersBatch = 4096;
  // Copies its shapes' text: a shape first written far behind would map
  // released text back in on every lookup that reaches the table.
  CopyingNameTable module_shape_cache_;
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
  ReplicaGroups replica_scratch_;
};

}  // namespace hlolint
