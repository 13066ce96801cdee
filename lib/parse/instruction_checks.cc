// The per-opcode checks of XLA's HloParserImpl::CreateInstruction (operand
// counts, operand-dependent attributes, async chains, custom-call layout
// constraints, ...) and the shape inference the parser needs for operands
// written without shapes.
#include <algorithm>

#include "parse/module_parser.h"
#include "util/strings.h"

namespace hlolint {
namespace {

bool IsChannelInstruction(Opcode op) {
  switch (op) {
    case Opcode::kSend: case Opcode::kSendDone: case Opcode::kRecv: case Opcode::kRecvDone:
    case Opcode::kAllGather: case Opcode::kAllGatherStart: case Opcode::kAllReduce:
    case Opcode::kAllReduceStart: case Opcode::kReduceScatter: case Opcode::kAllToAll:
    case Opcode::kRaggedAllToAll: case Opcode::kCollectiveBroadcast:
    case Opcode::kCollectivePermute: case Opcode::kCollectivePermuteStart:
    case Opcode::kCollectiveReduce:
      return true;
    default:
      return false;
  }
}

}  // namespace

uint32_t ModuleParser::FirstOperandOffset(const InstrScratch& s, const InstrOffsets& at) const {
  return s.operand_offsets.empty() || s.virtual_operands ? at.operands : s.operand_offsets[0];
}

bool ModuleParser::CheckAsyncStructure(Opcode op, Opcode wrapped, ShapeId shape_id,
                                       InstrScratch& s, const InstrOffsets& at) {
  const Shape& result = shape(shape_id);
  if (op == Opcode::kAsyncStart || op == Opcode::kAsyncUpdate) {
    if (!result.IsTuple() || result.tuple_shapes.size() < 2 || !result.tuple_shapes[0]->IsTuple()) {
      return Error(at.shape,
                   "AsyncStart and AsyncUpdate expect the shape to be in the form of "
                   "((operand0_shape, operand1_shape, ...), output_shape, ...).");
    }
  }
  if (op == Opcode::kAsyncStart) return true;
  // Before openxla/xla@2b869c6e8344 (2026-07-03, "Support variadic
  // async-update") CreateInstruction required exactly one operand:
  //   if (operands.size() != 1) { TokenError("AsyncUpdate and AsyncDone
  //   expect a single async op as their operand."); ... }
  const bool variadic = limits_.xla.Has(XlaChange::kVariadicAsyncUpdate);
  if (!variadic && s.operands.size() != 1) {
    return Error(at.operands, "AsyncUpdate and AsyncDone expect a single async op as their operand.");
  }
  if (s.operands.empty()) {
    return Error(at.operands, "No operand found for AsyncUpdate and AsyncDone");
  }
  const InstrId chain = s.operands[0];
  if (names_.InstructionNotKnownYet(chain)) return NotKnownYet(at.operands);
  const Opcode chain_op = module_->opcode(chain);
  if (!IsAsyncOpcode(chain_op)) {
    return Error(s.operand_offsets[0],
                 StrCat("AsyncUpdate and AsyncDone expect an asynchronous operation as their "
                        "first operand, but ",
                        module_->name(chain), " is ", OpcodeName(chain_op)));
  }
  if (chain_op == Opcode::kAsyncDone) {
    return Error(s.operand_offsets[0],
                 "AsyncDone cannot be the first operand of an AsyncUpdate or AsyncDone.");
  }
  // Also removed by 2b869c6e8344: "For AsyncUpdate, the operand and the
  // result should have the same shape." (`operands[0]->shape() != *shape`,
  // layout-sensitive; unwritten layouts are the default ones).
  if (!variadic && op == Opcode::kAsyncUpdate && module_->has_known_shape(chain) &&
      !ShapesEqual(result, module_->shape(chain))) {
    return Error(at.operands, "AsyncUpdate expects the op shape to be the same as the operand shape.");
  }
  const Opcode chain_wrapped = module_->async_wrapped_opcode(chain);
  if (wrapped != Opcode::kInvalid && chain_wrapped != wrapped) {
    return Error(at.opcode, StrCat("Expect async wrapped opcode to be ",
                                   OpcodeName(chain_wrapped), ", but got ", OpcodeName(wrapped)));
  }
  // Inherit the chain's wrapped opcode, as XLA does.
  s.inherited_wrapped = chain_wrapped;
  return true;
}

bool ModuleParser::CheckAsyncAttributes(InstrScratch& s, const InstrOffsets& at) {
  const InstrId chain = s.operands[0];
  if (names_.InstructionNotKnownYet(chain)) return NotKnownYet(at.opcode);
  const InstrId start = async_start_of_[chain];
  const Instruction& start_instr = module_->instr(start);
  // The chain's computation: written on a non-sugar async-start with calls=.
  std::span<const CompId> chain_called = module_->called(chain);
  if (!(start_instr.flags & Instruction::kAsyncSugar) && !chain_called.empty()) {
    if (!s.called.empty() && s.called[0] != chain_called[0]) {
      if (names_.ComputationNotKnownYet(s.called[0]) ||
          names_.ComputationNotKnownYet(chain_called[0])) {
        return NotKnownYet(at.opcode);
      }
      return Error(at.opcode, StrCat("Expect async_wrapped_computation to be ",
                                     module_->computation_name(chain_called[0]), ", but got ",
                                     module_->computation_name(s.called[0])));
    }
    if (s.called.empty()) s.called.push_back(chain_called[0]);
  }
  if (s.has_async_thread) {
    std::string_view chain_thread = StringAttribute(start, AttrName::kAsyncExecutionThread);
    if (chain_thread.empty()) chain_thread = "main";
    if (chain_thread != s.async_thread) {
      return Error(at.opcode, StrCat("Expect async_execution_thread to be ", chain_thread,
                                     ", but got ", s.async_thread));
    }
  }
  return true;
}

bool ModuleParser::CheckOperandsBeforeAttributes(Opcode op, const InstrScratch& s, AttrSet& set,
                                                 const InstrOffsets& at) {
  const auto& shapes = s.operand_shapes;
  if (op == Opcode::kBroadcast && !shapes.empty() && shapes[0]->IsScalar()) {
    set.Require(AttrName::kDimensions, false);
  }
  if (op != Opcode::kConditional) return true;
  // The branch index decides which computations are expected.
  if (shapes.empty()) return Error(at.operands, "conditional requires at least one operand");
  const Shape& index = *shapes[0];
  if (index.element_type == PrimitiveType::kInvalid) {
    // Shape unknown to hlolint: accept either form.
    set.Allow(AttrName::kTrueComputation, AttrType::kComputation);
    set.Allow(AttrName::kFalseComputation, AttrType::kComputation);
    set.Allow(AttrName::kBranchComputations, AttrType::kComputationList);
    return true;
  }
  if (!index.IsScalar()) {
    return Error(FirstOperandOffset(s, at), StrCat("The first operand must be a scalar, but has "
                                                   "shape ",
                                                   ShapeToString(index, false)));
  }
  if (index.element_type == PrimitiveType::kPred) {
    set.Allow(AttrName::kTrueComputation, AttrType::kComputation, true);
    set.Allow(AttrName::kFalseComputation, AttrType::kComputation, true);
  } else if (index.element_type == PrimitiveType::kS32) {
    set.Allow(AttrName::kBranchComputations, AttrType::kComputationList, true);
  } else {
    return Error(FirstOperandOffset(s, at),
                 StrCat("The first operand must be a scalar of PRED or S32, but has shape ",
                        ShapeToString(index, false)));
  }
  return true;
}

bool ModuleParser::CheckInstruction(Opcode op, ShapeId shape_id, InstrScratch& s,
                                    const InstrOffsets& at) {
  const auto& shapes = s.operand_shapes;
  const size_t count = shapes.size();
  const Shape& result = shape(shape_id);
  const bool known = result.element_type != PrimitiveType::kInvalid;
  auto count_error = [&](std::string message) { return Error(at.operands, std::move(message)); };
  auto one_dimension = [&]() {
    if (s.dimensions_size >= 0 && s.dimensions_size != 1) {
      return Error(s.dimensions_offset,
                   StrCat("expects exactly one dimension in 'dimensions', but sees ",
                          s.dimensions_size));
    }
    return true;
  };
  switch (op) {
    case Opcode::kAllGather: case Opcode::kAllGatherStart: case Opcode::kReduceScatter:
    case Opcode::kSort: case Opcode::kConcatenate: case Opcode::kGetDimensionSize:
    case Opcode::kSetDimensionSize: case Opcode::kAllToAll: case Opcode::kRaggedAllToAll:
      if (!one_dimension()) return false;
      break;
    default:
      break;
  }
  switch (op) {
    case Opcode::kAllReduce: case Opcode::kAllReduceStart: case Opcode::kReduceScatter:
      if (!s.has_mode && s.use_global_device_ids && !s.has_channel_id) {
        return Error(at.operands, "Cannot have use_global_device_ids=true without channel_id");
      }
      break;
    case Opcode::kCollectivePermute: case Opcode::kCollectivePermuteStart:
      if (s.has_slice_sizes && count != 4) {
        return count_error(
            StrCat("CollectivePermute and CollectivePermuteStart must have exactly four "
                   "operands for dynamic-slice and in-place update, but has ",
                   count));
      }
      break;
    case Opcode::kReduceWindow: case Opcode::kReduce: case Opcode::kScatter:
    case Opcode::kDynamicReshape: case Opcode::kDynamicSlice: case Opcode::kDynamicUpdateSlice:
    case Opcode::kTuple: case Opcode::kDot: case Opcode::kRaggedDot: case Opcode::kScaledDot:
    case Opcode::kConditional:
      return CheckOperandCount(op, result, s, at);
    case Opcode::kRecv:
      if (known && (!result.IsTuple() || result.tuple_shapes.empty())) {
        return Error(at.shape, "recv must have a non-empty tuple shape");
      }
      break;
    case Opcode::kRecvDone: case Opcode::kSendDone:
      if (!s.virtual_operands && !CheckChannelDone(s, at)) return false;
      break;
    case Opcode::kInfeed:
      if (known && (!result.IsTuple() || result.tuple_shapes.empty())) {
        return Error(at.shape, "infeed must have a non-empty tuple shape");
      }
      break;
    case Opcode::kCustomCall:
      if (!CheckCustomCall(s)) return false;
      break;
    case Opcode::kScan:
      return CheckScan(s, at);
    case Opcode::kSend:
      // CreateSend builds (data, u32[], token[]) with ShapeUtil::MakeTupleShape,
      // which validates the data shape as a tuple element (and CHECK-fails).
      if (!s.operand_shapes.empty() && !s.virtual_operands &&
          !ValidateElementShape(*s.operand_shapes[0], FirstOperandOffset(s, at))) {
        return false;
      }
      break;
    case Opcode::kMap:
      // XLA dereferences the absent dimensions to infer the shape.
      if (!s.shape_written && s.dimensions_size < 0) {
        return Error(at.opcode, "map without a result shape needs 'dimensions'");
      }
      break;
    default:
      break;
  }
  return true;
}

// The operand counts XLA checks for opcodes whose count depends on the
// operands or attributes.
bool ModuleParser::CheckOperandCount(Opcode op, const Shape& result, const InstrScratch& s,
                                     const InstrOffsets& at) {
  const size_t count = s.operand_shapes.size();
  auto count_error = [&](std::string message) { return Error(at.operands, std::move(message)); };
  switch (op) {
    case Opcode::kReduceWindow:
      if (count == 0) return count_error("reduce-window expects at least one input and init operand");
      [[fallthrough]];
    case Opcode::kReduce:
      if (count % 2) {
        return count_error(StrCat("expects an even number of operands, but has ", count,
                                  " operands"));
      }
      break;
    case Opcode::kScatter:
      if (count % 2 == 0) {
        return count_error(StrCat("expects an odd number of operands, but has ", count,
                                  " operands"));
      }
      break;
    case Opcode::kDynamicReshape:
      if (count == 0) return count_error("DynamicReshape requires at least one operand.");
      break;
    case Opcode::kDynamicSlice: case Opcode::kDynamicUpdateSlice:
      if (!CheckDynamicSliceOperandCount(op, s, at)) return false;
      break;
    case Opcode::kTuple:
      if (s.shape_written) {
        const size_t want = result.IsTuple() ? result.tuple_shapes.size() : 0;
        if (count != want) {
          return count_error(StrCat("expects ", want, " operands, but has ", count, " operands"));
        }
      }
      break;
    case Opcode::kDot:
      // XLA reads operands 0 and 1 unchecked and drops any extra ones.
      if (count < 2) {
        return count_error(StrCat("expects 2 operands, but has ", count, " operands"));
      }
      break;
    case Opcode::kRaggedDot:
      if (count != 3) {
        return count_error(StrCat("expects 3 operands, but has ", count, " operands"));
      }
      break;
    case Opcode::kScaledDot:
      if (count != 4 && count != 6) {
        return count_error(StrCat("expects 4 or 6 operands, but has ", count, " operands"));
      }
      break;
    case Opcode::kConditional: {
      const size_t branches = s.has_branches ? s.branches.size()
                              : (s.slot_true != kNoId) + (s.slot_false != kNoId);
      if (branches == 0 || count != branches + 1) {
        // XLA rejects this without a message.
        return count_error(StrCat("conditional has ", count, " operands and ", branches,
                                  " branch computations; it needs the branch index plus "
                                  "one operand per branch"));
      }
      break;
    }
    default:
      break;
  }
  return true;
}

// The channel of a send-done or recv-done against its operand's.
bool ModuleParser::CheckChannelDone(const InstrScratch& s, const InstrOffsets& at) {
  const InstrId operand = s.operands[0];
  if (names_.InstructionNotKnownYet(operand)) return NotKnownYet(at.opcode);
  if (!IsChannelInstruction(module_->opcode(operand))) return true;
  std::optional<int64_t> operand_channel = IntAttribute(operand, AttrName::kChannelId);
  std::optional<int64_t> channel;
  if (s.has_channel_id) channel = s.channel_id;
  if (channel == operand_channel) return true;
  // XLA rejects this without a message.
  auto text = [](std::optional<int64_t> v) { return v ? StrCat(*v) : std::string("none"); };
  return Error(at.opcode, StrCat("channel_id ", text(channel), " does not match channel_id ",
                                 text(operand_channel), " of operand ", module_->name(operand)));
}

// A dynamic-slice takes the operand and one start index per dimension (or
// a vector of them); a dynamic-update-slice the update too.
bool ModuleParser::CheckDynamicSliceOperandCount(Opcode op, const InstrScratch& s,
                                                 const InstrOffsets& at) {
  const auto& shapes = s.operand_shapes;
  const size_t count = shapes.size();
  const bool update = op == Opcode::kDynamicUpdateSlice;
  if (!update && count == 0) return Error(at.operands, "Expected at least one operand.");
  if (update && count < 2) return Error(at.operands, "Expected at least two operands.");
  const Shape& operand = *shapes[0];
  const size_t leading = update ? 2 : 1;  // the operand (and update) before the indices
  if (operand.element_type == PrimitiveType::kInvalid ||
      (count == leading + 1 && shapes[leading]->rank() == 1) ||
      static_cast<int>(count) == static_cast<int>(leading) + operand.rank()) {
    return true;
  }
  return Error(at.operands,
               StrCat("Wrong number of operands: ", update ? "dynamic-update-slice" : "dynamic-slice",
                      " of a rank-", operand.rank(), " operand takes ",
                      static_cast<int>(leading) + operand.rank(), " operands (or ", leading + 1,
                      " with a vector of start indices), but has ", count));
}

// Operand layout constraints; then the one set of called computations XLA
// keeps: none with layout constraints, else to_apply when given, else
// called_computations.
bool ModuleParser::CheckCustomCall(InstrScratch& s) {
  const size_t count = s.operand_shapes.size();
  if (s.has_layout_constraints) {
    if (count != s.layout_constraints.size()) {
      return Error(s.layout_constraints_offset,
                   StrCat("Expected ", count, " operand layout constraints, ",
                          s.layout_constraints.size(), " given"));
    }
    for (size_t i = 0; i < count; ++i) {
      const Shape& constraint = shape(s.layout_constraints[i]);
      const Shape& operand = *s.operand_shapes[i];
      if (operand.element_type != PrimitiveType::kInvalid && !Compatible(constraint, operand)) {
        return Error(s.layout_constraints_offset,
                     StrCat("Operand layout constraint shape ",
                            ShapeToStringWithDefaultLayout(constraint), " for operand ", i,
                            " is not compatible with operand shape ",
                            ShapeToStringWithDefaultLayout(operand)));
      }
    }
    s.called.clear();
  } else if (s.has_to_apply && s.has_called_computations) {
    s.called.resize(1);
  }
  return true;
}

bool ModuleParser::CheckScan(InstrScratch& s, const InstrOffsets& at) {
  if (s.called.empty()) return true;
  if (names_.ComputationNotKnownYet(s.called[0])) return NotKnownYet(at.opcode);
  const size_t count = s.operand_shapes.size();
  const Computation& body = builder_->computations()[s.called[0]];
  const size_t params = body.parameters().size();
  if (count != params) {
    return Error(at.operands, StrCat("expects ", count,
                                     " operands to match the number of parameters of "
                                     "to_apply, but to_apply has ",
                                     params, " parameters"));
  }
  if (s.dimensions_size != 1) return Error(s.dimensions_offset, "expects exactly one dimension");
  if (static_cast<int64_t>(count) < s.num_carries) {
    return Error(at.operands, StrCat("expects at least ", s.num_carries,
                                     " operands to match the number of carries, but has ",
                                     count, " operands"));
  }
  if (!s.shape_written) {
    const int64_t inputs = static_cast<int64_t>(count) - s.num_carries;
    if (inputs == 0) {
      return Error(at.opcode, "failed to infer shape for opcode: scan, error: Cannot infer "
                              "shape for scan with no inputs");
    }
    const Shape& operand = *s.operand_shapes[0];
    const int64_t dim = s.dimensions[0];
    if (operand.IsArray() && (dim < 0 || dim >= operand.rank())) {
      return Error(s.dimensions_offset, StrCat("scan dimension ", dim,
                                               " is out of range for operand of rank ",
                                               operand.rank()));
    }
  }
  return true;
}

namespace {

// ShapeUtil::SameElementTypeIgnoringFpPrecision.
bool SameElementTypeIgnoringFpPrecision(const Shape& a, const Shape& b) {
  if (IsFloatingPoint(a.element_type) && IsFloatingPoint(b.element_type)) return true;
  return a.element_type == b.element_type;
}

// The checks of ShapeInference::InferElementwiseBinaryOpShape (without
// broadcast_dimensions, as the parser calls it) on two array shapes: the
// element types and the dimensions (equal, one of them 1, or unbounded;
// a lower rank only for a scalar). The result's dimensions, or an error.
bool InferElementwiseBinaryDims(Opcode op, const Shape& lhs, const Shape& rhs, Shape* out,
                                std::string* error) {
  if (!SameElementTypeIgnoringFpPrecision(lhs, rhs)) {
    *error = StrCat("Binary op ", OpcodeName(op), " with different element types: ",
                    ShapeToString(lhs, false), " and ", ShapeToString(rhs, false), ".");
    return false;
  }
  *out = lhs;
  if (PrimitiveTypeBits(rhs.element_type) > PrimitiveTypeBits(lhs.element_type)) {
    out->element_type = rhs.element_type;
  }
  if (lhs.rank() != rhs.rank()) {
    const Shape& smaller = lhs.rank() < rhs.rank() ? lhs : rhs;
    const Shape& larger = lhs.rank() < rhs.rank() ? rhs : lhs;
    if (smaller.rank() != 0) {
      *error = StrCat("Shapes must be equal rank, but are ", ShapeToString(smaller, false),
                      " and ", ShapeToString(larger, false));
      return false;
    }
    out->dimensions = larger.dimensions;
    out->dynamic_dimensions = larger.dynamic_dimensions;
    out->has_layout = false;
    out->layout = Layout();
    return true;
  }
  for (int i = 0; i < lhs.rank(); ++i) {
    const int64_t l = lhs.dimensions[static_cast<size_t>(i)];
    const int64_t r = rhs.dimensions[static_cast<size_t>(i)];
    if (l == 1 || r == 1) {
      out->dimensions[static_cast<size_t>(i)] = l == 1 ? r : l;
    } else if (l != r && l != kUnboundedSize && r != kUnboundedSize) {
      *error = StrCat("Binary op with incompatible shapes: ", ShapeToString(lhs, false), " and ",
                      ShapeToString(rhs, false), ".");
      return false;
    } else if (l == kUnboundedSize) {
      out->dimensions[static_cast<size_t>(i)] = r;
    }
  }
  return true;
}

}  // namespace

// The operands of the instruction whose shape is inferred, as inference
// reads them: a shape is known unless the text left it out and nothing
// inferred it; trusted when XLA's parser would infer from it too.
class ModuleParser::InferenceOperands {
 public:
  InferenceOperands(ModuleParser& parser, const InstrScratch& s)
      : parser_(parser), ops_(s.operands) {}
  const Shape& operand(size_t i) const { return parser_.module_->shape(ops_[i]); }
  bool known(size_t i) const {
    return i < ops_.size() && operand(i).element_type != PrimitiveType::kInvalid;
  }
  bool trusted(size_t i) const { return known(i) && parser_.HasTrustedShape(ops_[i]); }
  // The shape of an instruction whose shape cannot be inferred yet.
  ShapeId unknown() const { return parser_.builder_->shapes().Intern(Shape()); }

