// Shape inference of the collectives: all-gather, reduce-scatter,
// all-reduce, all-to-all (xla/service/shape_inference.cc).
#include "analysis/shape_inference.h"
#include "analysis/shape_inference_util.h"

namespace hlolint {

using namespace inference_internal;

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
