// The IR of one parsed HLO module.
//
// Storage is flat: instructions, computations and every per-instruction list
// (operands, users, attributes, called computations, control predecessors)
// live in module-wide arrays and are addressed by 32-bit ids and ranges.
// Names and attribute values stay in the source text and are referred to by
// offsets, so building the IR copies no strings.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/attr_name.h"
#include "ir/opcode.h"
#include "ir/shape.h"
#include "source/source_file.h"

namespace hlolint {

using InstrId = uint32_t;
using CompId = uint32_t;
inline constexpr uint32_t kNoId = 0xffffffffu;

enum class FusionKind : uint8_t { kNone, kLoop, kInput, kOutput, kCustom };
std::string_view FusionKindName(FusionKind kind);

// One `name=value` attribute of an instruction. The value is re-read from the
// source on demand (see parse/attributes.h).
struct Attribute {
  static constexpr uint32_t kMaxValueKey = (1u << 23) - 1;

  AttrName name = AttrName::kUnknown;
  // For the attributes HasValueKey names: equal keys within a module mean
  // equal value texts (0: none given). Rules memoize on it without reading
  // text a large file has released. In the bytes after `name`.
  uint32_t value_key : 23 = 0;
  // The name is not right before `=value` (a space or a comment after the
  // '='): Module::attribute_name_offset looks it up instead of computing it.
  uint32_t name_apart : 1 = 0;
  uint32_t value_offset = 0;  // offset of the value's first byte
};
static_assert(sizeof(Attribute) == 8, "an attribute takes 8 bytes in the IR");

// The attributes whose values the parser keys: those the shape checks
// memoize on, and those analyses parse once per distinct value
// (ParsedByText): by key, a repeated value is not read again from text a
// large file has released.
constexpr bool HasValueKey(AttrName name) {
  switch (name) {
    case AttrName::kDimensions: case AttrName::kSlice: case AttrName::kDynamicSliceSizes:
    case AttrName::kPadding: case AttrName::kLhsContractingDims:
    case AttrName::kRhsContractingDims: case AttrName::kLhsBatchDims:
    case AttrName::kRhsBatchDims: case AttrName::kCustomCallTarget:
    case AttrName::kOutputToOperandAliasing: case AttrName::kReplicaGroups:
      return true;
    default:
      return false;
  }
}

struct Instruction {
  enum Flags : uint8_t {
    kIsRoot = 1,           // marked ROOT, or the last instruction when none is
    kShapeWritten = 2,     // the result shape appears in the text
    kAnonymous = 4,        // a nested operand expression such as add(x, mul(y, z))
    kCompactGte = 8,       // created from the compact `%tuple#1` operand form
    kSideEffectAttr = 16,  // custom_call_has_side_effect=true
    kAsyncSugar = 32,      // written as `X-start` / `X-update` / `X-done`
    kHasControl = 64,      // has control predecessors (their count heads the id block)
    kCalledWord = 128,     // calls computations, or is a fusion or async op: see HeaderWords
  };
  // name_size of a name at least this long: the size heads the id block.
  static constexpr uint8_t kLongName = 0xff;
  // operand_count of this many operands or more: the count heads the id block.
  static constexpr uint16_t kLongOperands = 0xffff;
  // user_count of this many users or more: Module::UserCount adds the rest.
  static constexpr uint16_t kLongUsers = 0x7fff;

  // 24 bytes, the bulk of a large module's IR (millions of them in a large
  // dump, so every byte here is megabytes of fresh memory): what few
  // instructions have (a number, called computations, control
  // predecessors, long names and operand lists) heads their block of
  // Module::ids_ instead (HeaderWords). What rules seldom ask is not kept:
  // the computation holding the instruction is looked up by id
  // (Module::parent), the end of its text found again by lexing
  // (LastAttributeValueEnd).
  uint32_t name_offset = 0;  // offset of the name, without '%'
  ShapeId shape = kNoShape;
  // The instruction's lists are one block of Module::ids_: the header words
  // (HeaderWords), then operands, called computations, users, control
  // predecessors. operands_begin is where the operands start.
  uint32_t operands_begin = 0;
  uint32_t attrs_begin = 0;
  uint16_t operand_count = 0;  // kLongOperands: see Module::OperandCount
  uint16_t user_count = 0;     // kLongUsers: see Module::UserCount
  Opcode opcode = Opcode::kInvalid;
  uint8_t name_size = 0;       // kLongName: see Module::NameSize
  uint8_t attr_count = 0;      // at most one per AttrName
  uint8_t flags = 0;