 private:
  ModuleParser& parser_;
  const std::vector<InstrId>& ops_;
};

ShapeId ModuleParser::InferShape(Opcode op, const InstrScratch& s, std::string* error) {
  ShapeTable& table = builder_->shapes();
  const InferenceOperands in(*this, s);
  auto with_type = [&](const Shape& base, PrimitiveType type) {
    Shape copy = base;
    copy.element_type = type;
    return table.Intern(copy);
  };
  if (IsElementwiseUnary(op) || op == Opcode::kCopy) {
    if (!in.known(0)) return in.unknown();
    const Shape& x = in.operand(0);
    if (op == Opcode::kIsFinite) return with_type(x, PrimitiveType::kPred);
    if ((op == Opcode::kAbs || op == Opcode::kReal || op == Opcode::kImag) &&
        IsComplex(x.element_type)) {
      return with_type(x, x.element_type == PrimitiveType::kC64 ? PrimitiveType::kF32
                                                                : PrimitiveType::kF64);
    }
    return x.id;
  }
  if (IsElementwiseBinary(op) && op != Opcode::kStochasticConvert && in.trusted(0) && in.trusted(1) &&
      in.operand(0).IsArray() && in.operand(1).IsArray()) {
    Shape result;
    if (!InferElementwiseBinaryDims(op, in.operand(0), in.operand(1), &result, error)) return in.unknown();
    if (op == Opcode::kCompare) result.element_type = PrimitiveType::kPred;
    if (op == Opcode::kComplex) {
      result.element_type = result.element_type == PrimitiveType::kF64 ? PrimitiveType::kC128
                                                                        : PrimitiveType::kC64;
    }
    return table.Intern(result);
  }
  if (IsElementwiseBinary(op)) {
    if (!in.known(0)) return in.unknown();
    const Shape& x = in.operand(0);
    if (op == Opcode::kCompare) return with_type(x, PrimitiveType::kPred);
    if (op == Opcode::kComplex) {
      return with_type(x, x.element_type == PrimitiveType::kF64 ? PrimitiveType::kC128
                                                                : PrimitiveType::kC64);
    }
    return x.id;
  }
  switch (op) {
    case Opcode::kSelect: case Opcode::kClamp:
      return in.known(1) ? in.operand(1).id : in.unknown();
    case Opcode::kTuple: {
      std::vector<ShapeId> elements;
      for (size_t i = 0; i < s.operands.size(); ++i) {
        if (!in.known(i)) return in.unknown();
        elements.push_back(in.operand(i).id);
      }
      return table.MakeTuple(elements);
    }
    case Opcode::kGetTupleElement: {
      if (!in.known(0) || !in.operand(0).IsTuple()) return in.unknown();
      const auto& elements = in.operand(0).tuple_shapes;
      if (s.int_value < 0 || s.int_value >= static_cast<int64_t>(elements.size())) return in.unknown();
      return elements[static_cast<size_t>(s.int_value)]->id;
    }
    case Opcode::kWhile:
      return InferWhileShape(s, error);
    case Opcode::kAddDependency: case Opcode::kOptimizationBarrier:
    case Opcode::kReverse: case Opcode::kDomain:
      return in.known(0) ? in.operand(0).id : in.unknown();
    case Opcode::kAfterAll: {
      Shape token;
      token.element_type = PrimitiveType::kToken;
      return table.Intern(token);
    }
    case Opcode::kPartitionId: case Opcode::kReplicaId:
      return table.MakeArray(PrimitiveType::kU32, {});
    case Opcode::kCall:
      if (!s.called.empty()) {
        if (names_.ComputationNotKnownYet(s.called[0])) {
          NotKnownYet(0);
          return in.unknown();
        }
        const Computation& callee = builder_->computations()[s.called[0]];
        return builder_->instructions()[callee.root].shape;
      }
      return in.unknown();
    case Opcode::kBroadcast: {
      if (!in.known(0)) return in.unknown();
      std::vector<int64_t> dims = s.dimensions;
      for (int64_t d : in.operand(0).dimensions) dims.push_back(d);
      return table.MakeArray(in.operand(0).element_type, dims);
    }
    case Opcode::kTranspose:
      return InferTransposeShape(s, error);
    default:
      return in.unknown();
  }
}

// Whether XLA's instruction has the shape hlolint has for it: written in
// the text (not inferred by hlolint, which infers less than XLA), and not
// one of the opcodes whose Create* builds its own shape from its operands
// (after-all, send, recv, send-done, recv-done; see CompatibleWithBuiltShape).
// Shape inference errors are raised only on such operands.
bool ModuleParser::HasTrustedShape(InstrId id) const {
  if (names_.InstructionNotKnownYet(id)) return false;
  const Instruction& in = builder_->instructions()[id];
  if (!(in.flags & Instruction::kShapeWritten)) return false;
  switch (in.opcode) {
    case Opcode::kAfterAll: case Opcode::kSend: case Opcode::kRecv: case Opcode::kSendDone:
    case Opcode::kRecvDone:
      return false;
    default:
      return true;
  }
}

// ShapeInference::InferWhileShape on the computations' program shapes.
ShapeId ModuleParser::InferWhileShape(const InstrScratch& s, std::string* error) {
  const InferenceOperands in(*this, s);
  if (!in.known(0)) return in.unknown();
  if (s.slot_condition == kNoId || s.slot_body == kNoId) return in.operand(0).id;
  if (names_.ComputationNotKnownYet(s.slot_condition) ||
      names_.ComputationNotKnownYet(s.slot_body)) {
    NotKnownYet(0);
    return in.unknown();
  }
  // ShapeInference::InferWhileShape on the computations' program shapes.
  const Computation& condition = builder_->computations()[s.slot_condition];
  const Computation& body = builder_->computations()[s.slot_body];
  if (condition.parameters().size() != 1) {
    *error = StrCat("Condition must take 1 arguments; got ", condition.parameters().size(), ".");
    return in.unknown();
  }
  if (body.parameters().size() != 1) {
    *error = StrCat("Body must take 1 arguments; got ", body.parameters().size(), ".");
    return in.unknown();
  }
  const InstrId condition_param = condition.parameters()[0];
  const InstrId body_param = body.parameters()[0];
  if (condition_param == kNoId || body_param == kNoId || condition.root == kNoId ||
      body.root == kNoId) {
    return in.operand(0).id;
  }
  auto shape_of = [&](InstrId id) -> const Shape& {
    return shape(builder_->instructions()[id].shape);
  };
  if (!in.trusted(0)) return in.operand(0).id;
  for (InstrId id : {condition_param, body_param, condition.root, body.root}) {
    if (shape_of(id).element_type == PrimitiveType::kInvalid || !HasTrustedShape(id)) {
      return in.operand(0).id;
    }
  }
  auto program = [&](const Computation& c, InstrId param) {
    return StrCat("(", module_->name(param), ": ", ShapeToString(shape_of(param), false),
                  ") -> ", ShapeToString(shape_of(c.root), false));
  };
  auto shapes = [&] {
    return StrCat("Condition: ", program(condition, condition_param),
                  "; body: ", program(body, body_param),
                  "; init: ", ShapeToString(in.operand(0), false), ".");
  };
  const Shape& condition_result = shape_of(condition.root);
  if (!(condition_result.IsArray() && condition_result.rank() == 0 &&
        condition_result.element_type == PrimitiveType::kPred)) {
    *error = StrCat("Condition must return a boolean; got ", shapes(), ".");
    return in.unknown();
  }
  const Shape& body_result = shape_of(body.root);
  if (!Compatible(body_result, shape_of(condition_param)) ||
      !Compatible(body_result, shape_of(body_param)) || !Compatible(body_result, in.operand(0))) {
    *error = StrCat("The parameter of condition and body, the result of the body, and init "
                    "must all have the same shape; got ", shapes(), ".");
    return in.unknown();
  }
  return in.operand(0).id;
}

ShapeId ModuleParser::InferTransposeShape(const InstrScratch& s, std::string* error) {
  ShapeTable& table = builder_->shapes();
  const InferenceOperands in(*this, s);
  if (!in.known(0)) return in.unknown();
  if (in.trusted(0) && in.operand(0).IsArray()) {
    // ShapeInference::InferTransposeShape.
    std::vector<bool> seen(s.dimensions.size(), false);
    bool permutation = static_cast<int64_t>(s.dimensions.size()) == in.operand(0).rank();
    for (int64_t d : s.dimensions) {
      if (!permutation) break;
      permutation = d >= 0 && d < static_cast<int64_t>(seen.size()) &&
                    !seen[static_cast<size_t>(d)];
      if (permutation) seen[static_cast<size_t>(d)] = true;
    }
    if (!permutation) {
      *error = StrCat("Transpose dimensions [", StrJoin(s.dimensions, ","),
                      "] are not a permutation of the operand dimensions (operand shape is ",
                      ShapeToString(in.operand(0), false), ").");
      return in.unknown();
    }
  }
  std::vector<int64_t> dims;
  for (int64_t d : s.dimensions) {
    if (d < 0 || d >= in.operand(0).rank()) return in.unknown();
    dims.push_back(in.operand(0).dimensions[static_cast<size_t>(d)]);
  }
  return table.MakeArray(in.operand(0).element_type, dims);
}

std::optional<int64_t> ModuleParser::IntAttribute(InstrId id, AttrName name) {
  const Attribute* attribute = module_->FindAttribute(id, name);
  if (attribute == nullptr) return std::nullopt;
  Lexer lexer(file_.data(), file_.size(), attribute->value_offset);
  if (lexer.Lex() != TokKind::kInt) return std::nullopt;
  return lexer.tok().int_value;
}

std::string_view ModuleParser::StringAttribute(InstrId id, AttrName name) {
  const Attribute* attribute = module_->FindAttribute(id, name);
  if (attribute == nullptr) return {};
  Lexer lexer(file_.data(), file_.size(), attribute->value_offset);
  if (lexer.Lex() != TokKind::kString) return {};
  return lexer.tok().text;
}

}  // namespace hlolint

namespace hlolint {

bool ModuleParser::NotKnownYet(uint32_t offset) {
  names_.GiveUp();
  return Error(offset, "needs a computation of the module's first half");
}

}  // namespace hlolint
