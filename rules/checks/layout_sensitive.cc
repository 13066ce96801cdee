#include "rules/checks/layout_sensitive.h"

#include <string>

#include "analysis/layout_phase.h"
#include "engine/dump_context.h"

namespace hlolint {

bool VerifiedLayoutSensitive(const RuleContext& ctx) {
  if (ctx.verifier_options().layout_sensitive) return true;
  const DumpContext* dump = ctx.dump();
  if (dump == nullptr) return false;
  // Inside the layout-assignment pass, layouts are half assigned and
  // nothing verifies them.
  const bool inside_layout_assignment =
      dump->kind == DumpKind::kWithinPass &&
      (dump->during_pass.find("layout-assignment") != std::string::npos ||
       dump->during_pass.find("layout_assignment") != std::string::npos);
  if (inside_layout_assignment || dump->kind == DumpKind::kBeforeOptimizations ||
      dump->before_layout_assignment ||
      LayoutPhase::PassNamesImplyUnassignedLayouts(dump->pipeline, dump->LastPass(),
                                                   dump->before_pass)) {
    return false;
  }
  return dump->kind == DumpKind::kAfterOptimizations || dump->after_layout_assignment ||
         dump->RightBeforeLayoutNormalization() ||
         LayoutPhase::PassNamesImplyAssignedLayouts(dump->pipeline, dump->LastPass(),
                                                    dump->before_pass);
}

bool SameShapeWithLayout(const Shape& a, const Shape& b) { return ShapesEqual(a, b); }

}  // namespace hlolint
