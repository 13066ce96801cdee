// donation-not-used: an entry parameter donated to XLA (buffer_donor) that
// no output aliases once XLA has settled the donations. JAX passes a
// donation it cannot match to an output of the same shape and dtype on to
// XLA as a buffer donor; XLA's OptimizeInputOutputBufferAlias then turns
// each donor into an input_output_alias entry when an unaliased output of
// the same byte size in the same memory space is left, and keeps the rest in
// buffer_donor. Those are donations that save nothing: the parameter's
// buffer stays allocated next to every output, and JAX does not warn.
#include <optional>
#include <string>
#include <vector>

#include "engine/dump_context.h"
#include "ir/shape_bytes.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// An output leaf no input_output_alias entry claims.
struct FreeOutput {
  ShapeIndex index;
  const Shape* shape;
  std::optional<uint64_t> bytes;
};

std::string InMemorySpaceText(int64_t space) {
  return space == 0 ? std::string() : StrCat(" in memory space S(", space, ")");
}

int64_t LeafMemorySpace(const Shape& shape) { return shape.has_layout ? shape.layout.memory_space : 0; }

class DonationNotUsedRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{
        "donation-not-used", RuleCategory::kAliasing, Severity::kWarning,
        "Entry parameter donated to XLA (buffer_donor) that no output aliases after "
        "optimization, so the donation saves nothing",
        RuleCost::kCheap};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    const ModuleHeader& header = m.header();
    if (header.buffer_donors.empty() || m.entry() == kNoId ||
        !BuffersFinal(ctx.dump(), m.is_scheduled())) {
      return;
    }
    const Computation& entry = m.computation(m.entry());
    const Shape* result = ResultShape(m, entry);
    const std::vector<FreeOutput> free_outputs = FreeOutputs(header, result);
    for (const BufferDonor& donor : header.buffer_donors) {
      if (donor.parameter < 0 ||
          donor.parameter >= static_cast<int64_t>(entry.parameters().size())) {
        continue;  // verify-alias-config reports it
      }
      if (AlsoAliased(header, donor)) continue;  // verify-alias-config reports it
      const InstrId param = entry.parameters()[static_cast<size_t>(donor.parameter)];
      const Shape* param_shape = ParameterShape(m, entry, donor.parameter);
      const Shape* donated =
          param_shape == nullptr ? nullptr : Subshape(*param_shape, donor.parameter_index);
      if (donated == nullptr || !donated->IsArray()) continue;
      const std::optional<uint64_t> bytes = ArrayByteSize(*donated);
      if (!bytes || *bytes == 0) continue;
      Report(ctx, donor, param, *donated, *bytes, result, free_outputs);
    }
  }

 private:
  // XLA matches donors against the entry computation layout when the
  // module has one (OptimizeInputOutputBufferAlias::RunImpl).
  static const Shape* ParameterShape(const Module& m, const Computation& entry, int64_t number) {
    const ModuleHeader& header = m.header();
    if (header.has_entry_layout &&
        number < static_cast<int64_t>(header.entry_param_layouts.size())) {
      return &m.shapes().Get(header.entry_param_layouts[static_cast<size_t>(number)]);
    }
    const InstrId p = entry.parameters()[static_cast<size_t>(number)];
    return p != kNoId && m.has_known_shape(p) ? &m.shape(p) : nullptr;
  }

  static const Shape* ResultShape(const Module& m, const Computation& entry) {
    const ModuleHeader& header = m.header();
    if (header.has_entry_layout && header.entry_result_layout != kNoShape) {
      return &m.shapes().Get(header.entry_result_layout);
    }
    return entry.root != kNoId && m.has_known_shape(entry.root) ? &m.shape(entry.root) : nullptr;
  }

  static std::vector<FreeOutput> FreeOutputs(const ModuleHeader& header, const Shape* result) {
    std::vector<FreeOutput> out;
    if (result == nullptr) return out;
    ForEachLeaf(*result, [&](const ShapeIndex& index, const Shape& leaf) {
      if (!leaf.IsArray()) return;
      for (const InputOutputAlias& alias : header.input_output_alias) {
        if (alias.output_index == index) return;
      }
      out.push_back({index, &leaf, ArrayByteSize(leaf)});
    });
    return out;
  }

  static bool AlsoAliased(const ModuleHeader& header, const BufferDonor& donor) {
    for (const InputOutputAlias& alias : header.input_output_alias) {
      if (alias.parameter == donor.parameter && alias.parameter_index == donor.parameter_index) {
        return true;
      }
    }
    return false;
  }

  // Why XLA found no output for the donor, as a note; `same_elements`: an
  // unaliased output with as many elements (JAX's criterion) but another
  // byte size.
  static std::string WhyUnused(const Shape& donated, uint64_t bytes, const Shape* result,
                               const std::vector<FreeOutput>& free_outputs,
                               const FreeOutput** same_elements) {
    *same_elements = nullptr;
    if (donated.IsDynamic()) {
      return "the parameter has a dynamic shape, and XLA pairs no dynamic-shaped donor with an "
             "output";
    }
    if (result != nullptr && result->IsDynamic()) {
      return "the result shape is dynamic, and XLA sets up no input-output alias for a dynamic "
             "result";
    }
    const int64_t space = LeafMemorySpace(donated);
    const std::optional<int64_t> elements = ElementCount(donated);
    for (const FreeOutput& out : free_outputs) {
      if (LeafMemorySpace(*out.shape) != space) continue;
      if (out.bytes == bytes) {
        return StrCat("output ", ShapeIndexToString(out.index), " (", ShapeToString(*out.shape),
                      ") has the same byte size and no alias: XLA's "
                      "OptimizeInputOutputBufferAlias would pair them, so this module has not "
                      "been through it");
      }
      if (*same_elements == nullptr && elements && ElementCount(*out.shape) == elements) {
        *same_elements = &out;
      }
    }
    return StrCat("no unaliased output has ", bytes, " bytes", InMemorySpaceText(space),
                  ": XLA's OptimizeInputOutputBufferAlias gives a donated buffer only to an "
                  "output of exactly its byte size in its memory space");
  }

  static void Report(RuleContext& ctx, const BufferDonor& donor, InstrId param,
                     const Shape& donated, uint64_t bytes, const Shape* result,
                     const std::vector<FreeOutput>& free_outputs) {
    const Module& m = ctx.module();
    const std::string what =
        StrCat("entry parameter ", donor.parameter, ShapeIndexSuffix(donor.parameter_index));
    const std::string name = param != kNoId ? StrCat(" ('", m.name(param), "')") : std::string();
    std::string message = StrCat(what, name, " is donated but no output reuses it: ", bytes,
                                 " bytes not saved");
    const SourceSpan donor_span{donor.offset, donor.offset + 1};
    DiagnosticBuilder d = param != kNoId ? ctx.Report(param, std::move(message))
                                         : ctx.ReportAt(donor_span, std::move(message));
    d.Label("donated, not reused");
    const std::string donated_text =
        StrCat("donated here (buffer_donor): ", ShapeToString(donated));
    if (param != kNoId) {
      d.NoteAt(donor_span, donated_text);
    } else {
      d.Note(donated_text);
    }
    const FreeOutput* same_elements = nullptr;
    d.Note(WhyUnused(donated, bytes, result, free_outputs, &same_elements));
    if (same_elements != nullptr) {
      d.Note(StrCat("output ", ShapeIndexToString(same_elements->index), " (",
                    ShapeToString(*same_elements->shape), ", ",
                    same_elements->bytes ? StrCat(*same_elements->bytes, " bytes") : "?",
                    ") has as many elements, which is what JAX matches donations by, but not "
                    "as many bytes"));
    }
    d.Note("the parameter's buffer stays allocated next to the outputs (JAX neither frees a "
           "donated array that XLA did not alias nor warns about it)");
    d.Fix(StrCat("return a value the donated buffer can hold (", bytes, " bytes, e.g. ",
                 ShapeToString(donated, false), "), or stop donating parameter ",
                 donor.parameter, " (donate_argnums, donate_argnames)"));
  }
};

}  // namespace

std::unique_ptr<Rule> MakeDonationNotUsedRule() { return std::make_unique<DonationNotUsedRule>(); }

}  // namespace hlolint
