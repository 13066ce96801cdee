// Shape inference of top-k, Cholesky, triangular solve, FFT and batch norm
// (xla/service/shape_inference.cc: InferTopKShape, InferCholeskyShape, ...).
#include "analysis/shape_inference.h"
#include "analysis/shape_inference_util.h"

namespace hlolint {

using namespace inference_internal;

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

}  // namespace hlolint