  static constexpr size_t kMaxCalled = 0xffff;

  // parameter(N): N; get-tuple-element: index; iota: iota_dimension. Their
  // number takes two header words.
  static constexpr bool HasNumber(Opcode op) {
    return op == Opcode::kParameter || op == Opcode::kGetTupleElement || op == Opcode::kIota;
  }
  // The header words before operands_begin, in this order: the name's size
  // when long; the number (low, high); the called word (the number of
  // called computations in the low 16 bits; above them a fusion's
  // FusionKind, or for async-start/update/done the opcode of the wrapped
  // instruction); the operand count when long; the control predecessor
  // count. The common ones are found back from the operands.
  uint32_t HeaderWords() const {
    return (name_size == kLongName ? 1u : 0u) + (HasNumber(opcode) ? 2u : 0u) + (flags >> 7) +
           (operand_count == kLongOperands ? 1u : 0u) + ((flags >> 6) & 1u);
  }
  static_assert(kCalledWord == 128 && kHasControl == 64);
  static constexpr uint32_t kCalledCountMask = 0xffff;
  static constexpr uint32_t kWrappedShift = 16;

  // What the header words hold, given where the operands start (`operands`,
  // in Module::ids_ or in an array laid out alike).
  uint32_t ControlCountAt(const uint32_t* operands) const {
    return flags & kHasControl ? operands[-1] : 0;
  }
  uint32_t OperandCountAt(const uint32_t* operands) const {
    if (operand_count != kLongOperands) [[likely]] return operand_count;
    return operands[-1 - static_cast<int>((flags >> 6) & 1u)];
  }
  uint32_t CalledCountAt(const uint32_t* operands) const {
    return flags & kCalledWord ? CalledWordAt(operands) & kCalledCountMask : 0;
  }
  uint8_t WrappedOrKindAt(const uint32_t* operands) const {
    if (!(flags & kCalledWord)) return static_cast<uint8_t>(Opcode::kInvalid);
    return static_cast<uint8_t>(CalledWordAt(operands) >> kWrappedShift);
  }
  // The number's low word (HasNumber).
  const uint32_t* NumberAt(const uint32_t* operands) const {
    return operands - 2 - static_cast<int>(flags >> 7) - TrailingWords();
  }

  bool is_root() const { return flags & kIsRoot; }
  bool has(Flags flag) const { return flags & flag; }

 private:
  // The header words after the called word: the long operand count, the
  // control count.
  int TrailingWords() const {
    return (operand_count == kLongOperands ? 1 : 0) + static_cast<int>((flags >> 6) & 1u);
  }
  uint32_t CalledWordAt(const uint32_t* operands) const {
    return operands[-1 - TrailingWords()];
  }
};
static_assert(sizeof(Instruction) == 24, "an instruction takes 24 bytes in the IR");

// 64 bytes: a large dump has hundreds of thousands of computations (most of
// them small fused ones).
struct Computation {
  uint32_t name_offset = 0;
  uint32_t name_size = 0;
  uint32_t begin_offset = 0;  // `ENTRY` or the name
  uint32_t end_offset = 0;    // one past the closing brace
  InstrId root = kNoId;
  // The instructions in text order (Module::instructions): the first id
  // when they are consecutive ids (consecutive_order), else where their list
  // starts in Module::order_.
  uint32_t order_begin = 0;
  uint32_t order_count = 0;
  // Signature `(p: shape, ...) -> shape`, when written.
  ShapeId signature_result = kNoShape;
  uint32_t signature_offset = 0;
  // Offset of the execution_thread string's contents, 0 when not written
  // (Module::execution_thread).
  uint32_t thread_offset = 0;
  uint32_t parameter_count = 0;
  uint32_t signature_param_count = 0;
  bool is_entry : 1 = false;
  bool is_inline : 1 = false;     // an unnamed `{...}` computation inside an attribute
  bool is_fusion_computation : 1 = false;  // called through a fusion's `calls=`
  bool has_signature : 1 = false;
  bool consecutive_order : 1 = false;  // most are: no list of their own
  // The parameter instructions, then the signature's parameter shapes, in
  // the module's list storage (Module::Builder::StoreLists).
  const uint32_t* lists = nullptr;

