// Shape inference of reductions, windows and the ops that call a
// computation per element: the reducer check, reduce, reduce-window,
// select-and-scatter, map and sort (xla/service/shape_inference.cc:
// VerifyReducerShape, InferReduceShape, InferWindowOutputShape, ...).
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

}  // namespace hlolint
