// Whether a module shows XLA's final buffer decisions: entry donations are
// settled (OptimizeInputOutputBufferAlias has run) and copy insertion has
// added its copies, so what the text allocates is what XLA allocates.
#pragma once

#include "engine/rule.h"

namespace hlolint {

// True for an after-optimizations dump, a dump taken right after
// OptimizeInputOutputBufferAlias, and any module with is_scheduled=true
// (scheduling runs after both passes); false for before-optimizations dumps.
bool BuffersFinal(const RuleContext& ctx);

}  // namespace hlolint
