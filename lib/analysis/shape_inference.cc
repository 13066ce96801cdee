// Element-wise and shape-manipulating ops (xla/service/shape_inference.cc:
// InferUnaryOpShape, InferBinaryOpShape, InferSliceShape, ...).
#include "analysis/shape_inference.h"

#include <algorithm>

#include "analysis/shape_inference_util.h"

namespace hlolint {

using namespace inference_internal;

namespace inference_internal {

PrimitiveType HigherPrecisionType(PrimitiveType a, PrimitiveType b) {
  if (a == b) return a;
  auto rank = [](PrimitiveType t) {
    const int complex = IsComplex(t) ? 1 : 0;
    const int floating = (IsComplex(t) || IsFloatingPoint(t)) ? 1 : 0;
    return complex * 100000 + floating * 10000 + PrimitiveTypeBits(t) * 10 +
           (IsSignedInteger(t) ? 1 : 0);
  };
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace inference_internal

Shape& ShapeArena::New() {
  if (used_ == pool_.size()) pool_.push_back(std::make_unique<Shape>());
  Shape& shape = *pool_[used_++];
  ResetArray(&shape, PrimitiveType::kInvalid);
  return shape;
}

std::string HumanString(const Shape& shape) { return ShapeToString(shape, false); }

bool HasUnboundedDimension(const Shape& shape) {
  for (const Shape* element : shape.tuple_shapes) {
    if (HasUnboundedDimension(*element)) return true;
  }
  for (int64_t dim : shape.dimensions) {
    if (dim == kUnboundedSize) return true;
  }
  return false;
}

bool UnboundedShapeCache::Has(const Shape& shape) {
  if (!shape.IsTuple() || shape.id == kNoShape) {
    if (shape.dynamic_dimensions.empty() && shape.tuple_shapes.empty()) return false;
    return HasUnboundedDimension(shape);
  }
  if (shape.id >= state_.size()) state_.resize(shape.id + 1, 0);
  if (state_[shape.id] == 0) state_[shape.id] = HasUnboundedDimension(shape) ? 2 : 1;
  return state_[shape.id] == 2;
}

std::array<bool, kOpcodeCount + 1> MakeElementwiseOpcodeTable() {
  std::array<bool, kOpcodeCount + 1> table{};
  for (int i = 0; i <= kOpcodeCount; ++i) {
    const Opcode op = static_cast<Opcode>(i);
    table[i] = IsElementwiseUnary(op) || IsElementwiseBinary(op);
  }
  return table;
}

bool UnboundedShapeCache::Classify(const Module& m, InstrId id) {
  const bool skip = !m.has_known_shape(id) || Has(m.shape(id));
  const ShapeId shape = m.instr(id).shape;
  if (shape == kNoShape) return skip;
  if (shape >= skip_.size()) skip_.resize(std::max<size_t>(shape + 1, m.shapes().size()), 0);
  skip_[shape] = skip ? 2 : 1;
  return skip;
}

bool SameElementTypeIgnoringFpPrecision(PrimitiveType a, PrimitiveType b) {
  if (IsFloatingPoint(a) && IsFloatingPoint(b)) return true;
  return a == b;
}

namespace {

bool IsSigned(PrimitiveType t) { return IsSignedInteger(t) || IsFloatingPoint(t); }

PrimitiveType ComplexComponent(PrimitiveType t) {
  return t == PrimitiveType::kC128 ? PrimitiveType::kF64 : PrimitiveType::kF32;
}

// Merges dynamic flags of `from` into `out` (same rank).
void MergeDynamic(const Shape& from, Shape* out) {
  for (int i = 0; i < from.rank() && i < out->rank(); ++i) {
    if (from.is_dynamic_dimension(i)) SetDynamic(out, static_cast<size_t>(i), true);
  }
}

bool InferElementwiseBinary(Opcode opcode, const Shape& lhs, const Shape& rhs, Shape* out,
                            std::string* error) {
  if (!ExpectArray(lhs, "lhs of elementwise binary operation", error) ||
      !ExpectArray(rhs, "rhs of elementwise binary operation", error)) {
    return false;
  }
  if (!SameElementTypeIgnoringFpPrecision(lhs.element_type, rhs.element_type)) {
    return Fail(error, StrCat("Binary op ", OpcodeName(opcode), " with different element types: ",
                              HumanString(lhs), " and ", HumanString(rhs), "."));
  }
  const PrimitiveType type = HigherPrecisionType(lhs.element_type, rhs.element_type);
  if (lhs.dimensions == rhs.dimensions) {
    CopyShape(lhs, out);
    out->element_type = type;
    MergeDynamic(rhs, out);
    return true;
  }
  const Shape* larger = &lhs;
  const Shape* smaller = &rhs;
  if (lhs.rank() != rhs.rank()) {
    if (lhs.rank() < rhs.rank()) std::swap(larger, smaller);
    // Without broadcast_dimensions only a scalar may meet a higher rank.
    if (!smaller->IsScalar()) {
      return Fail(error, StrCat("Shapes must be equal rank, but are ", HumanString(*smaller),
                                " and ", HumanString(*larger)));
    }
    CopyShape(*larger, out);
    out->element_type = type;
    return true;
  }
  // Degenerate-dimension broadcasting: differing sizes need a 1 on one side.
  ResetArray(out, type);
  for (int i = 0; i < lhs.rank(); ++i) {
    const int64_t a = lhs.dimensions[i];
    const int64_t b = rhs.dimensions[i];
    int64_t size;
    if (a == b) {
      size = a;
    } else if (a == 1) {
      size = b;
    } else if (b == 1) {
      size = a;
    } else {
      return Fail(error, StrCat("Binary op ", OpcodeName(opcode), " with incompatible shapes: ",
                                HumanString(lhs), " and ", HumanString(rhs), "."));
    }
    PushDim(out, size, lhs.is_dynamic_dimension(i) || rhs.is_dynamic_dimension(i));
  }
  return true;
}

}  // namespace

bool InferUnaryOpShape(Opcode opcode, const Shape& x, Shape* out, std::string* error) {
  if (opcode == Opcode::kCopy || opcode == Opcode::kDomain) {
    CopyShape(x, out);
    return true;
  }
  if (!ExpectArray(x, "operand of unary operation", error)) return false;
  const PrimitiveType t = x.element_type;
  const std::string_view op = OpcodeName(opcode);
  CopyShape(x, out);
  switch (opcode) {
    case Opcode::kFloor: case Opcode::kCeil: case Opcode::kRoundNearestAfz:
    case Opcode::kRoundNearestEven:
      if (!IsFloatingPoint(t)) {
        return Fail(error, StrCat("Expected element type in shape to be floating for ", op,
                                  " operation; got ", TypeName(t), "."));
      }
      return true;
    case Opcode::kCos: case Opcode::kSin: case Opcode::kTan: case Opcode::kExp:
    case Opcode::kExpm1: case Opcode::kLog: case Opcode::kLog1p: case Opcode::kLogistic:
    case Opcode::kRsqrt: case Opcode::kSqrt: case Opcode::kCbrt: case Opcode::kTanh:
    case Opcode::kErf: case Opcode::kAcos: case Opcode::kAcosh: case Opcode::kAsin:
    case Opcode::kAsinh: case Opcode::kAtan: case Opcode::kAtanh: case Opcode::kCosh:
    case Opcode::kSinh:
      if (!IsFloatingPoint(t) && !IsComplex(t)) {
        return Fail(error, StrCat("Expected element type in shape to be floating or complex for ",
                                  op, " operation; got ", TypeName(t), "."));
      }
      return true;
    case Opcode::kReal: case Opcode::kImag:
      if (IsComplex(t)) {
        out->element_type = ComplexComponent(t);
        return true;
      }
      if (IsFloatingPoint(t)) return true;
      return Fail(error, StrCat("Expected element type in shape to be floating or complex for ",
                                op, " operation; got ", TypeName(t), "."));
    case Opcode::kAbs:
      if (IsComplex(t)) {
        out->element_type = ComplexComponent(t);
        return true;
      }
      if (IsSigned(t)) return true;
      return Fail(error, StrCat("Expected element type in shape to be floating or complex for ",
                                op, " operation; got ", TypeName(t), "."));
    case Opcode::kClz: case Opcode::kPopulationCount:
      if (!IsInteger(t)) {
        return Fail(error, StrCat("Expected an integral element type in argument to ", op,
                                  " operation; got ", TypeName(t), "."));
      }
      return true;
    case Opcode::kNegate:
      if (!IsInteger(t) && !IsFloatingPoint(t) && !IsComplex(t)) {
        return Fail(error, StrCat("Expected element type in shape to be integral, floating or "
                                  "complex for negate operation; got ", TypeName(t), "."));
      }
      return true;
    case Opcode::kSign:
      if (!IsSigned(t) && !IsComplex(t)) {
        return Fail(error, StrCat("Expected element type in shape to be signed or complex for "
                                  "sign operation; got ", TypeName(t), "."));
      }
      return true;
    case Opcode::kNot:
      if (t != PrimitiveType::kPred && !IsInteger(t)) {
        return Fail(error, StrCat("Expected pred or an integral element type in argument to Not "
                                  "operation; got ", TypeName(t), "."));
      }
      return true;
    case Opcode::kIsFinite:
      if (!IsFloatingPoint(t)) {
        return Fail(error, StrCat("Expected element type in shape to be floating point for "
                                  "IsFinite operation; got ", TypeName(t), "."));
      }
      out->element_type = PrimitiveType::kPred;
      return true;
    default:
      return Fail(error, StrCat("Unknown operation for unary shape inference: \"", op, "\"."));
  }
}

bool InferBinaryOpShape(Opcode opcode, const Shape& lhs, const Shape& rhs, Shape* out,
                        std::string* error) {
  const std::string_view op = OpcodeName(opcode);
  if ((!lhs.IsArray() && !ExpectArray(lhs, StrCat("lhs of binary operation ", op), error)) ||
      (!rhs.IsArray() && !ExpectArray(rhs, StrCat("rhs of binary operation ", op), error))) {
    return false;
  }
  switch (opcode) {
    case Opcode::kSubtract: case Opcode::kAtan2: case Opcode::kPower: case Opcode::kDivide:
    case Opcode::kRemainder: case Opcode::kShiftLeft: case Opcode::kShiftRightArithmetic:
    case Opcode::kShiftRightLogical:
      if (lhs.element_type == PrimitiveType::kPred || rhs.element_type == PrimitiveType::kPred) {
        return Fail(error, StrCat("Expected element type in shape to be arithmetic type for "
                                  "operation ", op, "; got PRED."));
      }
      return InferElementwiseBinary(opcode, lhs, rhs, out, error);
    case Opcode::kComplex: {
      if (!IsFloatingPoint(lhs.element_type)) {
        return Fail(error, StrCat("Expected element type in shape to be floating for complex "
                                  "compose operation; got ", TypeName(lhs.element_type), "."));
      }
      if (!InferElementwiseBinary(opcode, lhs, rhs, out, error)) return false;
      if (lhs.element_type == PrimitiveType::kF32 && rhs.element_type == PrimitiveType::kF32) {
        out->element_type = PrimitiveType::kC64;
      } else if (lhs.element_type == PrimitiveType::kF64 &&
                 rhs.element_type == PrimitiveType::kF64) {
        out->element_type = PrimitiveType::kC128;
      } else {
        return Fail(error, "Complex component type is not implemented.");
      }
      return true;
    }
    case Opcode::kAnd: case Opcode::kOr: case Opcode::kXor:
      if (lhs.element_type != PrimitiveType::kPred && !IsInteger(lhs.element_type)) {
        return Fail(error, StrCat("Expected pred or integral type in argument to and/or "
                                  "operation; got ", TypeName(lhs.element_type), "."));
      }
      return InferElementwiseBinary(opcode, lhs, rhs, out, error);
    case Opcode::kCompare:
      if (!InferElementwiseBinary(opcode, lhs, rhs, out, error)) return false;
      out->element_type = PrimitiveType::kPred;
      return true;
    default:
      return InferElementwiseBinary(opcode, lhs, rhs, out, error);
  }
}

bool InferClampShape(const Shape& min, const Shape& operand, const Shape& max, Shape* out,
                     std::string* error) {
  if (!ExpectArray(min, "clamp min", error) || !ExpectArray(operand, "clamp operand", error) ||
      !ExpectArray(max, "clamp max", error)) {
    return false;
  }
  auto fits = [&](const Shape& bound) {
    return SameElementTypeIgnoringFpPrecision(bound.element_type, operand.element_type) &&
           (bound.IsScalar() || bound.dimensions == operand.dimensions);
  };
  if (!fits(min) || !fits(max)) {
    return Fail(error, StrCat("Clamp with different shapes: ", HumanString(min), ", ",
                              HumanString(operand), ", ", HumanString(max), "."));
  }
  CopyShape(operand, out);
  return true;
}

bool InferSelectShape(const Shape& pred, const Shape& on_true, const Shape& on_false, Shape* out,
                      std::string* error) {
  if (!ExpectArray(pred, "select pred", error) || !ExpectArray(on_true, "select on-true", error) ||
      !ExpectArray(on_false, "select on-false", error)) {
    return false;
  }
  if (!CompatibleIgnoringFpPrecision(on_true, on_false)) {
    return Fail(error, StrCat("Operands to select must be the same shape; got ",
                              HumanString(on_true), " and ", HumanString(on_false), "."));
  }
  if (pred.element_type != PrimitiveType::kPred) {
    return Fail(error, StrCat("Select's pred operand must have PRED element type; got ",
                              HumanString(pred), "."));
  }
  if (!pred.IsScalar() && pred.dimensions != on_true.dimensions) {
    return Fail(error, StrCat("Operands to select and predicate must be the same shape; got ",
                              HumanString(on_true), " and ", HumanString(pred), "."));
  }
  CopyShape(on_true, out);
  out->element_type = HigherPrecisionType(on_true.element_type, on_false.element_type);
  return true;
}

bool InferConvertShape(const Shape& operand, PrimitiveType new_type, Shape* out,
                       std::string* error) {
  if (!operand.IsArray() || !IsArrayType(new_type)) {
    return Fail(error, StrCat("Convert does not allow non-arrays, so cannot convert from ",
                              HumanString(operand), " to ", TypeName(new_type), "."));
  }
  CopyShape(operand, out);
  out->element_type = new_type;
  return true;
}

bool InferBitcastConvertShape(const Shape& operand, PrimitiveType new_type, Shape* out,
                              std::string* error) {
  const PrimitiveType old_type = operand.element_type;
  if (IsComplex(old_type) != IsComplex(new_type)) {
    return Fail(error, StrCat("Conversion between complex and real type ", HumanString(operand),
                              " => ", TypeName(new_type), "."));
  }
  if (!operand.IsArray() || !IsArrayType(new_type)) {
    return Fail(error, StrCat("Cannot convert from or to tuple type; requested conversion: ",
                              HumanString(operand), " => ", TypeName(new_type), "."));
  }
  const int in_bits = PrimitiveTypeBits(old_type);
  const int out_bits = PrimitiveTypeBits(new_type);
  if (in_bits == 0 || out_bits == 0 || std::max(in_bits, out_bits) % std::min(in_bits, out_bits)) {
    return Fail(error, StrCat("Cannot bitcast types with undivisible bit-widths: ",
                              TypeName(old_type), " => ", TypeName(new_type), "."));
  }
  const int ratio = std::max(in_bits, out_bits) / std::min(in_bits, out_bits);
  CopyShape(operand, out);
  out->element_type = new_type;
  if (in_bits > out_bits) {
    PushDim(out, ratio, false);
  } else if (in_bits < out_bits) {
    if (operand.rank() < 1 || operand.dimensions.back() != ratio) {
      return Fail(error, StrCat("Last dimension of input shape=",
                                operand.rank() < 1 ? 0 : operand.dimensions.back(),
                                " is not equal to ratio of bit-widths=", ratio,
                                " for bitcast-convert from ", HumanString(operand), " to ",
                                TypeName(new_type)));
    }
    out->dimensions.pop_back();
    if (!out->dynamic_dimensions.empty()) out->dynamic_dimensions.pop_back();
  }
  return true;
}

bool InferStochasticConvertShape(const Shape& operand, const Shape& random, PrimitiveType new_type,
                                 Shape* out, std::string* error) {
  if (!ExpectArray(operand, "lhs of stochastic convert operation", error) ||
      !ExpectArray(random, "rhs of stochastic convert operation", error)) {
    return false;
  }
  if (!IsUnsignedInteger(random.element_type)) {
    return Fail(error, StrCat("Random numbers for stochastic convert must be unsigned integers, "
                              "but got: ", HumanString(random)));
  }
  if (!IsFloatingPoint(operand.element_type)) {
    return Fail(error, StrCat("Stochastic convert supports only floating point operand "
                              "conversion, but got: ", HumanString(operand)));
  }
  if (PrimitiveTypeBits(operand.element_type) != PrimitiveTypeBits(random.element_type)) {
    return Fail(error, "The random number is required to have same bits as the operand.");
  }
  if (operand.dimensions != random.dimensions) {
    return Fail(error, StrCat("Stochastic convert operand shape does not match random tensor "
                              "shape: ", HumanString(operand), " vs ", HumanString(random), "."));
  }
  CopyShape(operand, out);
  out->element_type = new_type;
  return true;
}

bool InferReducePrecisionShape(const Shape& operand, int64_t exponent_bits, int64_t mantissa_bits,
                               Shape* out, std::string* error) {
  if (!IsFloatingPoint(operand.element_type)) {
    return Fail(error, StrCat("Expected element type in shape to be floating point for "
                              "ReducePrecision operation; got ",
                              TypeName(operand.element_type), "."));
  }
  if (exponent_bits < 1) {
    return Fail(error, StrCat("Expected exponent_bits >= 1; got ", exponent_bits, "."));
  }
  if (mantissa_bits < 0) {
    return Fail(error, StrCat("Expected non-negative mantissa_bits; got ", mantissa_bits, "."));
  }
  CopyShape(operand, out);
  return true;
}

bool CheckElementwiseOperands(Opcode opcode, std::span<const Shape* const> operands,
                              const Shape& result, std::string* error) {
  for (const Shape* operand : operands) {
    if (!CompatibleIgnoringElementType(*operand, result)) {
      return Fail(error, StrCat("Implicit broadcast is not allowed in HLO. Found different "
                                "shapes for instruction ", OpcodeName(opcode), ". output: ",
                                HumanString(result), " operand: ", HumanString(*operand)));
    }
  }
  return true;
}

bool CheckBroadcastShape(const Shape& operand, std::span<const int64_t> dimensions,
                         const Shape& result, std::string* error) {
  if (!operand.IsArray() || !result.IsArray()) {
    return Fail(error, StrCat("broadcast needs array shapes, got ", HumanString(operand), " -> ",
                              HumanString(result)));
  }
  if (!SameElementTypeIgnoringFpPrecision(result.element_type, operand.element_type)) {
    return Fail(error, StrCat("broadcast changes the element type from ",
                              TypeName(operand.element_type), " to ",
                              TypeName(result.element_type)));
  }
  if (static_cast<int64_t>(dimensions.size()) != operand.rank()) {
    return Fail(error, StrCat("broadcast has ", dimensions.size(),
                              " dimensions but its operand has rank ", operand.rank()));
  }
  for (int i = 0; i < operand.rank(); ++i) {
    const int64_t d = dimensions[i];
    if (d < 0 || d >= result.rank()) {
      return Fail(error, StrCat("broadcast dimension ", d, " is out of range for result rank ",
                                result.rank()));
    }
    if (result.dimensions[d] != operand.dimensions[i]) {
      return Fail(error, StrCat("broadcast maps operand dimension ", i, " (size ",
                                operand.dimensions[i], ") to result dimension ", d, " of size ",
                                result.dimensions[d], "; sizes must be equal"));
    }
  }
  return true;
}

bool CheckReshapeShape(const Shape& operand, const Shape& result, std::string* error) {
  if (!operand.IsArray() || !result.IsArray()) {
    return Fail(error, StrCat("reshape needs array shapes, got ", HumanString(operand), " -> ",
                              HumanString(result)));
  }
  if (!SameElementTypeIgnoringFpPrecision(result.element_type, operand.element_type)) {
    return Fail(error, StrCat("reshape changes the element type from ",
                              TypeName(operand.element_type), " to ",
                              TypeName(result.element_type)));
  }
  std::optional<int64_t> from = ElementCount(operand);
  std::optional<int64_t> to = ElementCount(result);
  if (from && to && *from != *to) {
    return Fail(error, StrCat("Reshape operation has mismatched element counts: from=", *from,
                              " (", HumanString(operand), ") to=", *to, " (",
                              HumanString(result), ")."));
  }
  return true;
}

bool InferTransposeShape(const Shape& operand, std::span<const int64_t> permutation, Shape* out,
                         std::string* error) {
  if (!ExpectArray(operand, "transpose", error)) return false;
  bool is_permutation = static_cast<int64_t>(permutation.size()) == operand.rank();
  for (int64_t d : permutation) is_permutation &= d >= 0 && d < operand.rank();
  if (!is_permutation || !AllUnique(permutation)) {
    return Fail(error, StrCat("Transpose dimensions [", Join(permutation),
                              "] are not a permutation of the operand dimensions (operand "
                              "shape is ", HumanString(operand), ")."));
  }
  ResetArray(out, operand.element_type);
  for (int64_t d : permutation) {
    PushDim(out, operand.dimensions[d], operand.is_dynamic_dimension(static_cast<int>(d)));
  }
  return true;
}

bool InferReverseShape(const Shape& operand, std::span<const int64_t> dimensions, Shape* out,
                       std::string* error) {
  if (!ExpectArray(operand, "operand of reverse", error)) return false;
  if (!AllUnique(dimensions)) return Fail(error, "a dimension number is duplicated in reverse");
  for (int64_t d : dimensions) {
    if (d < 0 || d >= operand.rank()) {
      return Fail(error, StrCat("One of the reverse dimensions (", d,
                                ") is out-of-bounds in shape ", HumanString(operand), "."));
    }
  }
  CopyShape(operand, out);
  return true;
}

bool InferSliceShape(const Shape& operand, std::span<const int64_t> starts,
                     std::span<const int64_t> limits, std::span<const int64_t> strides, Shape* out,
                     std::string* error) {
  if (!ExpectArray(operand, "operand of slice", error)) return false;
  auto fail = [&](std::string message) {
    return Fail(error, StrCat(message, " in slice operation; argument shape: ",
                              HumanString(operand), "; starts: {", Join(starts), "}; limits: {",
                              Join(limits), "}; strides: {", Join(strides), "}."));
  };
  if (starts.size() != limits.size() || starts.size() != strides.size()) {
    return fail("slice start, limit and stride sizes differ");
  }
  if (static_cast<int64_t>(starts.size()) != operand.rank()) {
    return Fail(error, StrCat("Slice index count does not match argument rank: ", starts.size(),
                              " vs ", operand.rank(), "."));
  }
  ResetArray(out, operand.element_type);
  for (int d = 0; d < operand.rank(); ++d) {
    const int64_t start = starts[d], limit = limits[d], stride = strides[d];
    if (start < 0) return Fail(error, StrCat("Negative start index to slice: ", start, "."));
    if (limit > operand.dimensions[d]) {
      return fail(StrCat("limit index (", limit, ") must be less than or equal to dimension size (",
                         operand.dimensions[d], ")"));
    }
    if (start > limit) {
      return fail(StrCat("limit index (", limit, ") must be greater or equal to start index (",
                         start, ") in slice with positive stride"));
    }
    if (stride <= 0) return Fail(error, StrCat("Stride (", stride, ") must be positive."));
    // CeilOfRatio(limit - start, stride), as XLA computes it: no
    // intermediate sum that a dimension near 2^63 would overflow.
    const int64_t span = limit - start;
    const int64_t size = span / stride + (span % stride != 0 ? 1 : 0);
    PushDim(out, size, size != 1 && operand.is_dynamic_dimension(d));
  }
  return true;
}

namespace {

// The index checks shared by dynamic-slice and dynamic-update-slice.
bool CheckDynamicIndices(std::string_view what, const Shape& operand,
                         std::span<const Shape* const> indices, std::string* error) {
  if (!indices.empty() && indices[0]->IsArray() && indices[0]->rank() == 1) {
    // Legacy form: one rank-1 vector of start indices.
    if (indices.size() != 1) {
      return Fail(error, StrCat(what, " should have exactly 1 index operand, has ",
                                indices.size(), "."));
    }
    const Shape& index = *indices[0];
    if (!IsInteger(index.element_type)) {
      return Fail(error, StrCat(what, " start indices must be of integral type."));
    }
    if (index.dimensions[0] != operand.rank()) {
      return Fail(error, StrCat(what, " start number of dimensions ", index.dimensions[0], " (",
                                HumanString(index), ") must match rank ", operand.rank(),
                                " of slice input (", HumanString(operand), ")."));
    }
    return true;
  }
  if (static_cast<int64_t>(indices.size()) != operand.rank()) {
    return Fail(error, StrCat(what, " start number of dimensions ", indices.size(),
                              " must match rank ", operand.rank(), " of slice input (",
                              HumanString(operand), ")."));
  }
  if (indices.empty()) return true;
  const Shape& first = *indices[0];
  if (!first.IsScalar()) {
    return Fail(error, StrCat(what, " indices must be scalar, not ", HumanString(first), "."));
  }
  if (!IsInteger(first.element_type)) {
    return Fail(error, StrCat(what, " start indices must be of integral type."));
  }
  for (const Shape* index : indices) {
    if (!Compatible(first, *index)) {
      return Fail(error, StrCat(what, " start indices must all have the same shape, got "
                                "mismatching indices with shapes ", HumanString(first), " and ",
                                HumanString(*index), "."));
    }
  }
  return true;
}

}  // namespace

bool InferDynamicSliceShape(const Shape& operand, std::span<const Shape* const> start_indices,
                            std::span<const int64_t> slice_sizes, Shape* out, std::string* error) {
  if (!ExpectArray(operand, "operand of dynamic slice", error)) return false;
  if (!CheckDynamicIndices("Dynamic slice", operand, start_indices, error)) return false;
  if (static_cast<int64_t>(slice_sizes.size()) != operand.rank()) {
    return Fail(error, StrCat("Dynamic slice index count does not match argument rank: ",
                              slice_sizes.size(), " vs ", operand.rank(), "."));
  }
  ResetArray(out, operand.element_type);
  for (int d = 0; d < operand.rank(); ++d) {
    if (slice_sizes[d] < 0) {
      return Fail(error, StrCat("Negative size index to dynamic slice: ", slice_sizes[d], "."));
    }
    if (slice_sizes[d] > operand.dimensions[d]) {
      return Fail(error, StrCat("Slice dim size ", slice_sizes[d],
                                " greater than dynamic slice dimension: ", operand.dimensions[d],
                                "."));
    }
    PushDim(out, slice_sizes[d], false);
  }
  return true;
}

bool InferDynamicUpdateSliceShape(const Shape& operand, const Shape& update,
                                  std::span<const Shape* const> start_indices, Shape* out,
                                  std::string* error) {
  if (!ExpectArray(operand, "operand of dynamic update slice", error) ||
      !ExpectArray(update, "update of dynamic update slice", error)) {
    return false;
  }
  if (!CheckDynamicIndices("Dynamic update slice", operand, start_indices, error)) return false;
  if (update.rank() != operand.rank()) {
    return Fail(error, StrCat("Dynamic update slice update rank does not match argument rank: ",
                              update.rank(), " vs ", operand.rank(), "."));
  }
  if (!SameElementTypeIgnoringFpPrecision(operand.element_type, update.element_type)) {
    return Fail(error, StrCat("Dynamic update slice update element type does not match argument. "
                              "operand.element_type: ", TypeName(operand.element_type),
                              " vs update.element_type: ", TypeName(update.element_type), "."));
  }
  for (int d = 0; d < operand.rank(); ++d) {
    if (update.dimensions[d] > operand.dimensions[d]) {
      return Fail(error, StrCat("Update dim size ", update.dimensions[d],
                                " greater than dynamic slice dimension: ", operand.dimensions[d],
                                "."));
    }
  }
  CopyShape(operand, out);
  return true;
}

bool InferConcatenateShape(std::span<const Shape* const> operands, int64_t dimension, Shape* out,
                           std::string* error) {
  if (operands.empty()) return Fail(error, "Concatenate expects at least one argument.");
  if (dimension < 0 || dimension >= operands[0]->rank()) {
    return Fail(error, StrCat("Concatenate dimension out of bounds: ", dimension, "."));
  }
  const Shape& first = *operands[0];
  PrimitiveType type = first.element_type;
  for (const Shape* shape : operands) {
    if (!ExpectArray(*shape, "operand of concatenation", error)) return false;
    if (shape->rank() != first.rank()) {
      return Fail(error, StrCat("Cannot concatenate arrays with different ranks: ", first.rank(),
                                " (", HumanString(first), ") vs ", shape->rank(), " (",
                                HumanString(*shape), ")."));
    }
    if (!SameElementTypeIgnoringFpPrecision(first.element_type, shape->element_type)) {
      return Fail(error, StrCat("Cannot concatenate arrays with different element types: ",
                                TypeName(first.element_type), " vs ",
                                TypeName(shape->element_type), "."));
    }
    for (int d = 0; d < first.rank(); ++d) {
      if (d != dimension && first.dimensions[d] != shape->dimensions[d]) {
        return Fail(error, StrCat("Cannot concatenate arrays that differ in dimensions other "
                                  "than the one being concatenated. Dimension ", d,
                                  " in both shapes must be equal: ", HumanString(first), " vs ",
                                  HumanString(*shape), "."));
      }
    }
    type = HigherPrecisionType(type, shape->element_type);
  }
  CopyShape(first, out);
  out->element_type = type;
  for (size_t i = 1; i < operands.size(); ++i) {
    out->dimensions[dimension] += operands[i]->dimensions[dimension];
  }
  for (const Shape* shape : operands) MergeDynamic(*shape, out);
  return true;
}

bool InferPadShape(const Shape& operand, const Shape& padding_value, const PaddingConfig& padding,
                   Shape* out, std::string* error) {
  if (!operand.IsArray()) return Fail(error, "Pad operation does not support tuple-shape operands.");
  if (!padding_value.IsScalar()) {
    return Fail(error, "Pad operation does not support non-scalar padding values.");
  }
  if (static_cast<int64_t>(padding.size()) != operand.rank()) {
    return Fail(error, StrCat("The rank of the operand and the padding configuration do not "
                              "match: ", HumanString(operand), " vs ", padding.size(),
                              " padding dimensions."));
  }
  if (!SameElementTypeIgnoringFpPrecision(operand.element_type, padding_value.element_type)) {
    return Fail(error, "The element types of the operands to Pad do not match.");
  }
  for (const PaddingDimension& p : padding) {
    if (p.interior < 0) return Fail(error, "Interior padding cannot be negative.");
  }
  ResetArray(out, HigherPrecisionType(operand.element_type, padding_value.element_type));
  for (int d = 0; d < operand.rank(); ++d) {
    const PaddingDimension& p = padding[d];
    const int64_t size = operand.dimensions[d] + p.low + p.high +
                         std::max<int64_t>(operand.dimensions[d] - 1, 0) * p.interior;
    if (size < 0) {
      return Fail(error, StrCat("Padding result in negative size for dimension ", d));
    }
    PushDim(out, size, operand.is_dynamic_dimension(d));
  }
  return true;
}

bool CheckIotaShape(const Shape& result, int64_t iota_dimension, std::string* error) {
  if (!result.IsArray()) return Fail(error, "Iota does not support non-array result.");
  if (result.rank() == 0) return Fail(error, "Iota does not support scalars.");
  if (iota_dimension < 0 || iota_dimension >= result.rank()) {
    return Fail(error, "The iota dimension cannot go beyond the operation rank or be negative.");
  }
  const PrimitiveType t = result.element_type;
  if (!IsInteger(t) && !IsFloatingPoint(t) && !IsComplex(t)) {
    return Fail(error, StrCat("Only support iota of integral, floating point or complex "
                              "primitive types, got ", TypeName(t)));
  }
  return true;
}

bool InferGetTupleElementShape(const Shape& tuple, int64_t index, const Shape** out,
                               std::string* error) {
  if (!tuple.IsTuple()) {
    return Fail(error, StrCat("Cannot infer shape: attempting to index into non-tuple: ",
                              HumanString(tuple), "."));
  }
  const int64_t size = static_cast<int64_t>(tuple.tuple_shapes.size());
  if (index < 0 || index >= size) {
    return Fail(error, StrCat("Cannot infer shape: attempt to index out of tuple bounds: ", index,
                              " >= ", size, " in shape ", HumanString(tuple), "."));
  }
  *out = tuple.tuple_shapes[static_cast<size_t>(index)];
  return true;
}

void InferTupleShape(std::span<const Shape* const> elements, Shape* out) {
  ResetArray(out, PrimitiveType::kTuple);
  out->tuple_shapes.assign(elements.begin(), elements.end());
}

bool InferGetDimensionSizeShape(const Shape& operand, int64_t dimension, Shape* out,
                                std::string* error) {
  if (dimension < 0 || dimension >= operand.rank()) {
    return Fail(error, StrCat("GetDimensionSize dimension out of bounds: ", dimension, "."));
  }
  ResetArray(out, PrimitiveType::kS32);
  return true;
}

bool InferSetDimensionSizeShape(const Shape& operand, const Shape& value, int64_t dimension,
                                Shape* out, std::string* error) {
  if (dimension < 0 || dimension >= operand.rank()) {
    return Fail(error, StrCat("SetDimensionSize dimension out of bounds: ", dimension, "."));
  }
  if (value.rank() != 0 || value.element_type != PrimitiveType::kS32) {
    return Fail(error, StrCat("SetDimensionSize's value has to be S32 scalar, got ",
                              HumanString(value)));
  }
  CopyShape(operand, out);
  SetDynamic(out, static_cast<size_t>(dimension), true);
  return true;
}

}  // namespace hlolint
