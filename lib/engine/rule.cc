#include "engine/rule.h"

#include "analysis/analyses.h"
#include "parse/attributes.h"
#include "util/strings.h"

namespace hlolint {

DiagnosticBuilder::DiagnosticBuilder(RuleContext* ctx, Diagnostic diagnostic)
    : ctx_(ctx), diagnostic_(std::move(diagnostic)) {}

DiagnosticBuilder::DiagnosticBuilder(DiagnosticBuilder&& other) noexcept
    : ctx_(other.ctx_), diagnostic_(std::move(other.diagnostic_)) {
  other.ctx_ = nullptr;
}

DiagnosticBuilder::~DiagnosticBuilder() {
  if (ctx_ != nullptr) ctx_->Commit(std::move(diagnostic_));
}

DiagnosticBuilder& DiagnosticBuilder::Note(InstrId at, std::string message) {
  diagnostic_.notes.push_back({std::move(message), ctx_->InstructionSpan(at), {}, {}});
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::NoteAtAttribute(InstrId at, AttrName attribute,
                                                      std::string message) {
  std::optional<SourceSpan> span = ctx_->AttributeSpan(at, attribute);
  diagnostic_.notes.push_back(
      {std::move(message), span ? *span : ctx_->InstructionSpan(at), {}, {}});
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::NoteAt(SourceSpan span, std::string message) {
  diagnostic_.notes.push_back({std::move(message), span, {}, {}});
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::Note(std::string message) {
  diagnostic_.notes.push_back({std::move(message), std::nullopt, {}, {}});
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::WithSeverity(Severity severity) {
  diagnostic_.severity = severity;
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::Label(std::string label) {
  diagnostic_.label = std::move(label);
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::Fix(std::string fix) {
  diagnostic_.fix = std::move(fix);
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::Replace(SourceSpan span, std::string text) {
  diagnostic_.replacement = Replacement{span, std::move(text), {}};
  return *this;
}

DiagnosticBuilder& DiagnosticBuilder::AssumesXla(XlaChange change) {
  return Note(ctx_->xla().Assumption(change));
}

std::string_view CategoryName(RuleCategory category) {
  switch (category) {
    case RuleCategory::kParse: return "parse";
    case RuleCategory::kLayout: return "layout";
    case RuleCategory::kAliasing: return "aliasing";
    case RuleCategory::kScheduling: return "scheduling";
    case RuleCategory::kVerify: return "verify";
    case RuleCategory::kMeta: return "meta";
  }
  return "";
}

std::string_view CategorySummary(RuleCategory category) {
  switch (category) {
    case RuleCategory::kParse: return "Input that is not HLO text XLA's parser accepts";
    case RuleCategory::kLayout: return "Layouts that make XLA move data or fail a pass";
    case RuleCategory::kAliasing:
      return "Output-to-operand aliasing that is invalid or that XLA cannot use";
    case RuleCategory::kScheduling: return "Instruction order whose effects are lost or unsafe";
    case RuleCategory::kVerify: return "Checks of XLA's HloVerifier: modules XLA would reject";
    case RuleCategory::kMeta: return "About hlolint itself, e.g. its suppression comments";
  }
  return "";
}

const XlaProfile& RuleContext::xla() const { return analyses_->xla(); }

const VerifierOptions& RuleContext::verifier_options() const {
  static const VerifierOptions kDefaults;
  return verifier_options_ != nullptr ? *verifier_options_ : kDefaults;
}

RuleContext::RuleContext(const Module& module, Analyses& analyses, const Rule& rule,
                         const nlohmann::json& options, const DumpContext* dump,
                         std::vector<Diagnostic>* sink)
    : module_(&module), analyses_(&analyses), module_name_(module.name()), rule_(rule),
      options_(options), dump_(dump), sink_(sink) {}

RuleContext::RuleContext(const Rule& rule, std::string_view module_name,
                         std::vector<Diagnostic>* sink)
    : module_name_(module_name), rule_(rule), options_(NoOptions()), dump_(nullptr),
      sink_(sink) {}

const nlohmann::json& RuleContext::NoOptions() {
  static const nlohmann::json kNone = nlohmann::json::object();
  return kNone;
}

SourceSpan RuleContext::InstructionSpan(InstrId id) const {
  const Instruction& instr = module_->instr(id);
  return {instr.name_offset, instr.name_offset + module_->NameSize(instr)};
}

std::optional<SourceSpan> RuleContext::AttributeSpan(InstrId id, AttrName attribute) const {
  const Attribute* a = module_->FindAttribute(id, attribute);
  if (a == nullptr) return std::nullopt;
  const std::string_view name = AttrNameText(attribute);
  const uint32_t begin = module_->attribute_name_offset(*a);
  return SourceSpan{begin, begin + static_cast<uint32_t>(name.size())};
}

Diagnostic RuleContext::Start(SourceSpan span, std::string message) {
  Diagnostic d;
  d.rule = std::string(rule_.info().id);
  d.severity = rule_.info().default_severity;
  d.message = std::move(message);
  d.span = span;
  d.module = std::string(module_name_);
  return d;
}

DiagnosticBuilder RuleContext::Report(InstrId at, std::string message) {
  const Module& m = *module_;
  Diagnostic d = Start(InstructionSpan(at), std::move(message));
  d.computation = std::string(m.computation_name(m.parent(at)));
  d.instruction = std::string(m.name(at));
  d.opcode = std::string(OpcodeName(m.opcode(at)));
  d.shape = ShapeToString(m.shape(at));
  if (std::optional<OpMetadata> metadata = Metadata(m, at)) {
    d.op_name = metadata->op_name;
    if (!metadata->source_file.empty()) {
      d.source = ProgramSource{metadata->source_file, metadata->source_line};
    }
  }
  return DiagnosticBuilder(this, std::move(d));
}

DiagnosticBuilder RuleContext::ReportAtAttribute(InstrId at, AttrName attribute,
                                                 std::string message) {
  DiagnosticBuilder builder = Report(at, std::move(message));
  if (std::optional<SourceSpan> span = AttributeSpan(at, attribute)) {
    builder.diagnostic().span = *span;
  }
  return builder;
}

DiagnosticBuilder RuleContext::ReportAt(SourceSpan span, std::string message) {
  return DiagnosticBuilder(this, Start(span, std::move(message)));
}

void RuleContext::Commit(Diagnostic diagnostic) { sink_->push_back(std::move(diagnostic)); }

}  // namespace hlolint
