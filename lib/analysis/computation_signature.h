// The program shape of a computation (parameter shapes by number and the
// root shape), as XLA's HloComputation::ComputeProgramShape, for the verify
// rules that check callers against their callees.
#pragma once

#include <vector>

#include "analysis/shape_inference.h"
#include "ir/module.h"

namespace hlolint {

// Reads the signature of `computation` into *out when it is asked for: its
// parameter shapes go into *params (storage the caller reuses, which
// out->parameters views). False when the root's shape is unknown (omitted
// and not inferable) or a parameter's is. Not a table of every
// computation's: that would read every parameter's record of a large
// module for the few reducers and async computations the rules ask about.
bool ReadSignature(const Module& m, CompId computation, std::vector<const Shape*>* params,
                   ProgramShapeView* out);

}  // namespace hlolint