  // Parameter instructions indexed by parameter number (kNoId for gaps).
  std::span<const InstrId> parameters() const { return {lists, parameter_count}; }
  std::span<const ShapeId> signature_params() const {
    return {lists + parameter_count, signature_param_count};
  }
};
static_assert(sizeof(Computation) == 64, "a computation takes 64 bytes in the IR");

// A computation's instructions in text order: consecutive ids (no list
// stored, as for most computations) or a list in the module's order array.
class InstrIdList {
 public:
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = InstrId;
    using difference_type = std::ptrdiff_t;
    using pointer = const InstrId*;
    using reference = InstrId;
    Iterator() = default;
    Iterator(const InstrId* list, InstrId at) : list_(list), at_(at) {}
    InstrId operator*() const { return list_ != nullptr ? list_[at_] : at_; }
    Iterator& operator++() {
      ++at_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++at_;
      return before;
    }
    bool operator==(const Iterator& other) const { return at_ == other.at_; }

   private:
    const InstrId* list_ = nullptr;  // null: `at_` is the id itself
    InstrId at_ = 0;
  };

  InstrIdList() = default;
  // `list` null: the ids first, first + 1, ..., first + count - 1.
  InstrIdList(const InstrId* list, InstrId first, uint32_t count)
      : list_(list), first_(first), count_(count) {}

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  InstrId operator[](size_t i) const {
    return list_ != nullptr ? list_[i] : first_ + static_cast<InstrId>(i);
  }
  InstrId front() const { return (*this)[0]; }
  InstrId back() const { return (*this)[count_ - 1]; }
  Iterator begin() const {
    return list_ != nullptr ? Iterator(list_, 0) : Iterator(nullptr, first_);
  }
  Iterator end() const {
    return list_ != nullptr ? Iterator(list_, count_) : Iterator(nullptr, first_ + count_);
  }

 private:
  const InstrId* list_ = nullptr;
  InstrId first_ = 0;
  uint32_t count_ = 0;
};

struct InputOutputAlias {
  ShapeIndex output_index;
  int64_t parameter = 0;
  ShapeIndex parameter_index;
  bool must_alias = false;
  uint32_t offset = 0;  // offset of the entry's output index
};

struct BufferDonor {
  int64_t parameter = 0;
  ShapeIndex parameter_index;
  uint32_t offset = 0;
};

struct ModuleHeader {
  bool present = false;        // an `HloModule` line was written
  uint32_t offset = 0;         // `HloModule`, or the first token of the module
  uint32_t name_offset = 0;
  uint32_t name_size = 0;
  bool is_scheduled = false;
  uint32_t is_scheduled_offset = 0;
  int64_t replica_count = 1;
  int64_t num_partitions = 1;
  uint32_t replica_count_offset = 0;
  uint32_t num_partitions_offset = 0;
  bool alias_passthrough_params = false;
  bool has_entry_layout = false;
  uint32_t entry_layout_offset = 0;
  std::vector<ShapeId> entry_param_layouts;
  ShapeId entry_result_layout = kNoShape;
  std::vector<InputOutputAlias> input_output_alias;
  uint32_t input_output_alias_offset = 0;
  std::vector<BufferDonor> buffer_donors;
  uint32_t buffer_donor_offset = 0;
  uint32_t frontend_attributes_offset = 0;  // 0 when absent
};

class Module {
 public:
  explicit Module(const SourceFile& source) : source_(&source) {}
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  const SourceFile& source() const { return *source_; }
  std::string_view text(uint32_t offset, uint32_t size) const {
    return {source_->data() + offset, size};
  }

  // The module name: the header's, or "module_<entry>" as XLA names
  // header-less modules.
  std::string_view name() const { return name_; }
  const ModuleHeader& header() const { return header_; }
  bool is_scheduled() const { return header_.is_scheduled; }
  // Offsets of the module's text in the file.
  uint32_t begin_offset() const { return begin_offset_; }
  uint32_t end_offset() const { return end_offset_; }

  // --- computations ---
  size_t computation_count() const { return computations_.size(); }
  const Computation& computation(CompId id) const { return computations_[id]; }
  // XLA names inline `{...}` computations (written as attribute values) "_".
  std::string_view computation_name(CompId id) const {
    const Computation& c = computations_[id];
    if (c.is_inline) return "_";
    return text(c.name_offset, c.name_size);
  }
  CompId entry() const { return entry_; }
  // The computation's execution_thread ("main" when not written).
  std::string_view execution_thread(CompId id) const;
  // Instructions of a computation in text order (the schedule when
  // is_scheduled()).
  InstrIdList instructions(CompId id) const {
    const Computation& c = computations_[id];
    if (c.consecutive_order) return {nullptr, c.order_begin, c.order_count};
    return {order_.data() + c.order_begin, 0, c.order_count};
  }

