// The ShapeVerifier and InstructionVerifier checks that XLA makes only under
// some HloVerifierOpts (xla/verifier_options.h): mixed precision, unbounded
// dynamism, broadcast dimension order, non-associative scans in
// layout-sensitive mode. Used by the verify-shape rule; with the default
// options none of them runs.
#pragma once

#include "engine/rule.h"

namespace hlolint {

// Reports what the options in ctx.verifier_options() reject.
void CheckOptionalShapeRules(RuleContext& ctx);

}  // namespace hlolint
