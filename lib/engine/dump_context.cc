#include "engine/dump_context.h"

#include "dump/pass_names.h"
#include "util/strings.h"

namespace hlolint {

std::string_view DumpKindName(DumpKind kind) {
  switch (kind) {
    case DumpKind::kBeforeOptimizations: return "before_optimizations";
    case DumpKind::kAfterOptimizations: return "after_optimizations";
    case DumpKind::kBetweenPasses: return "between_passes";
    case DumpKind::kWithinPass: return "within_pass";
    case DumpKind::kAssumed: return "assumed";
  }
  return "between_passes";
}

bool DumpContext::RightBeforeLayoutNormalization() const {
  return IsLayoutNormalizationPass(before_pass) || IsLayoutNormalizationPass(next_pass);
}

std::string_view DumpContext::LastPass() const {
  return kind == DumpKind::kWithinPass ? std::string_view(during_pass)
                                       : std::string_view(after_pass);
}

std::string DumpContext::Describe() const {
  const std::string at_step = step ? StrCat("step ", *step) : std::string();
  switch (kind) {
    case DumpKind::kBeforeOptimizations:
      return "before optimizations";
    case DumpKind::kAfterOptimizations:
      return platform.empty() ? "after optimizations"
                              : StrCat("after optimizations (", platform, ")");
    case DumpKind::kWithinPass:
      return StrCat("during pass '", during_pass, "' (", step_name,
                    at_step.empty() ? "" : ", ", at_step, ")");
    case DumpKind::kBetweenPasses:
    case DumpKind::kAssumed:
      break;
  }
  if (after_pass == "pipeline-start") {
    return StrCat("at the start of pipeline '", pipeline, "'",
                  at_step.empty() ? "" : StrCat(" (", at_step, ")"));
  }
  std::vector<std::string> where;
  if (!pipeline.empty()) where.push_back(StrCat("pipeline '", pipeline, "'"));
  if (!at_step.empty()) where.push_back(at_step);
  const std::string in_parentheses = where.empty() ? "" : StrCat(" (", StrJoin(where, ", "), ")");
  if (after_pass.empty()) {
    return before_pass.empty() ? StrCat("at an unknown point", in_parentheses)
                               : StrCat("before pass '", before_pass, "'", in_parentheses);
  }
  return StrCat("after pass '", after_pass, "'", in_parentheses);
}

bool BuffersFinal(const DumpContext* dump, bool is_scheduled) {
  if (dump != nullptr) {
    if (dump->kind == DumpKind::kAfterOptimizations) return true;
    if (dump->kind == DumpKind::kBeforeOptimizations) return false;
    if (IsOptimizeInputOutputBufferAliasPass(dump->LastPass())) return true;
  }
  return is_scheduled;
}

}  // namespace hlolint
