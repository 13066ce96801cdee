// What a verify checker reports about one instruction.
#pragma once

#include <string>

#include "ir/attr_name.h"

namespace hlolint {

// One failed check: the XLA function it mirrors, the message, and the
// attribute to point at (kUnknown: the instruction's name).
struct VerifyFinding {
  std::string check;
  std::string message;
  AttrName attribute = AttrName::kUnknown;
  // Warnings: XLA rejects these too, but the XLA repository's own tool and
  // translation tests carry them (see docs/rules/verify-shape.md).
  bool warning = false;
};

}  // namespace hlolint