  // --- instructions ---
  size_t instruction_count() const { return instructions_.size(); }
  const Instruction& instr(InstrId id) const { return instructions_[id]; }
  // From a dense byte array once the module is built: rules that pick
  // instructions by opcode then scan 1 byte per instruction, not a record.
  Opcode opcode(InstrId id) const {
    return id < opcodes_.size() ? opcodes_[id] : instructions_[id].opcode;
  }
  // Every instruction's opcode by id, once the module is built (empty before).
  std::span<const Opcode> opcodes() const { return opcodes_; }
  std::string_view name(InstrId id) const {
    const Instruction& i = instructions_[id];
    return text(i.name_offset, NameSize(i));
  }
  uint32_t NameSize(const Instruction& i) const {
    if (i.name_size != Instruction::kLongName) return i.name_size;
    return Header(i)[0];
  }
  // parameter(N): N; get-tuple-element: index; iota: iota_dimension; 0 for
  // other opcodes.
  int64_t number(InstrId id) const {
    const Instruction& i = instructions_[id];
    if (!Instruction::HasNumber(i.opcode)) return 0;
    const uint32_t* words = i.NumberAt(ids_.data() + i.operands_begin);
    return static_cast<int64_t>(uint64_t{words[0]} | (uint64_t{words[1]} << 32));
  }
  // StringViewHash()(name(id)), kept by the parser (0 for anonymous
  // instructions): names compare without reading the text, which a large
  // file has released, except where all 64 bits are equal. (With 32 bits, a
  // module of millions of names has thousands of equal hashes, and reading
  // those names mapped tens of MB of text back in at random.)
  uint64_t name_hash(InstrId id) const { return name_hashes_[id]; }
  const Shape& shape(InstrId id) const { return shapes_.Get(instructions_[id].shape); }
  // False when the shape was omitted and could not be inferred.
  bool has_known_shape(InstrId id) const {
    return shape(id).element_type != PrimitiveType::kInvalid;
  }
  std::span<const InstrId> operands(InstrId id) const {
    const Instruction& i = instructions_[id];
    return {ids_.data() + i.operands_begin, OperandCount(i)};
  }
  InstrId operand(InstrId id, size_t index) const { return operands(id)[index]; }
  uint32_t OperandCount(const Instruction& i) const {
    return i.OperandCountAt(ids_.data() + i.operands_begin);
  }
  // Distinct users, in text order.
  std::span<const InstrId> users(InstrId id) const {
    const Instruction& i = instructions_[id];
    return {ids_.data() + UsersBegin(i), UserCount(id)};
  }
  uint32_t UserCount(InstrId id) const {
    const uint16_t count = instructions_[id].user_count;
    return count != Instruction::kLongUsers ? count : count + MoreUsers(id);
  }
  std::span<const InstrId> control_predecessors(InstrId id) const {
    const Instruction& i = instructions_[id];
    if (!(i.flags & Instruction::kHasControl)) return {};
    return {ids_.data() + UsersBegin(i) + UserCount(id),
            i.ControlCountAt(ids_.data() + i.operands_begin)};
  }
  // Called computations in XLA's order: while {condition, body},
  // conditional branches in order, select-and-scatter {select, scatter}.
  std::span<const CompId> called(InstrId id) const {
    const Instruction& i = instructions_[id];
    return {ids_.data() + CalledBegin(i), CalledCount(i)};
  }
  uint32_t CalledCount(const Instruction& i) const {
    return i.CalledCountAt(ids_.data() + i.operands_begin);
  }
  // Where the instruction's called computations and users start in ids().
  uint32_t CalledBegin(const Instruction& i) const { return i.operands_begin + OperandCount(i); }
  uint32_t UsersBegin(const Instruction& i) const { return CalledBegin(i) + CalledCount(i); }
  // A fusion's kind (kNone for other opcodes).
  FusionKind fusion_kind(InstrId id) const {
    const Instruction& i = instructions_[id];
    return i.opcode == Opcode::kFusion ? static_cast<FusionKind>(WrappedOrKind(i))
                                       : FusionKind::kNone;
  }
  // For async-start/update/done, the opcode of the wrapped instruction (X
  // of the `X-start` sugar, or the root of the `calls=` computation);
  // kInvalid for fusions and where not known.
  Opcode async_wrapped_opcode(InstrId id) const {
    const Instruction& i = instructions_[id];
    return i.opcode == Opcode::kFusion ? Opcode::kInvalid : static_cast<Opcode>(WrappedOrKind(i));
  }
  // The called word's upper bits (Instruction::HeaderWords).
  uint8_t WrappedOrKind(const Instruction& i) const {
    return i.WrappedOrKindAt(ids_.data() + i.operands_begin);
  }
  // The instruction's header words (Instruction::HeaderWords).
  const uint32_t* Header(const Instruction& i) const {
    return ids_.data() + i.operands_begin - i.HeaderWords();
  }
  std::span<const Attribute> attributes(InstrId id) const {
    const Instruction& i = instructions_[id];
    return {attributes_.data() + i.attrs_begin, i.attr_count};
  }
  // Offset of the attribute's name; `a` is one of attributes(). Dumps write
  // `name=value`, so the name is found back from the value's offset.
  uint32_t attribute_name_offset(const Attribute& a) const;
  // Every instruction's attributes, one after the other in id order
  // (instruction id's are [attrs_begin, attrs_begin + attr_count)).
  std::span<const Attribute> all_attributes() const { return attributes_; }
  // Inline: rules ask for one attribute of most instructions they visit.
  const Attribute* FindAttribute(InstrId id, AttrName name) const {
    for (const Attribute& attribute : attributes(id)) {
      if (attribute.name == name) return &attribute;
    }
    return nullptr;
  }
  bool IsRoot(InstrId id) const { return instructions_[id].is_root(); }
  // The instructions without users that are not their computation's ROOT,
  // in id order: few in most modules, and a rule that looks for them reads
  // this list instead of every instruction's record (Builder::FinishUsers).
  std::span<const InstrId> unused_instructions() const { return unused_; }
  // The computation holding the instruction, once the module is built
  // (Builder::BuildParents): a binary search over the runs of consecutive
  // ids, which rules ask for a few instructions only.
  CompId parent(InstrId id) const;

