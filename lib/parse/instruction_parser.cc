// Instructions: `name = shape opcode(operands), attributes`, with the
// checks XLA makes on each before it is filed in the IR.
#include <algorithm>
#include <cstring>

#include "parse/module_parser.h"
#include "util/strings.h"

namespace hlolint {
namespace {

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

void InstrScratch::Reset() {
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
  // can be read without the lexer (DumpFormReader::TryHead).
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

  // The name goes into the scope's table at the end; fetch its slot now.
  uint64_t name_hash = 0;  // kept in the IR; the name table uses the low 32 bits
  if (name_size != 0) {
    name_hash = StringViewHash()(module_->text(name_offset, name_size));
    scopes_[scope_depth_ - 1].Prefetch(static_cast<uint32_t>(name_hash));
  }
  InstrHead head;
  if (!ParseInstructionHead(fast_from, s, &head)) return false;
  const Opcode opcode = head.opcode;
  NewInstruction instr;
  instr.name_offset = name_offset;
  uint32_t instr_name_size = name_size;
  if (name_size == 0) {
    // Anonymous nested instruction: named after its opcode token.
    instr.name_offset = head.at.opcode;
    instr_name_size = head.opcode_end - head.at.opcode;
    instr.flags |= Instruction::kAnonymous;
  }
  const bool sugar = head.wrapped != Opcode::kInvalid;
  s.shape_written = head.shape_written;
  s.shuffle_mode = opcode == Opcode::kShuffle;
  if (!head.shape_written && !CanInferShape(opcode)) {
    return Error(head.at.opcode, StrCat("cannot infer shape for opcode: ", OpcodeName(opcode)));
  }
  if (head.read_byte_wise || kind() == TokKind::kLparen) nested_started_ = true;
  instr.opcode = opcode;
  // A fusion's FusionKind, or an async op's wrapped opcode (the called word).
  uint8_t wrapped_or_kind = static_cast<uint8_t>(head.wrapped);
  if (sugar) instr.flags |= Instruction::kAsyncSugar;
  if (head.shape_written) instr.flags |= Instruction::kShapeWritten;
  const AttrSet* set = AttributeSetFor(head, s);

  int64_t parameter_number = 0;
  if (!ParseInstructionBody(computation, head, s, &parameter_number)) return false;
  // XLA checks the async structure before the attributes.
  if (IsAsyncOpcode(opcode) && !CheckAsyncStructure(opcode, head.wrapped, head.shape, s, head.at)) {
    return false;
  }
  instr.shape = head.shape;
  if (!ParseAndCheckAttributes(head, *set, allow_attributes, s, &instr.shape)) return false;
  if (opcode == Opcode::kAsyncStart && !sugar && !s.called.empty()) {
    if (names_.ComputationNotKnownYet(s.called[0])) return NotKnownYet(head.at.opcode);
    const Computation& callee = builder_->computations()[s.called[0]];
    wrapped_or_kind = static_cast<uint8_t>(builder_->instructions()[callee.root].opcode);
  } else if (opcode == Opcode::kAsyncUpdate || opcode == Opcode::kAsyncDone) {
    wrapped_or_kind = static_cast<uint8_t>(s.inherited_wrapped);
  }
  const int64_t number = opcode == Opcode::kParameter ? parameter_number : s.int_value;
  if (opcode == Opcode::kFusion) wrapped_or_kind = static_cast<uint8_t>(s.fusion_kind);
  if (s.side_effect) instr.flags |= Instruction::kSideEffectAttr;
  if (!CheckNameAndReplication(instr, instr_name_size, name_offset, s)) return false;
  return AddParsedInstruction(instr, s, instr_name_size, number, wrapped_or_kind, name_hash, out);
}

bool ModuleParser::ParseInstructionHead(uint32_t fast_from, InstrScratch& s, InstrHead* head) {
  DumpFormReader::Head read;
  const bool fast = fast_from != 0 && dump_forms_.TryHead(fast_from, s, &read);
  if (fast_from != 0) {
    lexer_.Reset(fast ? read.resume : fast_from);
    Lex();
  }
  if (fast) {
    head->shape = read.shape;
    head->opcode = read.opcode;
    head->opcode_end = read.opcode_end;
    head->shape_written = true;
    head->read_byte_wise = true;
    head->operands_read = read.operands_read;
    head->parameter_number = read.parameter_number;
    head->at.shape = fast_from;
    head->at.opcode = read.opcode_offset;
    head->at.operands = read.operands_offset;
    return true;
  }
  head->at.shape = lexer_.offset();
  head->shape_written = CanBeShape();
  if (head->shape_written && !ParseShape(&head->shape)) return false;
  head->at.opcode = lexer_.offset();
  head->opcode_end = tok().end;
  if (!ParseOpcode(&head->opcode, &head->wrapped)) return false;
  head->at.operands = lexer_.offset();
  return true;
}

const AttrSet* ModuleParser::AttributeSetFor(const InstrHead& head, InstrScratch& s) {
  const Opcode opcode = head.opcode;
  const bool sugar = head.wrapped != Opcode::kInvalid;
  // The opcode's attribute table, copied only for the few cases that edit it.
  const AttrSet* set = &attr_sets_[static_cast<size_t>(opcode)];
  if (!sugar && opcode != Opcode::kConditional && opcode != Opcode::kBroadcast) return set;
  AttrSet* edited = &s.edited_set;
  *edited = *set;
  if (opcode == Opcode::kAsyncStart && sugar) {
    // Sugar: the wrapped op's attributes are written on the -start line.
    const AttrSet& inner = attr_sets_[static_cast<size_t>(head.wrapped)];
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
  return edited;
}

bool ModuleParser::ParseInstructionBody(CompId computation, const InstrHead& head,
                                        InstrScratch& s, int64_t* number) {
  const Opcode opcode = head.opcode;
  if (head.operands_read || (opcode != Opcode::kParameter && opcode != Opcode::kConstant)) {
    if (!head.operands_read && !ParseOperands(computation, &s.operands, &s.operand_offsets)) {
      return false;
    }
    int expected = ParsedOperandCount(opcode);
    if (expected >= 0 && static_cast<int>(s.operands.size()) != expected) {
      return Error(head.at.operands, StrCat("expects ", expected, " operands, but has ",
                                            s.operands.size(), " operands"));
    }
    return true;
  }
  if (opcode == Opcode::kParameter) return ParseParameterNumber(head, number);
  // `(N)` read byte-wise, or the literal by the grammar.
  if (head.read_byte_wise && dump_forms_.TrySmallScalarConstant(head.shape)) return true;
  if (!ParseToken(TokKind::kLparen, "expects '(' before constant literal")) return false;
  const Shape& constant_shape = shape(head.shape);
  // XLA relays the literal out to this layout, which CHECK-fails on an
  // invalid one.
  std::string problem = LayoutValidationError(constant_shape);
  if (!problem.empty()) return Error(head.at.shape, StrCat("invalid constant shape: ", problem));
  if (!ParseLiteral(constant_shape)) return false;
  return ParseToken(TokKind::kRparen, "expects ')' after constant literal");
}

bool ModuleParser::ParseParameterNumber(const InstrHead& head, int64_t* out) {
  uint32_t number_offset = head.at.operands + 1;
  int64_t number = head.parameter_number;
  if (number < 0) {
    if (!ParseToken(TokKind::kLparen, "expects '(' before parameter number")) return false;
    number_offset = lexer_.offset();
    if (!ParseInt64(&number)) return false;
    if (number < 0) return Error(number_offset, "parameter number must be >= 0");
    if (!ParseToken(TokKind::kRparen, "expects ')' after parameter number")) return false;
  }
  *out = number;
  // A continuation's parameters are the computation's, before the cut.
  if (names_.in_continuation() && scope_depth_ == 1) return NotKnownYet(head.at.operands);
  if (const InstrId other = parameter_numbers_[scope_depth_ - 1].Find(number); other != kNoId) {
    error_note_ = ParseError{builder_->instructions()[other].name_offset,
                             "the other parameter with this number"};
    return Error(number_offset, StrCat("Duplicate parameter number ", number));
  }
  return true;
}

Opcode ModuleParser::SetCheckedOperands(const InstrHead& head, InstrScratch& s,
                                        ShapeId* checked_shape) {
  *checked_shape = head.shape;
  if (head.opcode != Opcode::kAsyncStart || head.wrapped == Opcode::kInvalid) {
    // The shape table directly: the module's pointer array is filled later.
    for (InstrId operand : s.operands) {
      s.operand_shapes.push_back(&shape(builder_->instructions()[operand].shape));
    }
    return head.opcode;
  }
  // The `X-start` sugar: the parameters of the wrapped op, shaped by the
  // elements of shape[0] and padded to X's arity with f32[1] (as XLA's
  // CreateAsyncWrappedComputation does).
  const Shape& start = shape(head.shape);
  *checked_shape = start.tuple_shapes[1]->id;
  const auto& params = start.tuple_shapes[0]->tuple_shapes;
  const size_t count = std::max<size_t>(std::max(OpcodeArity(head.wrapped), 0), params.size());
  s.virtual_operands = true;
  for (size_t i = 0; i < count; ++i) {
    static constexpr int64_t kDummyDims[] = {1};
    s.operand_shapes.push_back(
        i < params.size() ? params[i] : &shape(shapes_->MakeArray(PrimitiveType::kF32, kDummyDims)));
  }
  return head.wrapped;
}

bool ModuleParser::ParseAndCheckAttributes(const InstrHead& head, const AttrSet& set,
                                           bool allow_attributes, InstrScratch& s,
                                           ShapeId* shape_id) {
  ShapeId checked_shape;
  const Opcode checked = SetCheckedOperands(head, s, &checked_shape);
  // Attribute requirements that depend on operands.
  if (&set == &s.edited_set && !CheckOperandsBeforeAttributes(checked, s, s.edited_set, head.at)) {
    return false;
  }
  if (!ParseAttributes(set, allow_attributes, s, head.at.opcode)) return false;
  if (lexer_.previous_end() - head.at.shape > limits_.max_instruction_bytes) {
    return Error(head.at.shape, StrCat("instruction text is longer than the limit of ",
                                       limits_.max_instruction_bytes, " bytes"));
  }
  if (!head.shape_written) {
    // XLA's maybe_infer_shape: "failed to infer shape for opcode: %s, error: %s".
    std::string infer_error;
    *shape_id = InferShape(head.opcode, s, &infer_error);
    if (!infer_error.empty()) {
      return Error(head.at.opcode, StrCat("failed to infer shape for opcode: ",
                                          OpcodeName(head.opcode), ", error: ", infer_error));
    }
    checked_shape = *shape_id;
  }
  if (!CheckInstruction(checked, checked_shape, s, head.at)) return false;
  if (head.opcode == Opcode::kAsyncUpdate || head.opcode == Opcode::kAsyncDone) {
    return CheckAsyncAttributes(s, head.at);
  }
  return true;
}

// The name's view is made where it is used: kept across calls, it is
// spilled in two halves and reloaded whole, a store-forwarding stall.
bool ModuleParser::CheckNameAndReplication(const NewInstruction& instr, uint32_t name_size,
                                           uint32_t written_name_offset, const InstrScratch& s) {
  if (!(instr.flags & Instruction::kAnonymous)) {
    if (const std::string_view name = module_->text(instr.name_offset, name_size);
        NeedsSanitizing(name)) {
      const std::string sanitized = SanitizedName(name);
      return Error(written_name_offset, StrCat("illegal instruction name: ", name,
                                               "; suggest renaming to: ", sanitized));
    }
  }
  if (s.parameter_replication_count >= 0 && module_->shapes().Get(instr.shape).element_type !=
                                                PrimitiveType::kInvalid) {
    const int64_t leaves = LeafCount(shape(instr.shape));
    if (leaves != s.parameter_replication_count) {
      return Error(s.parameter_replication_offset,
                   StrCat("parameter has ", leaves,
                          " leaf buffers, but parameter_replication has ",
                          s.parameter_replication_count, " elements."));
    }
  }
  return true;
}

bool ModuleParser::AddParsedInstruction(const NewInstruction& instr, InstrScratch& s,
                                        uint32_t name_size, int64_t number,
                                        uint8_t wrapped_or_kind, uint64_t name_hash,
                                        InstrId* out) {
  const InstrId id = AddInstruction(instr, s, name_size, number, wrapped_or_kind);
  builder_->name_hashes().push_back(name_hash);
  *out = id;
  if (instr.opcode == Opcode::kParameter) {
    parameter_scopes_[scope_depth_ - 1].emplace_back(number, id);
    parameter_numbers_[scope_depth_ - 1].Add(number, id);
  }
  if (IsAsyncOpcode(instr.opcode)) {
    // Remember the chain's start so update/done checks need no walk.
    async_start_of_[id] = instr.opcode == Opcode::kAsyncStart ? id : async_start_of_[s.operands[0]];
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

template <typename Fn>
void ModuleParser::ForEachCalled(Opcode opcode, const InstrScratch& s, Fn&& fn) {
  auto each = [&](CompId c) {
    if (c != kNoId) fn(c);
  };
  switch (opcode) {
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
}

InstrId ModuleParser::AddInstruction(const NewInstruction& instruction, InstrScratch& s,
                                     uint32_t name_size, int64_t number, uint8_t wrapped_or_kind) {
  auto& instrs = builder_->instructions();
  auto& ids = builder_->ids();
  read_ahead_.InstructionArrays(*builder_);
  const InstrId id = static_cast<InstrId>(instrs.size());
  Instruction& in = instrs.emplace_back();
  in.name_offset = instruction.name_offset;
  in.shape = instruction.shape;
  in.opcode = instruction.opcode;
  in.flags = instruction.flags;

  // Called computations in XLA's order (ParseComputationList keeps them
  // below Instruction::kMaxCalled); counted first, for the header.
  uint32_t called_count = 0;
  if (!s.called.empty() || in.opcode == Opcode::kWhile || in.opcode == Opcode::kConditional ||
      in.opcode == Opcode::kSelectAndScatter) {
    ForEachCalled(in.opcode, s, [&](CompId) { ++called_count; });
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
  AppendInstructionLists(in, s, called_count, wrapped_or_kind);
  scope_order_[scope_depth_ - 1].push_back(id);
  return id;
}

void ModuleParser::AppendInstructionLists(Instruction& in, InstrScratch& s, uint32_t called_count,
                                          uint8_t wrapped_or_kind) {
  auto& ids = builder_->ids();
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
  if (called_count != 0) ForEachCalled(in.opcode, s, [&](CompId c) { ids.push_back(c); });
  // Control predecessors after the other lists until FinishUsers puts the
  // users before them.
  for (InstrId control : s.controls) ids.push_back(control);
  if (in.opcode == Opcode::kFusion ||
      (in.opcode == Opcode::kAsyncStart && (in.flags & Instruction::kAsyncSugar) &&
       static_cast<Opcode>(wrapped_or_kind) == Opcode::kFusion)) {
    for (uint32_t k = 0; k < called_count; ++k) {
      // A fragment's computations not known yet are marked by the merge.
      if (names_.ComputationNotKnownYet(ids[called_begin + k])) continue;
      builder_->computations()[ids[called_begin + k]].is_fusion_computation = true;
    }
  }
}

}  // namespace hlolint
