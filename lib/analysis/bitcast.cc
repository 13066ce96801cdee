#include "analysis/bitcast.h"

#include <algorithm>

#include "util/strings.h"

namespace hlolint {
namespace {

// True when `shape` is an array whose dimensions are known sizes, whose
// element count fits int64 and whose layout (written or default) is a
// permutation of its dimensions: the shapes the functions below can reason
// about without XLA's CHECKs.
bool IsWellFormedArray(const Shape& shape) {
  if (!shape.IsArray() || !ElementCount(shape).has_value()) return false;
  if (!shape.has_layout) return true;
  const std::vector<int64_t>& m2m = shape.layout.minor_to_major;
  if (m2m.size() != shape.dimensions.size()) return false;
  std::vector<bool> seen(m2m.size(), false);
  for (int64_t d : m2m) {
    if (d < 0 || d >= static_cast<int64_t>(m2m.size()) || seen[d]) return false;
    seen[d] = true;
  }
  return true;
}

bool HasDegenerateDimensions(const Shape& shape) {
  return std::find(shape.dimensions.begin(), shape.dimensions.end(), 1) !=
         shape.dimensions.end();
}

// ShapeUtil::DropDegenerateDimensions: size-1 dimensions removed, the layout
// renumbered accordingly.
Shape DropDegenerateDimensions(const Shape& shape) {
  std::vector<int64_t> new_number(shape.dimensions.size(), -1);
  Shape out = shape;
  out.dimensions.clear();
  out.dynamic_dimensions.clear();
  for (size_t d = 0; d < shape.dimensions.size(); ++d) {
    if (shape.dimensions[d] == 1) continue;
    new_number[d] = static_cast<int64_t>(out.dimensions.size());
    out.dimensions.push_back(shape.dimensions[d]);
    if (!shape.dynamic_dimensions.empty()) {
      out.dynamic_dimensions.push_back(shape.dynamic_dimensions[d]);
    }
  }
  std::vector<int64_t> m2m;
  for (int64_t d : MinorToMajor(shape)) {
    if (new_number[d] >= 0) m2m.push_back(new_number[d]);
  }
  return WithLayout(out, std::move(m2m));
}

// One direction of ReshapeIsBitcast's check (`check_input_unit_indices`):
// every unit index of `from` must land on the same physical offset in `to`.
bool UnitIndicesAgree(const Shape& from, const Shape& to, bool from_is_output,
                      ReshapeBitcastCheck* check) {
  std::vector<int64_t> unit(from.dimensions.size(), 0);
  for (size_t d = 0; d < from.dimensions.size(); ++d) {
    if (from.dimensions[d] <= 1) continue;
    unit[d] = 1;
    const int64_t logical = LogicalOffset(from.dimensions, unit);
    std::vector<int64_t> other = LogicalIndex(to.dimensions, logical);
    const int64_t from_physical = PhysicalOffset(from, unit);
    const int64_t to_physical = PhysicalOffset(to, other);
    if (from_physical != to_physical) {
      check->verdict = ReshapeBitcastCheck::Verdict::kUnitIndexMoves;
      check->unit_of_output = from_is_output;
      check->dimension = static_cast<int64_t>(d);
      check->unit_index = unit;
      check->other_index = std::move(other);
      check->logical_offset = logical;
      check->unit_physical = from_physical;
      check->other_physical = to_physical;
      return false;
    }
    unit[d] = 0;
  }
  return true;
}

}  // namespace

std::vector<int64_t> MinorToMajor(const Shape& shape) {
  if (shape.has_layout && shape.layout.minor_to_major.size() == shape.dimensions.size()) {
    return shape.layout.minor_to_major;
  }
  std::vector<int64_t> m2m;
  for (int64_t d = shape.rank() - 1; d >= 0; --d) m2m.push_back(d);
  return m2m;
}

std::string MinorToMajorString(std::span<const int64_t> minor_to_major) {
  return StrCat("{", StrJoin(minor_to_major, ","), "}");
}

Shape WithLayout(const Shape& shape, std::vector<int64_t> minor_to_major) {
  Shape out = shape;
  out.id = kNoShape;
  out.has_layout = true;
  out.layout = Layout();
  out.layout.minor_to_major = std::move(minor_to_major);
  return out;
}

Shape WithDescendingLayout(const Shape& shape) {
  std::vector<int64_t> m2m;
  for (int64_t d = shape.rank() - 1; d >= 0; --d) m2m.push_back(d);
  return WithLayout(shape, std::move(m2m));
}

int64_t PhysicalOffset(const Shape& shape, std::span<const int64_t> index) {
  int64_t offset = 0;
  int64_t stride = 1;
  for (int64_t d : MinorToMajor(shape)) {
    offset += index[d] * stride;
    stride *= shape.dimensions[d];
  }
  return offset;
}

int64_t LogicalOffset(std::span<const int64_t> dims, std::span<const int64_t> index) {
  int64_t offset = 0;
  for (size_t d = 0; d < dims.size(); ++d) offset = offset * dims[d] + index[d];
  return offset;
}

std::vector<int64_t> LogicalIndex(std::span<const int64_t> dims, int64_t offset) {
  std::vector<int64_t> index(dims.size(), 0);
  for (size_t i = dims.size(); i-- > 0;) {
    if (dims[i] <= 0) continue;
    index[i] = offset % dims[i];
    offset /= dims[i];
  }
  return index;
}

std::vector<int64_t> ComposePermutations(std::span<const int64_t> p1,
                                         std::span<const int64_t> p2) {
  std::vector<int64_t> out;
  out.reserve(p2.size());
  for (int64_t i : p2) out.push_back(p1[i]);
  return out;
}

std::vector<int64_t> InversePermutation(std::span<const int64_t> permutation) {
  std::vector<int64_t> out(permutation.size());
  for (size_t i = 0; i < permutation.size(); ++i) out[permutation[i]] = static_cast<int64_t>(i);
  return out;
}

std::vector<std::pair<int64_t, int64_t>> CommonFactors(std::span<const int64_t> a,
                                                       std::span<const int64_t> b) {
  auto product = [](std::span<const int64_t> xs) {
    int64_t p = 1;
    for (int64_t x : xs) p *= x;
    return p;
  };
  const int64_t na = static_cast<int64_t>(a.size());
  const int64_t nb = static_cast<int64_t>(b.size());
  std::vector<std::pair<int64_t, int64_t>> bounds;
  if (std::equal(a.begin(), a.end(), b.begin(), b.end())) {
    for (int64_t i = 0; i <= na; ++i) bounds.emplace_back(i, i);
    return bounds;
  }
  int64_t i = 0, j = 0, prior_i = -1, prior_j = -1;
  while (i < na && j < nb && a[i] == b[j]) {
    prior_i = i;
    prior_j = j;
    bounds.emplace_back(i, j);
    ++i;
    ++j;
  }
  // Different products after the common prefix (zeros): one group for all.
  if (product(a.subspan(i)) != product(b.subspan(j))) return {{0, 0}, {na, nb}};
  if (product(a.subspan(i)) == 0) {
    bounds.emplace_back(i, j);
    bounds.emplace_back(na, nb);
    return bounds;
  }
  for (int64_t partial_a = 1, partial_b = 1;;) {
    if (partial_a == partial_b && (i > prior_i || j > prior_j)) {
      prior_i = i;
      prior_j = j;
      bounds.emplace_back(i, j);
      continue;
    }
    const bool in_i = i < na;
    const bool in_j = j < nb;
    if (!(in_i || in_j)) break;
    const bool next_a =
        partial_a < partial_b || (in_i && (!in_j || (partial_a == partial_b && a[i] <= b[j])));
    const bool next_b =
        partial_b < partial_a || (in_j && (!in_i || (partial_b == partial_a && b[j] <= a[i])));
    if (next_a) partial_a *= a[i++];
    if (next_b) partial_b *= b[j++];
  }
  return bounds;
}

ReshapeBitcastCheck CheckReshapeIsBitcast(const Shape& input, const Shape& output,
                                          bool ignore_element_type) {
  using Verdict = ReshapeBitcastCheck::Verdict;
  ReshapeBitcastCheck check;
  if (!IsWellFormedArray(input) || !IsWellFormedArray(output)) {
    check.verdict = Verdict::kUnsupported;
    return check;
  }
  if (!ignore_element_type && input.element_type != output.element_type) {
    check.verdict = Verdict::kElementTypeDiffers;
    return check;
  }
  const int64_t elements = *ElementCount(input);
  if (elements != *ElementCount(output)) {
    check.verdict = Verdict::kElementCountDiffers;
    return check;
  }
  if (elements == 0) return check;
  if (!UnitIndicesAgree(input, output, /*from_is_output=*/false, &check)) return check;
  UnitIndicesAgree(output, input, /*from_is_output=*/true, &check);
  return check;
}

bool ReshapeIsBitcast(const Shape& input, const Shape& output, bool ignore_element_type) {
  return CheckReshapeIsBitcast(input, output, ignore_element_type).is_bitcast();
}

std::optional<Shape> AlignLayouts(const Shape& input, const Shape& output) {
  if (!IsWellFormedArray(input) || !IsWellFormedArray(output)) return std::nullopt;
  if (*ElementCount(input) != *ElementCount(output)) return std::nullopt;
  // Size-1 dimensions can go anywhere: solve without them, then put the
  // output's ones back as the most major dimensions, highest number first.
  if (HasDegenerateDimensions(input) || HasDegenerateDimensions(output)) {
    std::optional<Shape> simple =
        AlignLayouts(DropDegenerateDimensions(input), DropDegenerateDimensions(output));
    if (!simple) return std::nullopt;
    std::vector<int64_t> dim_map;
    for (int64_t d = 0; d < output.rank(); ++d) {
      if (output.dimensions[d] != 1) dim_map.push_back(d);
    }
    std::vector<int64_t> m2m = simple->layout.minor_to_major;
    for (int64_t& d : m2m) d = dim_map[d];
    for (int64_t d = output.rank() - 1; d >= 0; --d) {
      if (output.dimensions[d] == 1) m2m.push_back(d);
    }
    return WithLayout(output, std::move(m2m));
  }

  const std::vector<std::pair<int64_t, int64_t>> factors =
      CommonFactors(input.dimensions, output.dimensions);
  const std::vector<int64_t> input_m2m = MinorToMajor(input);
  const int64_t input_rank = input.rank();
  std::vector<int64_t> input_to_factor(input_rank, 0);
  // Every group's input dimensions must be adjacent in memory, in logical
  // order (dimension i+1 immediately more minor than dimension i).
  for (size_t pos = 0; pos + 1 < factors.size(); ++pos) {
    const int64_t input_start = factors[pos].first;
    const int64_t input_end = factors[pos + 1].first;
    if (input_start >= input_rank) continue;  // an empty trailing group
    int64_t physical = static_cast<int64_t>(
        std::find(input_m2m.begin(), input_m2m.end(), input_start) - input_m2m.begin());
    input_to_factor[input_start] = static_cast<int64_t>(pos);
    for (int64_t i = input_start + 1; i < input_end; ++i) {
      --physical;
      if (physical < 0 || input_m2m[physical] != i) return std::nullopt;
      input_to_factor[i] = static_cast<int64_t>(pos);
    }
  }
  // Walk the input from most minor; each group contributes its output
  // dimensions, highest number (most minor) first.
  const int64_t output_rank = output.rank();
  std::vector<int64_t> output_m2m;
  int64_t input_minor = 0;
  while (static_cast<int64_t>(output_m2m.size()) < output_rank) {
    if (input_minor >= input_rank) return std::nullopt;
    const int64_t factor = input_to_factor[input_m2m[input_minor]];
    const auto [start_in, start_out] = factors[factor];
    const auto [end_in, end_out] = factors[factor + 1];
    for (int64_t d = end_out - 1; d >= start_out; --d) output_m2m.push_back(d);
    if (end_in <= start_in) return std::nullopt;  // cannot happen without size-1 dims
    input_minor += end_in - start_in;
  }
  if (static_cast<int64_t>(output_m2m.size()) != output_rank) return std::nullopt;
  Shape aligned = WithLayout(output, std::move(output_m2m));
  aligned.dynamic_dimensions.clear();  // MakeShapeWithDenseLayout drops them
  return aligned;
}

bool TransposeIsBitcast(const Shape& input, const Shape& output,
                        std::span<const int64_t> dimension_mapping, bool ignore_element_type) {
  if (!IsWellFormedArray(input) || !IsWellFormedArray(output)) return false;
  if (!ignore_element_type && input.element_type != output.element_type) return false;
  const std::vector<int64_t> output_m2m = MinorToMajor(output);
  if (dimension_mapping.size() != output_m2m.size() ||
      input.dimensions.size() != output_m2m.size()) {
    return false;
  }
  for (int64_t d : dimension_mapping) {
    if (d < 0 || d >= static_cast<int64_t>(dimension_mapping.size())) return false;
  }
  return ComposePermutations(dimension_mapping, output_m2m) == MinorToMajor(input);
}

std::optional<std::vector<int64_t>> DeduceTransposeDimensionsForBitcast(const Shape& input,
                                                                        const Shape& output) {
  if (!IsWellFormedArray(input) || !IsWellFormedArray(output)) return std::nullopt;
  if (input.rank() != output.rank()) return std::nullopt;
  const std::vector<int64_t> output_m2m = MinorToMajor(output);
  std::vector<int64_t> permutation =
      ComposePermutations(MinorToMajor(input), InversePermutation(output_m2m));
  if (ComposePermutations(input.dimensions, permutation) != output.dimensions) {
    return std::nullopt;
  }
  return permutation;
}

ReshapeDecomposition DecomposeReshape(const Shape& operand, const Shape& result) {
  using Kind = ReshapeDecomposition::Kind;
  ReshapeDecomposition out;
  if (ReshapeIsBitcast(result, operand)) return out;
  if (std::optional<Shape> aligned_operand = AlignLayouts(result, operand)) {
    out.kind = Kind::kCopyOperand;
    out.operand_copy = std::move(aligned_operand);
  } else if (std::optional<Shape> aligned_result = AlignLayouts(operand, result)) {
    out.kind = Kind::kCopyResult;
    out.bitcast_result = std::move(aligned_result);
  } else {
    out.kind = Kind::kCopyBoth;
    out.operand_copy = WithDescendingLayout(operand);
    out.bitcast_result = WithDescendingLayout(result);
  }
  return out;
}

}  // namespace hlolint
