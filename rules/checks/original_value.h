// The original-value check of the verify-shape rule (VerifyOriginalValue).
#pragma once

#include <string_view>

#include "ir/shape.h"

namespace hlolint {

// Whether the tuple structure of an `origin={...}` original value matches
// `shape` (VerifyOriginalValue): a tuple shape needs a `(...)` node with one
// child per element, anything else a `{...}` leaf. `text` is the value with
// its outer braces. False on a mismatch; true when the text is not
// understood.
bool OriginalValueMatchesShape(std::string_view text, const Shape& shape);

}  // namespace hlolint
