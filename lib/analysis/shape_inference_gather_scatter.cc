// Shape inference of gather and scatter
// (xla/service/shape_inference.cc: InferGatherShape, InferScatterShape).
#include "analysis/shape_inference.h"
#include "analysis/shape_inference_util.h"

namespace hlolint {

using namespace inference_internal;

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
  // Only `count` shapes: a Shape is large, and building and destroying a
  // fixed 64 of them for every scatter would cost more than the check.
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

}  // namespace hlolint
