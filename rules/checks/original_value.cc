// Whether an `origin={...}` original value has the tuple structure of the
// instruction's shape (XLA's VerifyOriginalValue), read from the text.
#include "rules/checks/original_value.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>

namespace hlolint {
namespace {

// Skips a "..." string starting at text[i] == '"'; returns the index after it.
size_t SkipString(std::string_view text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return text.size();
}

void SkipSpace(std::string_view text, size_t& i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' ||
                             text[i] == '\r')) {
    ++i;
  }
}

// Collects the leaf indices of the node at text[i] under `index`. Returns
// false when the text is not understood.
bool CollectValueLeaves(std::string_view text, size_t& i, ShapeIndex& index,
                        std::vector<ShapeIndex>& leaves, int depth) {
  if (depth > 64) return false;
  SkipSpace(text, i);
  if (i >= text.size()) return false;
  if (text[i] == '(') {
    ++i;
    SkipSpace(text, i);
    if (i < text.size() && text[i] == ')') {
      ++i;
      return true;
    }
    for (int64_t child = 0;; ++child) {
      index.push_back(child);
      const bool understood = CollectValueLeaves(text, i, index, leaves, depth + 1);
      index.pop_back();
      if (!understood) return false;
      SkipSpace(text, i);
      if (i < text.size() && text[i] == ',') {
        ++i;
        continue;
      }
      if (i < text.size() && text[i] == ')') {
        ++i;
        return true;
      }
      return false;
    }
  }
  if (text[i] != '{') return false;
  // A leaf: {} or {"name" {index}}.
  int nesting = 0;
  for (; i < text.size(); ++i) {
    if (text[i] == '"') {
      i = SkipString(text, i) - 1;
    } else if (text[i] == '[') {
      return false;  // {[synthetic_call]}: no tree at all
    } else if (text[i] == '{') {
      ++nesting;
    } else if (text[i] == '}') {
      if (--nesting == 0) {
        ++i;
        break;
      }
    }
  }
  leaves.push_back(index);
  return true;
}

// ShapeUtil::ForEachLeafShape: every subshape that is not a tuple.
void CollectShapeLeaves(const Shape& shape, ShapeIndex& index, std::vector<ShapeIndex>& leaves,
                        int depth) {
  if (!shape.IsTuple()) {
    leaves.push_back(index);
    return;
  }
  if (depth > 64) return;
  for (size_t i = 0; i < shape.tuple_shapes.size(); ++i) {
    index.push_back(static_cast<int64_t>(i));
    CollectShapeLeaves(*shape.tuple_shapes[i], index, leaves, depth + 1);
    index.pop_back();
  }
}

std::vector<ShapeIndex> Missing(const std::vector<ShapeIndex>& from,
                                const std::vector<ShapeIndex>& in) {
  std::vector<ShapeIndex> out;
  std::set_difference(from.begin(), from.end(), in.begin(), in.end(), std::back_inserter(out));
  return out;
}

}  // namespace

std::optional<OriginalValueMismatch> CompareOriginalValue(std::string_view text,
                                                          const Shape& shape) {
  size_t i = 0;
  SkipSpace(text, i);
  if (i >= text.size() || text[i] != '{') return std::nullopt;
  ++i;
  ShapeIndex index;
  std::vector<ShapeIndex> value_leaves;
  if (!CollectValueLeaves(text, i, index, value_leaves, 0)) return std::nullopt;
  std::vector<ShapeIndex> shape_leaves;
  CollectShapeLeaves(shape, index, shape_leaves, 0);
  std::sort(value_leaves.begin(), value_leaves.end());
  value_leaves.erase(std::unique(value_leaves.begin(), value_leaves.end()), value_leaves.end());
  std::sort(shape_leaves.begin(), shape_leaves.end());
  if (value_leaves == shape_leaves) return std::nullopt;
  return OriginalValueMismatch{Missing(shape_leaves, value_leaves),
                               Missing(value_leaves, shape_leaves)};
}

std::string ShapeIndicesToString(const std::vector<ShapeIndex>& indices) {
  std::string out;
  for (const ShapeIndex& index : indices) {
    if (!out.empty()) out += ", ";
    out += ShapeIndexToString(index);
  }
  return out;
}

}  // namespace hlolint
