// Whether an `origin={...}` original value has the tuple structure of the
// instruction's shape (XLA's VerifyOriginalValue), read from the text.
#include "rules/checks/original_value.h"

#include <cstddef>

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

// Matches one node at text[i]; `ok` becomes false on a structural mismatch.
// Returns false when the text is not understood.
bool MatchNode(std::string_view text, size_t& i, const Shape& shape, bool& ok, int depth) {
  if (depth > 64) return false;
  SkipSpace(text, i);
  if (i >= text.size()) return false;
  if (text[i] == '(') {
    ++i;
    size_t children = 0;
    SkipSpace(text, i);
    if (i < text.size() && text[i] == ')') {
      ++i;
    } else {
      while (true) {
        const Shape* element = shape.IsTuple() && children < shape.tuple_shapes.size()
                                   ? shape.tuple_shapes[children]
                                   : nullptr;
        static const Shape kLeaf = [] {
          Shape s;
          s.element_type = PrimitiveType::kF32;
          return s;
        }();
        if (!MatchNode(text, i, element ? *element : kLeaf, ok, depth + 1)) return false;
        ++children;
        SkipSpace(text, i);
        if (i < text.size() && text[i] == ',') {
          ++i;
          continue;
        }
        if (i < text.size() && text[i] == ')') {
          ++i;
          break;
        }
        return false;
      }
    }
    if (!shape.IsTuple() || children != shape.tuple_shapes.size()) ok = false;
    return true;
  }
  if (text[i] == '{') {
    // A leaf: {} or {"name" {index}}.
    int nesting = 0;
    for (; i < text.size(); ++i) {
      if (text[i] == '"') {
        i = SkipString(text, i) - 1;
      } else if (text[i] == '{') {
        ++nesting;
      } else if (text[i] == '}') {
        if (--nesting == 0) {
          ++i;
          break;
        }
      }
    }
    if (shape.IsTuple()) ok = false;
    return true;
  }
  return false;
}

}  // namespace

bool OriginalValueMatchesShape(std::string_view text, const Shape& shape) {
  size_t i = 0;
  SkipSpace(text, i);
  if (i >= text.size() || text[i] != '{') return true;
  ++i;
  bool ok = true;
  if (!MatchNode(text, i, shape, ok, 0)) return true;
  return ok;
}

}  // namespace hlolint
