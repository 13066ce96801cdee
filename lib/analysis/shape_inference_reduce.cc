// Contractions, reductions, windows, gather/scatter and collectives
// (xla/service/shape_inference.cc: InferDotOpShape, InferConvolveShape,
// InferReduceShape, InferGatherShape, InferScatterShape, ...).
#include "analysis/shape_inference.h"
#include "analysis/shape_inference_util.h"

namespace hlolint {

using namespace inference_internal;

namespace {

bool IsScalarOf(const Shape& shape, PrimitiveType type) {
  return shape.IsScalar() && shape.element_type == type;
}

// ShapeUtil::CompatibleIgnoringFpPrecision(scalar(type), shape).
bool ScalarCompatibleIgnoringFp(PrimitiveType type, const Shape& shape) {
  return shape.IsScalar() && SameElementTypeIgnoringFpPrecision(type, shape.element_type);
}

int64_t DilatedBound(int64_t bound, int64_t dilation) {
  return bound == 0 ? 0 : (bound - 1) * dilation + 1;
}

int64_t StridedBound(int64_t bound, int64_t window, int64_t stride) {
  if (bound <= 0 || window > bound) return 0;
  return (bound - window) / stride + 1;
}

}  // namespace

bool VerifyReducerShape(const ProgramShapeView& reducer, std::span<const Shape* const> init_values,
                        std::span<const PrimitiveType> input_element_types, int64_t inputs,
                        std::string* error) {
  if (static_cast<int64_t>(reducer.parameters.size()) != inputs * 2) {
    return Fail(error, StrCat("Reduction function must take ", inputs * 2,
                              " parameters, but takes ", reducer.parameters.size(),
                              " parameter(s)."));
  }
  const Shape& accumulator = *reducer.result;
  std::span<const Shape* const> accumulators;
  const Shape* single = &accumulator;
  if (accumulator.IsArray()) {
    if (inputs != 1) {
      return Fail(error, StrCat("Reduction function must produce a tuple with ", inputs,
                                " elements, but produces a scalar"));
    }
    accumulators = std::span<const Shape* const>(&single, 1);
  } else if (accumulator.IsTuple()) {
    if (static_cast<int64_t>(accumulator.tuple_shapes.size()) != inputs) {
      return Fail(error, StrCat("Reduction function must produce a tuple with ", inputs,
                                " elements, but has ", accumulator.tuple_shapes.size(),
                                " elements"));
    }
    accumulators = accumulator.tuple_shapes;
  } else {
    return Fail(error, StrCat("Reduction function must produce a scalar or tuple of scalars, but "
                              "has shape: ", HumanString(accumulator)));
  }
  for (const Shape* element : accumulators) {
    if (!element->IsArray() || element->rank() != 0) {
      return Fail(error, StrCat("Reduction function must return a scalar or tuple of scalars but "
                                "returns shape: ", HumanString(accumulator)));
    }
  }
  for (int64_t i = 0; i < inputs; ++i) {
    const Shape& acc = *accumulators[i];
    if (!Compatible(acc, *reducer.parameters[i])) {
      return Fail(error, StrCat("Reduction function's ", i, "-th parameter shape differs from "
                                "the result shape: ", HumanString(*reducer.parameters[i]), " vs ",
                                HumanString(acc)));
    }
    if (!CompatibleIgnoringFpPrecision(acc, *init_values[i])) {
      return Fail(error, StrCat("Reduction function's accumulator shape at index ", i,
                                " differs from the init_value shape: ", HumanString(acc), " vs ",
                                HumanString(*init_values[i])));
    }
    const Shape& input_param = *reducer.parameters[inputs + i];
    if (!ScalarCompatibleIgnoringFp(input_element_types[i], input_param)) {
      return Fail(error, StrCat("Reduction function's ", inputs + i, "-th parameter shape "
                                "differs from the input type element type: ",
                                HumanString(input_param), " vs ",
                                TypeName(input_element_types[i]), "[]"));
    }
    if (!CompatibleIgnoringFpPrecision(acc, input_param)) {
      return Fail(error, StrCat("Reduction function's ", inputs + i, "-th parameter shape must "
                                "match the result shape, but got ", HumanString(input_param),
                                " vs ", HumanString(acc), "."));
    }
  }
  return true;
}

bool InferWindowOutputShape(const Shape& base, const Window& window, PrimitiveType element_type,
                            Shape* out, std::string* error) {
  if (static_cast<int64_t>(window.size()) != base.rank()) {
    return Fail(error, StrCat("Window has dimension ", window.size(),
                              " but base shape has dimension ", base.rank(), "."));
  }
  ResetArray(out, element_type);
  for (int i = 0; i < base.rank(); ++i) {
    const WindowDimension& dim = window[i];
    if (dim.size <= 0) return Fail(error, "Window has a non-positive dimension.");
    if (dim.stride <= 0) return Fail(error, "Window has a non-positive stride.");
    if (dim.base_dilation < 1) {
      return Fail(error, "Window has a non-positive base area dilation factor.");
    }
    if (dim.window_dilation < 1) {
      return Fail(error, "Window has a non-positive window dilation factor.");
    }
    const int64_t padded = dim.padding_low + DilatedBound(base.dimensions[i], dim.base_dilation) +
                           dim.padding_high;
    if (padded < 0) {
      return Fail(error, StrCat("Window padding makes dimension ", i, " negative (", padded,
                                ")."));
    }
    PushDim(out, StridedBound(padded, DilatedBound(dim.size, dim.window_dilation), dim.stride),
            base.is_dynamic_dimension(i));
  }
  return true;
}

bool InferDotShape(const Shape& lhs, const Shape& rhs, const DotDimensionNumbers& dnums,
                   PrimitiveType preferred_type, Shape* out, std::string* error) {
  if (!ExpectArray(lhs, "lhs of dot", error) || !ExpectArray(rhs, "rhs of dot", error)) {
    return false;
  }
  auto fail = [&](std::string_view addendum) {
    return Fail(error, StrCat("Cannot infer shape for dot operation: ", HumanString(lhs),
                              " <dot> ", HumanString(rhs), ". ", addendum));
  };
  auto in_range = [](const Shape& s, std::span<const int64_t> dims) {
    for (int64_t d : dims) {
      if (d < 0 || d >= s.rank()) return false;
    }
    return true;
  };
  if (!in_range(lhs, dnums.lhs_contracting) || !in_range(lhs, dnums.lhs_batch) ||
      !in_range(rhs, dnums.rhs_contracting) || !in_range(rhs, dnums.rhs_batch)) {
    return Fail(error, "A dimension number is out of range in Dot.");
  }
  auto unique = [](std::span<const int64_t> a, std::span<const int64_t> b) {
    if (!AllUnique(a) || !AllUnique(b)) return false;
    for (int64_t d : a) {
      if (Contains(b, d)) return false;
    }
    return true;
  };
  if (!unique(dnums.lhs_contracting, dnums.lhs_batch) ||
      !unique(dnums.rhs_contracting, dnums.rhs_batch)) {
    return Fail(error, "A dimension number is not unique in Dot.");
  }
  if (dnums.lhs_contracting.size() != dnums.rhs_contracting.size()) {
    return fail("Must specify the same number of contracting dimensions for lhs and rhs.");
  }
  for (size_t i = 0; i < dnums.lhs_contracting.size(); ++i) {
    if (lhs.dimensions[dnums.lhs_contracting[i]] != rhs.dimensions[dnums.rhs_contracting[i]]) {
      return fail("Contracting dimension sizes do not match.");
    }
  }
  if (dnums.lhs_batch.size() != dnums.rhs_batch.size()) {
    return fail("Must the same number of batch dimensions for lhs and rhs.");
  }
  for (size_t i = 0; i < dnums.lhs_batch.size(); ++i) {
    if (lhs.dimensions[dnums.lhs_batch[i]] != rhs.dimensions[dnums.rhs_batch[i]]) {
      return fail("Batch dimension sizes must match for lhs/rhs.");
    }
  }
  const PrimitiveType from = HigherPrecisionType(lhs.element_type, rhs.element_type);
  if (preferred_type != from && !IsFloatingPoint(from) && !IsComplex(from) &&
      PrimitiveTypeBits(preferred_type) < PrimitiveTypeBits(from)) {
    return Fail(error, "`preferred_element_type` must not be narrower than the original type.");
  }
  ResetArray(out, preferred_type);
  for (int64_t d : dnums.lhs_batch) {
    PushDim(out, lhs.dimensions[d], lhs.is_dynamic_dimension(static_cast<int>(d)));
  }
  for (int i = 0; i < lhs.rank(); ++i) {
    if (!Contains(dnums.lhs_contracting, i) && !Contains(dnums.lhs_batch, i)) {
      PushDim(out, lhs.dimensions[i], lhs.is_dynamic_dimension(i));
    }
  }
  for (int i = 0; i < rhs.rank(); ++i) {
    if (!Contains(dnums.rhs_contracting, i) && !Contains(dnums.rhs_batch, i)) {
      PushDim(out, rhs.dimensions[i], rhs.is_dynamic_dimension(i));
    }
  }
  return true;
}

bool InferConvolutionShape(const Shape& lhs, const Shape& rhs, int64_t feature_group_count,
                           int64_t batch_group_count, const Window& window,
                           const ConvolutionDimensionNumbers& dnums, PrimitiveType preferred_type,
                           Shape* out, std::string* error) {
  if (!ExpectArray(lhs, "lhs of convolution", error) ||
      !ExpectArray(rhs, "rhs of convolution", error)) {
    return false;
  }
  if (feature_group_count <= 0) {
    return Fail(error, StrCat("feature_group_count must be a positive number, got ",
                              feature_group_count));
  }
  if (batch_group_count <= 0) {
    return Fail(error, StrCat("batch_group_count must be a positive number, got ",
                              batch_group_count));
  }
  if (batch_group_count > 1 && feature_group_count > 1) {
    return Fail(error, "both batch_group_count and feature_group_count cannot be greater than 1");
  }
  const size_t spatial = dnums.input_spatial.size();
  if (dnums.kernel_spatial.size() != spatial || dnums.output_spatial.size() != spatial) {
    return Fail(error, "Both arguments to convolution must have same number of dimensions.");
  }
  if (window.size() != spatial) {
    return Fail(error, "Window must have same number of dimensions as dimension numbers.");
  }
  const int64_t num_dims = static_cast<int64_t>(spatial) + 2;
  if (lhs.rank() != num_dims) {
    return Fail(error, StrCat("The LHS argument to a convolution should have rank ", num_dims,
                              "; lhs: ", HumanString(lhs), "."));
  }
  if (rhs.rank() != num_dims) {
    return Fail(error, StrCat("The RHS argument to a convolution should have rank ", num_dims,
                              "; rhs: ", HumanString(rhs), "."));
  }
  auto is_permutation = [&](int64_t a, int64_t b, const std::vector<int64_t>& rest) {
    std::vector<int64_t> all = rest;
    all.push_back(a);
    all.push_back(b);
    for (int64_t d : all) {
      if (d < 0 || d >= num_dims) return false;
    }
    return AllUnique(all);
  };
  if (!is_permutation(dnums.input_batch, dnums.input_feature, dnums.input_spatial) ||
      !is_permutation(dnums.kernel_input_feature, dnums.kernel_output_feature,
                      dnums.kernel_spatial) ||
      !is_permutation(dnums.output_batch, dnums.output_feature, dnums.output_spatial)) {
    return Fail(error, "Convolution dimension numbers must name each dimension exactly once.");
  }
  const int64_t input_features = lhs.dimensions[dnums.input_feature];
  const int64_t input_batch = lhs.dimensions[dnums.input_batch];
  const int64_t kernel_input_features = rhs.dimensions[dnums.kernel_input_feature];
  const int64_t kernel_output_features = rhs.dimensions[dnums.kernel_output_feature];
  if (kernel_output_features % batch_group_count != 0) {
    return Fail(error, StrCat("Expected output feature dimension size (value ",
                              kernel_output_features, ") to be a multiple of batch group count ",
                              batch_group_count, "."));
  }
  if (input_features % feature_group_count != 0 ||
      input_features / feature_group_count != kernel_input_features) {
    return Fail(error, StrCat("Expected LHS feature dimension (value ", input_features,
                              ") to be a multiple of feature_group_count (value ",
                              feature_group_count, "), and LHS feature dimension / "
                              "feature_group_count = RHS feature dimension (value ",
                              kernel_input_features, "); got <conv>(", HumanString(lhs), ", ",
                              HumanString(rhs), ")."));
  }
  if (kernel_output_features % feature_group_count > 0) {
    return Fail(error, StrCat("Expected output feature dimension (value ",
                              kernel_output_features, ") to be divisible by feature_group_count "
                              "(value ", feature_group_count, ")."));
  }
  if (input_batch % batch_group_count != 0) {
    return Fail(error, StrCat("Expected input batch dimension (value ", input_batch,
                              ") to be divisible by batch_group_count (value ", batch_group_count,
                              ")."));
  }
  Shape base;
  base.element_type = lhs.element_type;
  for (size_t i = 0; i < spatial; ++i) {
    if (rhs.dimensions[dnums.kernel_spatial[i]] != window[i].size) {
      return Fail(error, StrCat("Window dimensions do not match RHS shape: RHS shape ",
                                HumanString(rhs), ", window size ", window[i].size,
                                " for spatial dimension ", i, "."));
    }
    base.dimensions.push_back(lhs.dimensions[dnums.input_spatial[i]]);
  }
  Shape window_output;
  if (!InferWindowOutputShape(base, window, lhs.element_type, &window_output, error)) return false;
  const PrimitiveType from = HigherPrecisionType(lhs.element_type, rhs.element_type);
  if (preferred_type != from && !IsFloatingPoint(from) && !IsComplex(from) &&
      PrimitiveTypeBits(preferred_type) < PrimitiveTypeBits(from)) {
    return Fail(error, "`preferred_element_type` must not be narrower than the original type.");
  }
  ResetArray(out, preferred_type);
  out->dimensions.assign(static_cast<size_t>(num_dims), 0);
  out->dimensions[dnums.output_batch] = input_batch / batch_group_count;
  out->dimensions[dnums.output_feature] = kernel_output_features;
  for (size_t i = 0; i < spatial; ++i) {
    out->dimensions[dnums.output_spatial[i]] = window_output.dimensions[i];
  }
  return true;
}

bool InferReduceShape(std::span<const Shape* const> operands, std::span<const int64_t> dimensions,
                      const ProgramShapeView& reducer, ShapeArena& arena, Shape* out,
                      std::string* error) {
  if (operands.empty() || operands.size() % 2) {
    return Fail(error, StrCat("Reduce must have an even number of arguments, has ",
                              operands.size()));
  }
  const size_t inputs = operands.size() / 2;
  for (size_t i = 0; i < inputs; ++i) {
    if (!ExpectArray(*operands[i], "operand of reduce", error)) return false;
    if (!SameDimensions(*operands[0], *operands[i])) {
      return Fail(error, StrCat("All reduced tensors must have the same dimension. Tensor 0 has "
                                "shape ", HumanString(*operands[0]), ", Tensor ", i,
                                " has shape ", HumanString(*operands[i])));
    }
  }
  const Shape& arg = *operands[0];
  for (int64_t d : dimensions) {
    if (d < 0 || d >= arg.rank()) {
      return Fail(error, StrCat("Reducing out-of-bounds dimension ", d, " in shape ",
                                HumanString(arg), "."));
    }
  }
  PrimitiveType types[64];
  if (inputs > 64) return true;  // absurd arity: nothing useful to say
  for (size_t i = 0; i < inputs; ++i) types[i] = operands[i]->element_type;
  if (!VerifyReducerShape(reducer, operands.subspan(inputs),
                          std::span<const PrimitiveType>(types, inputs),
                          static_cast<int64_t>(inputs), error)) {
    return false;
  }
  if (!AllUnique(dimensions)) return Fail(error, "Duplicate reduction dimension.");
  auto kept_dims = [&](Shape* shape, PrimitiveType type) {
    ResetArray(shape, type);
    for (int i = 0; i < arg.rank(); ++i) {
      if (!Contains(dimensions, i)) PushDim(shape, arg.dimensions[i], arg.is_dynamic_dimension(i));
    }
  };
  if (reducer.result->IsArray()) {
    kept_dims(out, reducer.result->element_type);
    return true;
  }
  ResetArray(out, PrimitiveType::kTuple);
  for (const Shape* element : reducer.result->tuple_shapes) {
    Shape& shape = arena.New();
    kept_dims(&shape, element->element_type);
    out->tuple_shapes.push_back(&shape);
  }
  return true;
}

bool InferReduceWindowShape(std::span<const Shape* const> inputs,
                            std::span<const Shape* const> init_values, const Window& window,
                            const ProgramShapeView& reducer, ShapeArena& arena, Shape* out,
                            std::string* error) {
  if (inputs.empty() || inputs.size() != init_values.size() || inputs.size() > 64) {
    return Fail(error, "reduce-window needs as many init values as inputs");
  }
  for (size_t i = 1; i < inputs.size(); ++i) {
    if (!SameDimensions(*inputs[0], *inputs[i])) {
      return Fail(error, StrCat("All reduced tensors must have the same dimension. Tensor 0 has "
                                "shape ", HumanString(*inputs[0]), ", Tensor ", i,
                                " has shape ", HumanString(*inputs[i])));
    }
  }
  PrimitiveType types[64];
  for (size_t i = 0; i < inputs.size(); ++i) types[i] = inputs[i]->element_type;
  if (!VerifyReducerShape(reducer, init_values, std::span<const PrimitiveType>(types, inputs.size()),
                          static_cast<int64_t>(inputs.size()), error)) {
    return false;
  }
  for (const Shape* input : inputs) {
    if (!ExpectArray(*input, "operand of reduce-window", error)) return false;
  }
  if (reducer.result->IsArray()) {
    return InferWindowOutputShape(*inputs[0], window, init_values[0]->element_type, out, error);
  }
  ResetArray(out, PrimitiveType::kTuple);
  for (size_t i = 0; i < inputs.size(); ++i) {
    Shape& shape = arena.New();
    if (!InferWindowOutputShape(*inputs[i], window, init_values[i]->element_type, &shape, error)) {
      return false;
    }
    out->tuple_shapes.push_back(&shape);
  }
  return true;
}

bool InferSelectAndScatterShape(const Shape& operand, const ProgramShapeView& select,
                                const Window& window, const Shape& source, const Shape& init_value,
                                const ProgramShapeView& scatter, Shape* out, std::string* error) {
  if (!ExpectArray(operand, "operand of select-and-scatter", error)) return false;
  if (select.parameters.size() != 2) {
    return Fail(error, StrCat("Select function must take 2 parameters, but takes ",
                              select.parameters.size(), " parameter(s)."));
  }
  if (!IsScalarOf(*select.result, PrimitiveType::kPred)) {
    return Fail(error, "Select function must have rank-0 PRED result.");
  }
  for (int i = 0; i < 2; ++i) {
    if (!ScalarCompatibleIgnoringFp(operand.element_type, *select.parameters[i])) {
      return Fail(error, StrCat("Select function's ", i == 0 ? "first" : "second",
                                " parameter shape currently must match the operand element "
                                "shape, but got ", HumanString(*select.parameters[i]), " vs ",
                                TypeName(operand.element_type), "[]."));
    }
  }
  const Shape* init = &init_value;
  const PrimitiveType source_type = source.element_type;
  if (!VerifyReducerShape(scatter, std::span<const Shape* const>(&init, 1),
                          std::span<const PrimitiveType>(&source_type, 1), 1, error)) {
    return false;
  }
  Shape window_result;
  if (!InferWindowOutputShape(operand, window, operand.element_type, &window_result, error)) {
    return false;
  }
  if (!CompatibleIgnoringFpPrecision(source, window_result)) {
    return Fail(error, StrCat("Source shape does not match the shape of window-reduced operand: "
                              "source(", HumanString(source), "), window-reduced operand(",
                              HumanString(window_result), ")."));
  }
  CopyShape(operand, out);
  return true;
}

bool InferMapShape(std::span<const Shape* const> operands, const ProgramShapeView& to_apply,
                   Shape* out, std::string* error) {
  if (operands.empty()) return Fail(error, "Map expects at least one argument.");
  const Shape* arg = operands[0];
  for (const Shape* shape : operands) {
    if (!ExpectArray(*shape, "operand of map", error)) return false;
    if (shape->dimensions == arg->dimensions) continue;
    if (SameElementTypeIgnoringFpPrecision(shape->element_type, arg->element_type)) {
      if (shape->IsScalar()) continue;
      if (arg->IsScalar()) {
        arg = shape;
        continue;
      }
    }
    return Fail(error, "Map operation requires all operands to have the same shape.");
  }
  if (to_apply.parameters.size() != operands.size()) {
    return Fail(error, StrCat("Map applied function arity must match number of arguments; got: "
                              "arity: ", to_apply.parameters.size(), ", arguments: ",
                              operands.size(), "."));
  }
  if (!to_apply.result->IsScalar()) {
    return Fail(error, StrCat("Mapped computation's result has to be a scalar; got: ",
                              HumanString(*to_apply.result), "."));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    const Shape& param = *to_apply.parameters[i];
    if (!param.IsScalar()) {
      return Fail(error, StrCat("Mapped computation's parameter has to be a scalar; got "
                                "parameter ", i, " shape: ", HumanString(param), "."));
    }
    if (!SameElementTypeIgnoringFpPrecision(param.element_type, operands[i]->element_type)) {
      return Fail(error, StrCat("Mapped computation's parameter type has to match argument "
                                "element type; got parameter ", i, " shape: ",
                                HumanString(param), ", argument shape: ",
                                HumanString(*operands[i]), "."));
    }
  }
  ResetArray(out, to_apply.result->element_type);
  out->dimensions = arg->dimensions;
  return true;
}

bool InferSortShape(std::span<const Shape* const> operands, int64_t dimension,
                    const ProgramShapeView& comparator, Shape* out, std::string* error) {
  if (operands.empty()) return Fail(error, "Expected at least 1 operand for sort instruction");
  if (!IsScalarOf(*comparator.result, PrimitiveType::kPred) &&
      !(comparator.result->IsArray() && comparator.result->rank() == 0 &&
        comparator.result->element_type == PrimitiveType::kPred)) {
    return Fail(error, StrCat("The Sort compare computation shape does not lead to a scalar "
                              "predicate shape: ", HumanString(*comparator.result)));
  }
  if (comparator.parameters.size() != operands.size() * 2) {
    return Fail(error, StrCat("Expected the compare computation to have ", operands.size() * 2,
                              " parameters, has ", comparator.parameters.size()));
  }
  for (size_t p = 0; p < comparator.parameters.size(); ++p) {
    const PrimitiveType type = operands[p / 2]->element_type;
    if (!ScalarCompatibleIgnoringFp(type, *comparator.parameters[p])) {
      return Fail(error, StrCat("Expected the ", p, "-th parameter of the compare computation of "
                                "sort to have shape ", TypeName(type), "[], but got ",
                                HumanString(*comparator.parameters[p])));
    }
  }
  for (size_t i = 1; i < operands.size(); ++i) {
    if (!SameDimensions(*operands[0], *operands[i])) {
      return Fail(error, StrCat("Expected sort to have to have the same dimensions for all "
                                "operands. First operand shape is: ", HumanString(*operands[0]),
                                ", shape (operand index ", i, ") is: ",
                                HumanString(*operands[i])));
    }
  }
  if (dimension >= operands[0]->rank()) {
    return Fail(error, StrCat("Expected the sort_dimension ", dimension,
                              " of sort to be smaller than the rank ", operands[0]->rank(),
                              " of the operand(s)."));
  }
  if (operands.size() == 1) {
    CopyShape(*operands[0], out);
  } else {
    InferTupleShape(operands, out);
  }
  return true;
}

bool InferGatherShape(const Shape& input, const Shape& start_indices,
                      const GatherDimensionNumbers& dnums, std::span<const int64_t> slice_sizes,
                      Shape* out, std::string* error) {
  if (!ExpectArray(input, "input tensor operand of gather op", error) ||
      !ExpectArray(start_indices, "gather indices operand of gather op", error)) {
    return false;
  }
  if (!IsInteger(start_indices.element_type)) {
    return Fail(error, StrCat("Gather indices parameter must be an integral tensor; got ",
                              HumanString(start_indices), "."));
  }
  const int64_t ivd = dnums.index_vector_dim;
  if (ivd < 0 || ivd > start_indices.rank()) {
    return Fail(error, StrCat("Gather index leaf dimension must be within [0, "
                              "rank(start_indices) + 1). rank(start_indices) is ",
                              start_indices.rank(), " and gather index leaf dimension is ", ivd,
                              "."));
  }
  // Indices of shape [A,B] with index_vector_dim == 2 read as [A,B,1].
  auto index_dim = [&](int64_t d) -> int64_t {
    return d < start_indices.rank() ? start_indices.dimensions[d] : 1;
  };
  const int64_t expanded_rank = std::max<int64_t>(start_indices.rank(), ivd + 1);
  const std::span<const int64_t> offset_dims = dnums.offset_dims;
  if (!SortedUnique(offset_dims)) {
    return Fail(error, StrCat("Output window dimensions in gather op must be ascending and "
                              "unique; got: ", Join(offset_dims), "."));
  }
  const int64_t output_rank = static_cast<int64_t>(offset_dims.size()) + expanded_rank - 1;
  for (int64_t d : offset_dims) {
    if (d < 0 || d >= output_rank) {
      return Fail(error, StrCat("Offset dimension ", d, " in gather op is out of bounds; should "
                                "have been in [0,", output_rank, ")."));
    }
  }
  if (static_cast<int64_t>(dnums.start_index_map.size()) != index_dim(ivd)) {
    return Fail(error, StrCat("Gather op has ", dnums.start_index_map.size(),
                              " elements in start_index_map and the bound of dimension "
                              "index_vector_dim=", ivd, " of start_indices is ", index_dim(ivd),
                              ". These two numbers must be equal."));
  }
  for (size_t i = 0; i < dnums.start_index_map.size(); ++i) {
    const int64_t d = dnums.start_index_map[i];
    if (d < 0 || d >= input.rank()) {
      return Fail(error, StrCat("Invalid start_index_map; domain is [0, ", input.rank(),
                                "), got: ", i, "->", d, "."));
    }
  }
  if (!AllUnique(dnums.start_index_map)) {
    return Fail(error, StrCat("Repeated dimensions are not allowed in start_index_map; got: ",
                              Join(dnums.start_index_map), "."));
  }
  for (const std::vector<int64_t>* dims : {&dnums.collapsed_slice_dims,
                                            &dnums.operand_batching_dims}) {
    for (int64_t d : *dims) {
      if (d < 0 || d >= input.rank()) {
        return Fail(error, StrCat("Invalid collapsed_slice_dims/operand_batching_dims set in "
                                  "gather op; valid range is [0, ", input.rank(), "), got: ", d,
                                  "."));
      }
    }
    if (!SortedUnique(*dims)) {
      return Fail(error, StrCat("collapsed_slice_dims/operand_batching_dims in gather op must "
                                "be sorted and unique; got: ", Join(*dims)));
    }
  }
  if (static_cast<int64_t>(slice_sizes.size()) != input.rank()) {
    return Fail(error, StrCat("Gather op must have one slice size for every input dimension; "
                              "got: len(slice_sizes)=", slice_sizes.size(), ", input_shape.rank=",
                              input.rank(), "."));
  }
  if (slice_sizes.size() != offset_dims.size() + dnums.collapsed_slice_dims.size() +
                                dnums.operand_batching_dims.size()) {
    return Fail(error, StrCat("All components of the offset index in a gather op must either be "
                              "a offset dimension or explicitly collapsed/batching; got "
                              "len(slice_sizes)=", slice_sizes.size(), ", output_slice_sizes=",
                              Join(offset_dims), ", collapsed_slice_dims=",
                              Join(dnums.collapsed_slice_dims), "."));
  }
  for (int i = 0; i < input.rank(); ++i) {
    if (slice_sizes[i] < 0 || slice_sizes[i] > input.dimensions[i]) {
      return Fail(error, StrCat("Slice size at index ", i, " in gather op is out of range, must "
                                "be within [0, ", input.dimensions[i] + 1, "), got ",
                                slice_sizes[i], "."));
    }
  }
  for (const std::vector<int64_t>* dims : {&dnums.collapsed_slice_dims,
                                            &dnums.operand_batching_dims}) {
    for (int64_t d : *dims) {
      if (slice_sizes[d] > 1) {
        return Fail(error, StrCat("Gather op can only collapse slice dims with bound 1 or 0, but "
                                  "bound is ", slice_sizes[d], " for index ", d, "."));
      }
    }
  }
  ResetArray(out, input.element_type);
  int64_t offset_seen = 0;
  int64_t gather_seen = 0;
  for (int64_t i = 0; i < output_rank; ++i) {
    if (Contains(offset_dims, i)) {
      while (Contains(dnums.collapsed_slice_dims, offset_seen) ||
             Contains(dnums.operand_batching_dims, offset_seen)) {
        ++offset_seen;
      }
      PushDim(out, slice_sizes[offset_seen], false);
      ++offset_seen;
    } else {
      if (gather_seen == ivd) ++gather_seen;
      PushDim(out, index_dim(gather_seen), false);
      ++gather_seen;
    }
  }
  return true;
}

bool InferScatterShape(std::span<const Shape* const> operands, const ScatterDimensionNumbers& dnums,
                       const ProgramShapeView& to_apply, Shape* out, std::string* error) {
  const size_t count = operands.size() / 2;
  if (count * 2 + 1 != operands.size() || count > 64) {
    return Fail(error, StrCat("Invalid argument count of scatter op: Expected ", count * 2 + 1,
                              ", saw ", operands.size()));
  }
  const Shape& indices = *operands[count];
  if (!ExpectArray(indices, "scatter indices of scatter op", error)) return false;
  if (!IsInteger(indices.element_type)) {
    return Fail(error, StrCat("Scatter indices parameter must be an integral tensor; got ",
                              HumanString(indices), "."));
  }
  const int64_t ivd = dnums.index_vector_dim;
  if (ivd < 0 || ivd > indices.rank()) {
    return Fail(error, StrCat("Scatter index leaf dimension must be within [0, "
                              "rank(scatter_indices) + 1). rank(scatter_indices) is ",
                              indices.rank(), " and scatter index leaf dimension is ", ivd, "."));
  }
  auto index_dim = [&](int64_t d) -> int64_t {
    return d < indices.rank() ? indices.dimensions[d] : 1;
  };
  const int64_t expanded_rank = std::max<int64_t>(indices.rank(), ivd + 1);
  for (size_t k = 0; k < count; ++k) {
    const Shape& operand = *operands[k];
    const Shape& updates = *operands[count + 1 + k];
    if (!ExpectArray(operand, StrCat("operand ", k, " of scatter op"), error) ||
        !ExpectArray(updates, StrCat("updates ", k, " of scatter op"), error)) {
      return false;
    }
    const int64_t expected_updates_rank =
        expanded_rank - 1 + static_cast<int64_t>(dnums.update_window_dims.size());
    if (updates.rank() != expected_updates_rank) {
      return Fail(error, StrCat("Updates tensor must be of rank ", expected_updates_rank,
                                "; got ", updates.rank(), "."));
    }
    if (!SortedUnique(dnums.update_window_dims)) {
      return Fail(error, StrCat("update_window_dims in scatter op must be sorted and unique; got: ",
                                Join(dnums.update_window_dims), "."));
    }
    for (int64_t d : dnums.update_window_dims) {
      if (d < 0 || d >= updates.rank()) {
        return Fail(error, StrCat("Invalid update_window_dims set in scatter op; valid range is "
                                  "[0, ", updates.rank(), "). got: ", d, "."));
      }
    }
    for (const std::vector<int64_t>* dims : {&dnums.inserted_window_dims,
                                              &dnums.input_batching_dims}) {
      if (!SortedUnique(*dims)) {
        return Fail(error, StrCat("inserted_window_dims/input_batching_dims in scatter op must be "
                                  "sorted and unique; got: ", Join(*dims), "."));
      }
      for (int64_t d : *dims) {
        if (d < 0 || d >= operand.rank()) {
          return Fail(error, StrCat("Invalid inserted_window_dims set in scatter op; valid range "
                                    "is [0, ", operand.rank(), "), got: ", d, "."));
        }
      }
    }
    const size_t window_size = dnums.update_window_dims.size() +
                               dnums.inserted_window_dims.size() +
                               dnums.input_batching_dims.size();
    if (static_cast<int64_t>(window_size) != operand.rank()) {
      return Fail(error, StrCat("Scatter op has window of size ", window_size,
                                "; doesn't match operand of rank ", operand.rank(), "."));
    }
    if (static_cast<int64_t>(dnums.scatter_dims_to_operand_dims.size()) != index_dim(ivd)) {
      return Fail(error, StrCat("Scatter op has ", dnums.scatter_dims_to_operand_dims.size(),
                                " elements in scatter_dims_to_operand_dims and the bound of "
                                "dimension index_vector_dim=", ivd, " of scatter_indices is ",
                                index_dim(ivd), ". These two numbers must be equal."));
    }
    for (size_t i = 0; i < dnums.scatter_dims_to_operand_dims.size(); ++i) {
      const int64_t d = dnums.scatter_dims_to_operand_dims[i];
      if (d < 0 || d >= operand.rank()) {
        return Fail(error, StrCat("Invalid scatter_dims_to_operand_dims mapping; domain is [0, ",
                                  operand.rank(), "), got: ", i, "->", d, "."));
      }
    }
    if (!AllUnique(dnums.scatter_dims_to_operand_dims)) {
      return Fail(error, StrCat("Repeated dimensions not allowed in "
                                "scatter_dims_to_operand_dims; got: ",
                                Join(dnums.scatter_dims_to_operand_dims), "."));
    }
    // Window dims of the update may not exceed the operand's non-inserted dims.
    size_t window_index = 0;
    for (int d = 0; d < operand.rank(); ++d) {
      if (Contains(dnums.inserted_window_dims, d) || Contains(dnums.input_batching_dims, d)) {
        continue;
      }
      if (window_index >= dnums.update_window_dims.size()) break;
      const int64_t update_dim = dnums.update_window_dims[window_index++];
      if (updates.dimensions[update_dim] > operand.dimensions[d]) {
        return Fail(error, StrCat("Bounds of the window dimensions of updates must not exceed the "
                                  "bounds of the corresponding dimensions of operand. For "
                                  "dimension ", update_dim, ", updates bound is ",
                                  updates.dimensions[update_dim], ", operand bound is ",
                                  operand.dimensions[d], "."));
      }
    }
    int64_t scatter_seen = 0;
    for (int64_t i = 0; i < updates.rank(); ++i) {
      if (Contains(dnums.update_window_dims, i)) continue;
      if (scatter_seen == ivd) ++scatter_seen;
      if (updates.dimensions[i] != index_dim(scatter_seen)) {
        return Fail(error, StrCat("Bounds of the scatter dimensions of updates must be same as "
                                  "the bounds of the corresponding dimensions of scatter indices. "
                                  "For scatter dimension ", i, ", updates bound is ",
                                  updates.dimensions[i], ", scatter_indices bound is ",
                                  index_dim(scatter_seen), "."));
      }
      ++scatter_seen;
    }
  }
  // Only `count` shapes: a Shape is large, and 64 of them cost ~20,000
  // instructions to build and destroy for every scatter.
  absl::InlinedVector<Shape, 2> init_shapes(count);
  const Shape* init_ptrs[64];
  PrimitiveType update_types[64];
  for (size_t k = 0; k < count; ++k) {
    init_shapes[k].element_type = operands[k]->element_type;
    init_ptrs[k] = &init_shapes[k];
    update_types[k] = operands[count + 1 + k]->element_type;
  }
  if (!VerifyReducerShape(to_apply, std::span<const Shape* const>(init_ptrs, count),
                          std::span<const PrimitiveType>(update_types, count),
                          static_cast<int64_t>(count), error)) {
    return false;
  }
  if (count == 1) {
    CopyShape(*operands[0], out);
  } else {
    InferTupleShape(operands.first(count), out);
  }
  return true;
}

bool InferTopKShape(const Shape& operand, int64_t k, ShapeArena& arena, Shape* out,
                    std::string* error) {
  if (!ExpectArray(operand, "operand of top-k operation", error)) return false;
  if (operand.rank() == 0) return Fail(error, "top-k needs an operand of rank >= 1");
  if (operand.dimensions.back() < k) {
    return Fail(error, StrCat("k=", k, " is larger than the last dimension of size=",
                              operand.dimensions.back()));
  }
  Shape& values = arena.New();
  CopyShape(operand, &values);
  values.dimensions.back() = k;
  if (!values.dynamic_dimensions.empty()) values.dynamic_dimensions.back() = 0;
  Shape& indices = arena.New();
  CopyShape(values, &indices);
  indices.element_type = PrimitiveType::kS32;
  ResetArray(out, PrimitiveType::kTuple);
  out->tuple_shapes = {&values, &indices};
  return true;
}

bool InferCholeskyShape(const Shape& a, Shape* out, std::string* error) {
  if (!IsFloatingPoint(a.element_type) && !IsComplex(a.element_type)) {
    return Fail(error, StrCat("Expected element type in shape to be floating or complex for "
                              "Cholesky; got ", TypeName(a.element_type), "."));
  }
  if (a.rank() < 2) {
    return Fail(error, StrCat("The 'a' argument to Cholesky must have rank >= 2, got shape ",
                              HumanString(a)));
  }
  if (a.dimensions[a.rank() - 2] != a.dimensions[a.rank() - 1]) {
    return Fail(error, StrCat("The two minor dimensions of 'a' must have equal size, got ",
                              HumanString(a), "."));
  }
  CopyShape(a, out);
  return true;
}

bool InferTriangularSolveShape(const Shape& a, const Shape& b, bool left_side, Shape* out,
                               std::string* error) {
  if ((!IsFloatingPoint(a.element_type) && !IsComplex(a.element_type)) ||
      a.element_type != b.element_type) {
    return Fail(error, StrCat("Expected element types in shape to be floating or complex and "
                              "identical for TriangularSolve; got ", TypeName(a.element_type),
                              " and ", TypeName(b.element_type), "."));
  }
  if (a.rank() < 2) {
    return Fail(error, StrCat("The 'a' argument to TriangularSolve must have rank >= 2, got "
                              "shape ", HumanString(a)));
  }
  if (b.rank() != a.rank()) {
    return Fail(error, StrCat("Arguments to triangular solve must have equal rank; got ",
                              HumanString(b), " and ", HumanString(a), "."));
  }
  const int r = a.rank();
  if (a.dimensions[r - 2] != a.dimensions[r - 1]) {
    return Fail(error, StrCat("The two minor dimensions of 'a' must have equal size, got ",
                              HumanString(a), "."));
  }
  if (a.dimensions[r - 1] != b.dimensions[r - (left_side ? 2 : 1)]) {
    return Fail(error, StrCat("The shared dimension of 'a' and 'b' does not match, got shapes ",
                              HumanString(a), " and ", HumanString(b)));
  }
  for (int i = 0; i < r - 2; ++i) {
    if (a.dimensions[i] != b.dimensions[i]) {
      return Fail(error, StrCat("The leading batch dimensions of the arguments to triangular "
                                "solve must be equal; got ", HumanString(b), " and ",
                                HumanString(a), "."));
    }
  }
  CopyShape(b, out);
  return true;
}

bool InferFftShape(const Shape& in, std::string_view fft_type, std::span<const int64_t> fft_length,
                   Shape* out, std::string* error) {
  const int64_t fft_rank = static_cast<int64_t>(fft_length.size());
  if (fft_rank < 1 || fft_rank > 3) {
    return Fail(error, StrCat("FFT only supports ranks 1-3; got ", fft_rank, "."));
  }
  if (in.rank() < fft_rank) {
    return Fail(error, StrCat("FFT of rank ", fft_rank, " requires input of at least same rank; "
                              "got input of rank ", in.rank()));
  }
  const int r = in.rank();
  CopyShape(in, out);
  if (fft_type == "FFT" || fft_type == "IFFT") {
    if (!IsComplex(in.element_type)) {
      return Fail(error, StrCat(fft_type, " requires complex input type, found ",
                                TypeName(in.element_type), "."));
    }
    return true;
  }
  if (fft_type == "RFFT") {
    if (in.element_type != PrimitiveType::kF32 && in.element_type != PrimitiveType::kF64) {
      return Fail(error, StrCat("RFFT requires F32 or F64 input type, found ",
                                TypeName(in.element_type), "."));
    }
    for (int64_t i = 0; i < fft_rank; ++i) {
      if (in.dimensions[r - fft_rank + i] != fft_length[i]) {
        return Fail(error, StrCat("RFFT requires innermost dimensions match fft_length but "
                                  "dimension ", r - fft_rank + i, " is ",
                                  in.dimensions[r - fft_rank + i], " and should be ",
                                  fft_length[i], "."));
      }
    }
    out->element_type =
        in.element_type == PrimitiveType::kF32 ? PrimitiveType::kC64 : PrimitiveType::kC128;
    if (fft_length.back() != 0) out->dimensions.back() = fft_length.back() / 2 + 1;
    return true;
  }
  if (fft_type == "IRFFT") {
    if (!IsComplex(in.element_type)) {
      return Fail(error, StrCat("IRFFT requires complex input type, found ",
                                TypeName(in.element_type), "."));
    }
    out->element_type =
        in.element_type == PrimitiveType::kC64 ? PrimitiveType::kF32 : PrimitiveType::kF64;
    for (int64_t i = 0; i + 1 < fft_rank; ++i) {
      if (in.dimensions[r - fft_rank + i] != fft_length[i]) {
        return Fail(error, StrCat("IRFFT requires all but one innermost dimensions match "
                                  "fft_length, but dimension ", r - fft_rank + i, " is ",
                                  in.dimensions[r - fft_rank + i], " and should be ",
                                  fft_length[i], "."));
      }
    }
    const int64_t last = in.dimensions.back();
    if ((last != 0 || fft_length.back() != 0) && last != fft_length.back() / 2 + 1) {
      return Fail(error, StrCat("IRFFT requires innermost dimension matches fft_length/2+1, but "
                                "dimension ", r - 1, " is ", last, " and should be ",
                                fft_length.back() / 2 + 1, "."));
    }
    out->dimensions.back() = fft_length.back();
    return true;
  }
  return true;  // unknown fft_type: the parser reports it
}

bool InferBatchNormShape(Opcode opcode, std::span<const Shape* const> operands,
                         int64_t feature_index, ShapeArena& arena, Shape* out,
                         std::string* error) {
  const Shape& operand = *operands[0];
  const char* name = opcode == Opcode::kBatchNormTraining    ? "batch-norm-training"
                     : opcode == Opcode::kBatchNormInference ? "batch-norm-inference"
                                                             : "batch-norm-grad";
  for (const Shape* shape : operands) {
    if (!ExpectArray(*shape, StrCat("operand of ", name), error)) return false;
  }
  if (feature_index < 0 || feature_index >= operand.rank()) {
    return Fail(error, StrCat("Expected feature_index of ", name, " to be in [0, rank); got ",
                              feature_index, " for rank ", operand.rank(), "."));
  }
  if (!IsFloatingPoint(operand.element_type)) {
    return Fail(error, StrCat("The operand to ", name, " must have a floating point element "
                              "type, but the shape is ", TypeName(operand.element_type), "."));
  }
  const int64_t features = operand.dimensions[feature_index];
  // Operands that are per-feature vectors: training {1,2}, inference {1..4},
  // grad {1,2,3}; grad's operand 4 is the output gradient.
  const size_t vectors_end = opcode == Opcode::kBatchNormGrad ? 4 : operands.size();
  for (size_t i = 1; i < operands.size(); ++i) {
    const Shape& shape = *operands[i];
    if (!SameElementTypeIgnoringFpPrecision(shape.element_type, operand.element_type)) {
      return Fail(error, StrCat("The inputs should have the same element type for ", name, "."));
    }
    if (i < vectors_end) {
      if (shape.rank() != 1) {
        return Fail(error, StrCat("Operand ", i, " of ", name, " must have rank 1, but has rank ",
                                  shape.rank(), "."));
      }
      if (shape.dimensions[0] != features) {
        return Fail(error, StrCat("The size of operand ", i, " of ", name, " should be the same "
                                  "as feature count, but is ", shape.dimensions[0],
                                  " and the feature count is ", features, "."));
      }
    } else if (shape.dimensions != operand.dimensions) {
      return Fail(error, StrCat("The bounds of operand shape should be the same as "
                                "output_grad's for ", name, "."));
    }
  }
  if (opcode == Opcode::kBatchNormInference) {
    CopyShape(operand, out);
    return true;
  }
  Shape& feature = arena.New();
  ResetArray(&feature, operand.element_type);
  feature.dimensions.push_back(features);
  ResetArray(out, PrimitiveType::kTuple);
  out->tuple_shapes = {&operand, &feature, &feature};
  return true;
}

bool InferAllGatherShape(std::span<const Shape* const> operands, int64_t dimension,
                         int64_t shard_count, ShapeArena& arena, Shape* out, std::string* error) {
  if (dimension < 0 || shard_count <= 0 || operands.empty()) {
    return Fail(error, "all-gather needs a non-negative dimension and a positive shard count");
  }
  Shape* single = operands.size() == 1 ? out : nullptr;
  if (!single) ResetArray(out, PrimitiveType::kTuple);
  for (const Shape* operand : operands) {
    if (!ExpectArray(*operand, "operand of all-gather", error)) return false;
    if (dimension >= operand->rank()) {
      return Fail(error, StrCat("all-gather dimension ", dimension, " is out of range for ",
                                HumanString(*operand)));
    }
    Shape* shape = single ? single : &arena.New();
    CopyShape(*operand, shape);
    shape->dimensions[dimension] *= shard_count;
    if (!single) out->tuple_shapes.push_back(shape);
  }
  return true;
}

bool InferReduceScatterShape(std::span<const Shape* const> operands, int64_t dimension,
                             int64_t shard_count, ShapeArena& arena, Shape* out,
                             std::string* error) {
  if (dimension < 0 || shard_count <= 0 || operands.empty()) {
    return Fail(error, "reduce-scatter needs a non-negative dimension and a positive shard count");
  }
  Shape* single = operands.size() == 1 ? out : nullptr;
  if (!single) ResetArray(out, PrimitiveType::kTuple);
  for (const Shape* operand : operands) {
    if (!ExpectArray(*operand, "operand of reduce-scatter", error)) return false;
    if (dimension >= operand->rank()) {
      return Fail(error, StrCat("reduce-scatter dimension ", dimension, " is out of range for ",
                                HumanString(*operand)));
    }
    if (operand->dimensions[dimension] % shard_count != 0) {
      return Fail(error, StrCat("ReduceScatter operand scatter dimension size ",
                                operand->dimensions[dimension],
                                " must be dividable by shard_count ", shard_count, "."));
    }
    Shape* shape = single ? single : &arena.New();
    CopyShape(*operand, shape);
    shape->dimensions[dimension] /= shard_count;
    if (!single) out->tuple_shapes.push_back(shape);
  }
  return true;
}

bool InferAllReduceShape(std::span<const Shape* const> operands, Shape* out, std::string* error) {
  for (const Shape* operand : operands) {
    if (!ExpectArray(*operand, "operand of cross replica sum", error)) return false;
  }
  if (operands.size() == 1) {
    CopyShape(*operands[0], out);
  } else {
    InferTupleShape(operands, out);
  }
  return true;
}

bool InferAllToAllShape(const Shape& operand, int64_t split_dimension, int64_t split_count,
                        Shape* out, std::string* error) {
  if (!ExpectArray(operand, "operand of all-to-all", error)) return false;
  if (split_count <= 0) return Fail(error, "all-to-all split count must be positive");
  if (split_dimension < 0 || split_dimension >= operand.rank()) {
    return Fail(error, StrCat("AllToAll split_dimension ", split_dimension,
                              " is out-of-bounds in shape ", HumanString(operand), "."));
  }
  if (operand.dimensions[split_dimension] % split_count != 0) {
    return Fail(error, StrCat("AllToAll split dimension size ",
                              operand.dimensions[split_dimension],
                              " must be dividable by split_count ", split_count, "."));
  }
  CopyShape(operand, out);
  return true;
}

bool InferAllToAllTupleShape(std::span<const Shape* const> operands, Shape* out,
                             std::string* error) {
  if (operands.empty()) return Fail(error, "all-to-all needs at least one operand");
  // XLA compares layouts too (Shape::Equal); logical shapes are what the
  // operation needs, and translation tests mix layouts.
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!Compatible(*operands[0], *operands[i])) {
      return Fail(error, StrCat("HLO all-to-all has operands with different shapes: the 0th "
                                "operand shape ", ShapeToString(*operands[0]), ", but the ", i,
                                "th operand has shape ", ShapeToString(*operands[i])));
    }
  }
  InferTupleShape(operands, out);
  return true;
}

}  // namespace hlolint
