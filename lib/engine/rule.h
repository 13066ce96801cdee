// The rule interface. A rule reads the IR and shared analyses of one module
// and reports diagnostics through its RuleContext. It never parses text and
// never formats output.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "ir/module.h"
#include "nlohmann/json.hpp"
#include "xla/profile.h"
#include "xla/verifier_options.h"

namespace hlolint {

class Analyses;
struct DumpContext;

// What a rule is about. Users select rules by its name (CategoryName). The
// verifier rules read other analyses than the rest: on one thread, the
// engine frees the other rules' analyses once those rules have run, before
// the verifier rules that are left (RunRules).
enum class RuleCategory : uint8_t {
  kParse,       // the text is no HLO XLA accepts (reported by the engine)
  kLayout,
  kAliasing,
  kScheduling,
  kVerify,      // a check of XLA's HloVerifier
  kMeta,        // about hlolint itself, e.g. its suppression comments
};
// "parse", "layout", "aliasing", "scheduling", "verify", "meta".
std::string_view CategoryName(RuleCategory category);
// One line, no trailing period: what the category's rules are about
// (--explain CATEGORY, the configuration schema).
std::string_view CategorySummary(RuleCategory category);
// Every category, in declaration order.
inline constexpr RuleCategory kRuleCategories[] = {
    RuleCategory::kParse,      RuleCategory::kLayout, RuleCategory::kAliasing,
    RuleCategory::kScheduling, RuleCategory::kVerify, RuleCategory::kMeta};

// How long a rule's Check takes on a large module, analyses it asks for
// included: threads take the costliest rules first, so that the last ones to
// start are short and the threads finish together. In increasing order.
enum class RuleCost : uint8_t {
  kCheap,     // reads what an index lists, or nothing
  kModerate,  // builds an analysis over the module, or reads most instructions
  kHeavy,     // reads every instruction; the longest rules of all
};

// An option a rule reads from .hlolint.json ("rules": {"rule-id": {...}}):
// the configuration rejects names a rule does not declare, and values of
// another type, and the configuration schema lists them.
enum class RuleOptionType : uint8_t {
  kStringList,  // a JSON array of strings
  kByteCount,   // a JSON non-negative integer, a number of bytes
};

struct RuleOption {
  std::string_view name;         // snake_case, as written in .hlolint.json
  RuleOptionType type = RuleOptionType::kStringList;
  std::string_view description;  // one sentence
};

struct RuleInfo {
  std::string_view id;  // stable kebab-case id, e.g. "reshape-not-bitcast"
  RuleCategory category = RuleCategory::kMeta;
  Severity default_severity = Severity::kError;
  std::string_view summary;  // one line, no trailing period
  RuleCost cost = RuleCost::kCheap;
  std::span<const RuleOption> options = {};
};

class RuleContext;

class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  // Runs the rule over ctx.module(). Engine-level rules (parse-error,
  // unused-suppression, ...) have an empty Check.
  virtual void Check(RuleContext& ctx) const = 0;
};

// Builds one diagnostic; it is committed when the builder goes out of scope.
class DiagnosticBuilder {
 public:
  DiagnosticBuilder(RuleContext* ctx, Diagnostic diagnostic);
  DiagnosticBuilder(DiagnosticBuilder&& other) noexcept;
  DiagnosticBuilder(const DiagnosticBuilder&) = delete;
  DiagnosticBuilder& operator=(const DiagnosticBuilder&) = delete;
  ~DiagnosticBuilder();

  // A note located at an instruction's name.
  DiagnosticBuilder& Note(InstrId at, std::string message);
  // A note located at an attribute of an instruction (falls back to the
  // instruction when the attribute is absent).
  DiagnosticBuilder& NoteAtAttribute(InstrId at, AttrName attribute, std::string message);
  DiagnosticBuilder& NoteAt(SourceSpan span, std::string message);
  DiagnosticBuilder& Note(std::string message);  // no location
  DiagnosticBuilder& WithSeverity(Severity severity);
  // A short text shown at the primary span: what the span is.
  DiagnosticBuilder& Label(std::string label);
  // The remedy, said once (reports show it as `help:`).
  DiagnosticBuilder& Fix(std::string fix);
  // The fix as a text edit, where it is mechanical: replace `span` with `text`.
  DiagnosticBuilder& Replace(SourceSpan span, std::string text);
  // A note saying which XLA the verdict assumes, for a finding whose truth
  // depends on `change` (xla/profile.h).
  DiagnosticBuilder& AssumesXla(XlaChange change);
  Diagnostic& diagnostic() { return diagnostic_; }

 private:
  RuleContext* ctx_;
  Diagnostic diagnostic_;
};

class RuleContext {
 public:
  RuleContext(const Module& module, Analyses& analyses, const Rule& rule,
              const nlohmann::json& options, const DumpContext* dump,
              std::vector<Diagnostic>* sink);
  // For what the engine reports about the text itself (a module that does
  // not parse, a file without one, its suppression comments): no module to
  // read, so only ReportAt and the notes that take a span apply.
  // `module_name`: the module the finding is in, "" when none.
  RuleContext(const Rule& rule, std::string_view module_name, std::vector<Diagnostic>* sink);

  // Not in a context without a module.
  const Module& module() const { return *module_; }
  Analyses& analyses() const { return *analyses_; }
  // The rule's options from the configuration ({} when none).
  const nlohmann::json& options() const { return options_; }
  // Pass information when the file is an XLA per-pass dump (else null).
  const DumpContext* dump() const { return dump_; }
  // The XLA this module is judged for (version and backend).
  const XlaProfile& xla() const;
  // The HloVerifierOpts the verify-* rules mirror ("verify-options").
  const VerifierOptions& verifier_options() const;
  void set_verifier_options(const VerifierOptions* options) { verifier_options_ = options; }

  // Reports at an instruction: located at its name, with module /
  // computation / instruction names, metadata source and fingerprint inputs.
  DiagnosticBuilder Report(InstrId at, std::string message);
  // Reports at an attribute of an instruction (e.g. output_to_operand_aliasing).
  DiagnosticBuilder ReportAtAttribute(InstrId at, AttrName attribute, std::string message);
  // Reports at the module header (e.g. input_output_alias) or any span.
  DiagnosticBuilder ReportAt(SourceSpan span, std::string message);

  // Source span of an instruction's name, and of one of its attributes.
  SourceSpan InstructionSpan(InstrId id) const;
  std::optional<SourceSpan> AttributeSpan(InstrId id, AttrName attribute) const;

 private:
  friend class DiagnosticBuilder;
  void Commit(Diagnostic diagnostic);
  Diagnostic Start(SourceSpan span, std::string message);
  static const nlohmann::json& NoOptions();

  const Module* module_ = nullptr;
  Analyses* analyses_ = nullptr;
  std::string_view module_name_;
  const Rule& rule_;
  const nlohmann::json& options_;
  const DumpContext* dump_;
  const VerifierOptions* verifier_options_ = nullptr;
  std::vector<Diagnostic>* sink_;
};

}  // namespace hlolint
