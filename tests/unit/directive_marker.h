// The directive marker the source-layer tests subscribe their files with:
// the suppression scanner's (engine/suppressions.h), which these tests do
// not otherwise need.
#pragma once

#include <string_view>

namespace hlolint::testing {

inline constexpr std::string_view kTestMarker = "hlolint:";

}  // namespace hlolint::testing
