// Operands: names of instructions defined before, `%tuple#index`, and
// nested instructions, read the way XLA's ParseOperands reads them.
#include <algorithm>

#include "parse/module_parser.h"
#include "util/strings.h"

namespace hlolint {

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
  std::optional<ParseError> plain_error;
  if (ParsePlainOperand(start, operands, &plain_error)) return true;
  // A nested instruction such as add(x, multiply(y, z)).
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
  const size_t scope_depth_before = scope_depth_;
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
  const bool added = builder_->instructions().size() != instructions_before ||
                     builder_->computations().size() != computations_before ||
                     scope_depth_ != scope_depth_before;
  return ReportOperandErrors(after_plain, after_plain_kind, started, added, plain_error);
}

bool ModuleParser::ParsePlainOperand(uint32_t start, std::vector<InstrId>* operands,
                                     std::optional<ParseError>* error) {
  ShapeId declared = kNoShape;
  const bool ok = !CanBeShape() || ParseShape(&declared);
  if (!ok) {
    *error = error_;
    return false;
  }
  if (kind() != TokKind::kIdent && kind() != TokKind::kName) return false;
  std::string_view name = tok().text;
  const uint32_t name_offset = static_cast<uint32_t>(name.data() - file_.data());
  InstrId id = FindName(name);
  Lex();
  // Only a plain operand: `constant(2)` is a nested instruction. In a
  // continuation, a name not defined in it may be defined before it.
  if (id == kNoId && names_.in_continuation() &&
      (kind() == TokKind::kComma || kind() == TokKind::kRparen)) {
    id = OperandStub(name, name_offset, declared);
  }
  if (id == kNoId) {
    *error = ParseError{name_offset, StrCat("instruction does not exist: ", name)};
    return false;
  }
  bool compact = false;
  id = ParseCompactIndices(id, name_offset, &compact, error);
  if (*error) return false;
  if (declared != kNoShape && module_->has_known_shape(id) &&
      !CompatibleWithBuiltShape(shape(declared), id)) {
    *error = ParseError{
        start, compact ? StrCat("operand shape ", ShapeToString(shape(declared), false),
                                " does not match instruction shape ",
                                ShapeToString(module_->shape(id), false))
                       : StrCat("The declared operand shape ",
                                ShapeToStringWithDefaultLayout(shape(declared)),
                                " is not compatible with the shape of the operand "
                                "instruction ",
                                ShapeToStringWithDefaultLayout(module_->shape(id)), ".")};
    return false;
  }
  if (kind() != TokKind::kComma && kind() != TokKind::kRparen) return false;
  operands->push_back(id);
  return true;
}

InstrId ModuleParser::ParseCompactIndices(InstrId id, uint32_t name_offset, bool* compact,
                                          std::optional<ParseError>* error) {
  while (kind() == TokKind::kOctothorp) {
    *compact = true;
    const uint32_t hash_offset = lexer_.offset();
    Lex();
    const uint32_t index_offset = lexer_.offset();
    if (kind() != TokKind::kInt) {
      *error = ParseError{index_offset, "expects integer"};
      return id;
    }
    const int64_t index = tok().int_value;
    const uint32_t end = lexer_.position();
    Lex();
    const Shape& tuple = module_->shape(id);
    if (index < 0 || index > INT32_MAX) {
      *error = ParseError{index_offset, StrCat("GTE index ", index, " out of bounds for shape: ",
                                               ShapeToString(tuple, false))};
      return id;
    }
    if (module_->has_known_shape(id)) {
      if (!tuple.IsTuple()) {
        *error = ParseError{hash_offset, StrCat("GTE operand must be tuple, but has shape: ",
                                                ShapeToString(tuple, false))};
        return id;
      }
      if (index < 0 || index >= static_cast<int64_t>(tuple.tuple_shapes.size())) {
        *error = ParseError{index_offset, StrCat("GTE index ", index,
                                                 " out of bounds for shape: ",
                                                 ShapeToString(tuple, false))};
        return id;
      }
    }
    id = CompactGte(id, index, name_offset, end);
  }
  return id;
}

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
bool ModuleParser::ReportOperandErrors(uint32_t after_plain, TokKind after_plain_kind,
                                       bool started, bool added,
                                       std::optional<ParseError> plain_error) {
  const bool skip = !names_.gave_up() && (!started || !added) &&
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
  if (names_.InstructionNotKnownYet(tuple)) NotKnownYet(name_offset);
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

}  // namespace hlolint
