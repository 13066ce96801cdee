// Shape inference of the contractions: dot and convolution
// (xla/service/shape_inference.cc: InferDotOpShape, InferConvolveShape).
#include "analysis/shape_inference.h"
#include "analysis/shape_inference_util.h"

namespace hlolint {

using namespace inference_internal;

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

}  // namespace hlolint