  const ShapeTable& shapes() const { return shapes_; }
  ShapeTable& mutable_shapes() { return shapes_; }

  // Approximate bytes held by the IR (for --statistics and memory checks).
  size_t MemoryBytes() const;

  // --- construction (used by the parser only) ---
  struct Builder;
  friend struct Builder;

 private:
  const SourceFile* source_;
  std::string name_;
  ModuleHeader header_;
  uint32_t begin_offset_ = 0;
  uint32_t end_offset_ = 0;
  CompId entry_ = kNoId;
  std::vector<Computation> computations_;
  std::vector<Instruction> instructions_;
  std::vector<uint64_t> name_hashes_;  // by instruction id
  std::vector<Opcode> opcodes_;  // instructions_[id].opcode, filled by Builder::FinishUsers
  // Per instruction, in id order: header words (Instruction::HeaderWords),
  // operands, called computations (CompIds), users, control predecessors.
  std::vector<uint32_t> ids_;
  std::vector<InstrId> order_;  // the computations without consecutive_order
  // Runs of consecutive instruction ids in one computation, by first id:
  // the run holding id i starts at run_starts_[k], the last one <= i, and
  // lies in run_computations_[k] (kNoId for ids no computation lists).
  std::vector<InstrId> run_starts_;
  std::vector<CompId> run_computations_;
  std::vector<Attribute> attributes_;
  // Users past Instruction::kLongUsers, by instruction id (few: only
  // instructions with that many users), filled by Builder::FinishUsers.
  std::vector<std::pair<InstrId, uint32_t>> more_users_;
  std::vector<InstrId> unused_;  // unused_instructions()
  uint32_t MoreUsers(InstrId id) const;
  // (index in attributes_, name offset) of those with name_apart, by index.
  std::vector<std::pair<uint32_t, uint32_t>> apart_attribute_names_;
  ShapeTable shapes_;
  // Storage of the computations' lists (parameters, signatures): chunks
  // that never move, so the spans stay valid while the module grows, and
  // no computation allocates on its own.
  std::vector<std::unique_ptr<uint32_t[]>> list_chunks_;
  uint32_t* list_free_ = nullptr;
  size_t list_room_ = 0;
  size_t list_capacity_ = 0;
};

