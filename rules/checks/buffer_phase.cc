#include "rules/checks/buffer_phase.h"

#include "dump/pass_names.h"
#include "engine/dump_context.h"

namespace hlolint {

bool BuffersFinal(const RuleContext& ctx) {
  if (const DumpContext* dump = ctx.dump()) {
    if (dump->kind == DumpKind::kAfterOptimizations) return true;
    if (dump->kind == DumpKind::kBeforeOptimizations) return false;
    if (IsOptimizeInputOutputBufferAliasPass(dump->LastPass())) return true;
  }
  return ctx.module().is_scheduled();
}

}  // namespace hlolint
