#include "lsp/hover.h"

#include <string>

#include "hlolint/rules.h"
#include "lsp/navigation.h"
#include "lsp/positions.h"

namespace hlolint::lsp {
namespace {

// Operands listed in full up to this many; a concatenate of thousands gets
// a count instead.
constexpr size_t kMaxListedOperands = 8;

std::string Code(std::string_view text) {
  // A backtick inside would end the span: use a longer fence.
  const std::string fence = text.find('`') == std::string_view::npos ? "`" : "`` ";
  const std::string close = fence == "`" ? "`" : " ``";
  return fence + std::string(text) + close;
}

std::string InstructionHover(const api::Module& module, const api::InstructionInfo& info) {
  std::string out = Code("%" + info.name) + " = " + (info.shape.empty() ? "" : Code(info.shape) + " ") +
                    "**" + info.opcode + "**";
  if (info.is_root) out = "ROOT " + out;
  const std::vector<api::InstructionId> operands = module.operands(info.id);
  if (!operands.empty()) {
    out += "\n\noperands:";
    for (size_t i = 0; i < operands.size() && i < kMaxListedOperands; ++i) {
      if (const std::optional<api::InstructionInfo> operand = module.instruction(operands[i])) {
        out += "\n- " + Code("%" + operand->name) + " " + Code(operand->shape);
      }
    }
    if (operands.size() > kMaxListedOperands) {
      out += "\n- … " + std::to_string(operands.size() - kMaxListedOperands) + " more";
    }
  }
  const size_t users = module.users(info.id).size();
  out += "\n\n" + std::to_string(users) + (users == 1 ? " user" : " users");
  for (api::ComputationId called : module.called_computations(info.id)) {
    if (const std::optional<api::ComputationInfo> c = module.computation(called)) {
      out += " · calls " + Code(c->name);
    }
  }
  if (!info.sharding.empty()) out += "\n\nsharding: " + Code(info.sharding);
  if (info.origin) {
    std::string origin;
    if (!info.origin->op_name.empty()) origin += Code(info.origin->op_name);
    if (!info.origin->source_file.empty()) {
      origin += (origin.empty() ? "" : " at ") + Code(info.origin->source_file + ":" +
                                                      std::to_string(info.origin->source_line));
    }
    if (!origin.empty()) out += "\n\nfrom " + origin;
  }
  return out;
}

std::string ComputationHover(const api::Module& module, const api::ComputationInfo& info) {
  std::string out = std::string(info.is_entry ? "ENTRY " : "") + "computation " +
                    Code("%" + info.name) + " in module " + Code(info.module);
  out += "\n\n" + std::to_string(info.instructions.size()) + " instructions";
  if (info.root) {
    if (const std::optional<api::InstructionInfo> root = module.instruction(*info.root)) {
      out += " · root " + Code("%" + root->name) + " " + Code(root->shape);
    }
  }
  const size_t callers = module.callers(info.id).size();
  out += " · " + std::to_string(callers) + (callers == 1 ? " caller" : " callers");
  return out;
}

// The findings whose range holds the position, with their rules' summaries.
std::string FindingsHover(const Document& document, const api::Position& at) {
  if (document.needs_lint()) return {};  // the findings are of another text
  std::string out;
  for (const api::Diagnostic& d : document.findings().diagnostics) {
    const bool starts_before = d.location.line < at.line ||
                               (d.location.line == at.line && d.location.column <= at.column);
    const bool ends_after =
        d.location.end_line > at.line ||
        (d.location.end_line == at.line && d.location.end_column >= at.column);
    if (!starts_before || !ends_after) continue;
    const std::optional<api::RuleInfo> rule = api::FindRule(d.rule);
    out += "\n\n---\n\n**" + d.rule + "** (" + api::SeverityName(d.severity) + ")";
    if (rule) out += ": " + rule->summary;
    // Notes on other lines ride in relatedInformation, which some clients
    // do not show: here they are read with the finding.
    for (const api::Note& note : d.notes) {
      out += "\n\nnote";
      if (note.location && note.location->line != 0) {
        out += " (line " + std::to_string(note.location->line) + ")";
      }
      out += ": " + note.message;
    }
    if (!d.fix.empty()) out += "\n\nfix: " + d.fix;
  }
  return out;
}

}  // namespace

nlohmann::json Hover(const Document& document, const nlohmann::json& params) {
  const std::optional<api::Position> at = RequestPosition(document, params);
  if (!at) return nullptr;
  const api::Module& module = document.module();
  std::string contents;
  if (const std::optional<api::Symbol> symbol = module.SymbolAt(*at)) {
    if (symbol->kind == api::Symbol::Kind::kInstruction) {
      if (const std::optional<api::InstructionInfo> info = module.instruction(symbol->id)) {
        contents = InstructionHover(module, *info);
      }
    } else if (const std::optional<api::ComputationInfo> info = module.computation(symbol->id)) {
      contents = ComputationHover(module, *info);
    }
  }
  std::string findings = FindingsHover(document, *at);
  if (contents.empty() && findings.empty()) return nullptr;
  if (contents.empty()) findings.erase(0, findings.find("**"));  // no rule above the first
  return {{"contents", {{"kind", "markdown"}, {"value", contents + findings}}}};
}

}  // namespace hlolint::lsp