// Mutable access for the parser.
struct Module::Builder {
  Module& m;
  std::string& name() { return m.name_; }
  ModuleHeader& header() { return m.header_; }
  uint32_t& begin_offset() { return m.begin_offset_; }
  uint32_t& end_offset() { return m.end_offset_; }
  CompId& entry() { return m.entry_; }
  std::vector<Computation>& computations() { return m.computations_; }
  std::vector<Instruction>& instructions() { return m.instructions_; }
  std::vector<uint64_t>& name_hashes() { return m.name_hashes_; }
  std::vector<InstrId>& ids() { return m.ids_; }
  std::vector<InstrId>& order() { return m.order_; }
  std::vector<Attribute>& attributes() { return m.attributes_; }
  std::vector<std::pair<uint32_t, uint32_t>>& apart_attribute_names() {
    return m.apart_attribute_names_;
  }
  ShapeTable& shapes() { return m.shapes_; }
  // `first` then `second`, copied where they stay for the module's
  // lifetime (a computation's parameters and signature: Computation::lists).
  const uint32_t* StoreLists(std::span<const uint32_t> first, std::span<const uint32_t> second);
  // Takes over the list storage of `other` (whose computations' lists then
  // live here, at the same addresses).
  void AdoptLists(Module& other);
  // Counts the instruction just added as a user of each of its distinct
  // operands, while their records are in cache from resolving them (this
  // spares FinishUsers a pass over every record). A repeated operand is
  // marked by the top bit of its count until the instruction is done.
  void CountUses(std::span<const InstrId> operands) {
    Instruction* instrs = m.instructions_.data();
    if (operands.size() == 1) {
      uint16_t& count = instrs[operands[0]].user_count;
      if (count < Instruction::kLongUsers) [[likely]] {
        ++count;
      } else {
        more_uses.push_back(operands[0]);
      }
      ++counted_users;
      return;
    }
    constexpr uint16_t kCounted = 0x8000;
    static_assert(Instruction::kLongUsers < kCounted);
    for (InstrId op : operands) {
      uint16_t& count = instrs[op].user_count;
      if (count & kCounted) continue;
      if (count < Instruction::kLongUsers) [[likely]] {
        ++count;
      } else {
        more_uses.push_back(op);
      }
      count |= kCounted;
      ++counted_users;
    }
    for (InstrId op : operands) instrs[op].user_count &= ~kCounted;
  }
  // Counts `count` more users of instruction `id` (the two-thread parse's
  // stubs hand theirs to the instructions they stand for).
  void AddUses(InstrId id, uint32_t count) {
    uint16_t& field = m.instructions_[id].user_count;
    const uint32_t inline_room = Instruction::kLongUsers - field;
    const uint32_t inline_part = std::min(count, inline_room);
    field = static_cast<uint16_t>(field + inline_part);
    more_uses.insert(more_uses.end(), count - inline_part, id);
  }
  // One entry per use counted past Instruction::kLongUsers (the instruction
  // used), until FinishUsers sums them into Module::more_users_.
  std::vector<InstrId> more_uses{};
  // Lays out the user lists (counted by CountUses) of the instructions added
  // since the last call after their other lists, fills them, and fills the
  // dense opcode array for them. Call when nothing added later can use
  // them: the parser does between top-level computations (whose
  // instructions only their own use), while their records and lists are
  // still in the cache. Until then their users() are not there.
  void FinishUsers();
  // Instructions [0, finished_instructions) have their user lists, and
  // counted_users was finished_users then.
  uint32_t finished_instructions = 0;
  uint64_t finished_users = 0;
  uint32_t UnfinishedInstructions() const {
    return static_cast<uint32_t>(m.instructions_.size()) - finished_instructions;
  }
  bool AllUsersFinished() const {
    return finished_instructions == m.instructions_.size() && more_uses.empty();
  }
  // Appends `from`'s opcode array, long user counts and unused
  // instructions (a two-thread
  // parse's fragment, whose users are finished, its ids shifted by
  // `instr_base`) and marks everything finished.
  void AdoptFinishedUsers(const Builder& from, InstrId instr_base);
  // The table behind Module::parent, from the computations' instruction
  // lists; after the last computation is added.
  void BuildParents();
  uint64_t counted_users = 0;  // sum of every instruction's user_count

 private:
  // Makes room for the users of instructions [first, end) in their blocks
  // of ids_, which are the last ones, and lists those without users.
  void SpreadLists(InstrId first);
};

}  // namespace hlolint
