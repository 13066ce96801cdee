// Shape builders for the shape inference unit tests.
#pragma once

#include <initializer_list>
#include <vector>

#include "analysis/shape_inference.h"

namespace hlolint::testing {

// Owns shapes built for one test, so tuple elements stay valid.
class Shapes {
 public:
  const Shape& Array(PrimitiveType type, std::initializer_list<int64_t> dims) {
    Shape& s = New();
    s.element_type = type;
    s.dimensions.assign(dims.begin(), dims.end());
    return s;
  }
  const Shape& F32(std::initializer_list<int64_t> dims) { return Array(PrimitiveType::kF32, dims); }
  const Shape& S32(std::initializer_list<int64_t> dims) { return Array(PrimitiveType::kS32, dims); }
  const Shape& Tuple(std::initializer_list<const Shape*> elements) {
    Shape& s = New();
    s.element_type = PrimitiveType::kTuple;
    s.tuple_shapes.assign(elements.begin(), elements.end());
    return s;
  }

 private:
  Shape& New() {
    owned_.push_back(std::make_unique<Shape>());
    return *owned_.back();
  }
  std::vector<std::unique_ptr<Shape>> owned_;
};

inline std::string Str(const Shape& s) { return HumanString(s); }

}  // namespace hlolint::testing
