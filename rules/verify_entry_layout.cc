// verify-entry-layout: the entry computation agrees with the module's
// entry_computation_layout, and must-alias outputs have exactly the shape,
// layout and memory space of the parameter they alias
// (ShapeVerifier::VerifyEntryComputationLayout). Shape differences between
// the layout and the entry are warnings: translation tests carry them, and
// XLA replaces the entry layout when it compiles. Layout differences are
// errors where XLA verifies layout-sensitively (checks/layout_sensitive.h),
// and no finding before layout assignment, which gives the entry the
// layout's layouts.
#include "analysis/shape_inference.h"
#include "rules/checks/layout_sensitive.h"
#include "rules/rule_factories.h"
#include "util/strings.h"

namespace hlolint {
namespace {

// ShapesSame in layout-sensitive mode as VerifyEntryComputationLayout calls
// it: tiles, tail padding and memory spaces aside (TPU layout assignment
// leaves tiles out of the entry layout).
bool SameEntryLayout(const Shape& instruction, const Shape& layout) {
  ShapeEqualOptions options;
  options.ignore_tiles = true;
  options.ignore_tail_padding = true;
  options.ignore_memory_space = true;
  return ShapesEqual(instruction, layout, options);
}

class VerifyEntryLayoutRule : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo kInfo{"verify-entry-layout", RuleCategory::kVerify, Severity::kError,
                                "entry computation or must-alias pair that contradicts the "
                                "entry_computation_layout"};
    return kInfo;
  }

  void Check(RuleContext& ctx) const override {
    const Module& m = ctx.module();
    const ModuleHeader& header = m.header();
    if (m.entry() == kNoId || !header.has_entry_layout) return;
    const Computation& entry = m.computation(m.entry());
    const SourceSpan at{header.entry_layout_offset, header.entry_layout_offset + 1};
    // XLA's own message, quoted in a note so that it can be searched for.
    constexpr std::string_view kCheck = "[ShapeVerifier::VerifyEntryComputationLayout] ";
    constexpr std::string_view kReplaced =
        "XLA's verifier rejects the module as written; XLA's compiler replaces the entry layout "
        "with the computation's, which is why translation tests carry such layouts";
    constexpr std::string_view kLayoutSensitive =
        "XLA's compilers verify layouts from layout assignment on, and this dump was taken "
        "after it";
    const bool layout_sensitive = VerifiedLayoutSensitive(ctx);
    if (header.entry_param_layouts.size() != entry.parameters().size()) {
      ctx.ReportAt(at, StrCat("entry_computation_layout has ", header.entry_param_layouts.size(),
                              " parameters, the entry computation ", entry.parameters().size()))
          .WithSeverity(Severity::kWarning)
          .Note(StrCat(kCheck, "Number of parameters in entry computation layout (",
                       header.entry_param_layouts.size(), ") must be same as number of "
                       "parameters of entry computation (", entry.parameters().size(), ")"))
          .Note(std::string(kReplaced))
          .Fix("make the layout's parameter list match the entry computation's parameters");
    } else {
      for (size_t i = 0; i < entry.parameters().size(); ++i) {
        const InstrId p = entry.parameters()[i];
        if (p == kNoId || !m.has_known_shape(p)) continue;
        const Shape& layout = m.shapes().Get(header.entry_param_layouts[i]);
        if (!Compatible(m.shape(p), layout)) {
          ctx.ReportAt(at, StrCat("entry parameter ", i, " has another shape than "
                                  "entry_computation_layout gives it"))
              .WithSeverity(Severity::kWarning)
              .Label(StrCat("parameter ", i, " differs"))
              .Note(p, StrCat("parameter ", i, " is declared here"))
              .Note(StrCat(kCheck, "Shape of the entry computation parameter ", i, " is ",
                           HumanString(m.shape(p)), " should be compatible to the one "
                           "specified in module's entry computation layout ",
                           HumanString(layout)))
              .Note(std::string(kReplaced))
              .Fix("make the parameter's shape and its entry in the layout agree");
        } else if (layout_sensitive && !SameEntryLayout(m.shape(p), layout)) {
          ctx.Report(p, StrCat("entry parameter ", i, " has another layout than "
                               "entry_computation_layout gives it"))
              .Label(StrCat("laid out ", ShapeToStringWithDefaultLayout(m.shape(p))))
              .Note(StrCat(kCheck, "Shape of the entry computation parameter ", i, " is ",
                           ShapeToStringWithDefaultLayout(m.shape(p)),
                           " should be compatible to the one specified in module's entry "
                           "computation layout ", ShapeToStringWithDefaultLayout(layout)))
              .Note(std::string(kLayoutSensitive))
              .Fix("give the parameter the layout entry_computation_layout gives it");
        }
      }
    }
    if (header.entry_result_layout != kNoShape && entry.root != kNoId &&
        m.has_known_shape(entry.root)) {
      const Shape& layout = m.shapes().Get(header.entry_result_layout);
      if (!Compatible(m.shape(entry.root), layout)) {
        ctx.ReportAt(at, "the entry computation's result has another shape than "
                         "entry_computation_layout gives it")
            .WithSeverity(Severity::kWarning)
            .Label("result shape differs")
            .Note(entry.root, "the entry computation's ROOT")
            .Note(StrCat(kCheck, "Shape of the root instruction of entry computation (",
                         HumanString(m.shape(entry.root)), ") should be compatible to "
                         "one specified in module's entry computation layout (",
                         HumanString(layout), ")"))
            .Note(std::string(kReplaced))
            .Fix("make the ROOT's shape and the layout's result agree");
      } else if (layout_sensitive && !SameEntryLayout(m.shape(entry.root), layout)) {
        ctx.Report(entry.root, "the entry computation's result has another layout than "
                               "entry_computation_layout gives it")
            .Label(StrCat("laid out ", ShapeToStringWithDefaultLayout(m.shape(entry.root))))
            .Note(StrCat(kCheck, "Shape of the root instruction of entry computation (",
                         ShapeToStringWithDefaultLayout(m.shape(entry.root)),
                         ") should be compatible to one specified in module's entry "
                         "computation layout (", ShapeToStringWithDefaultLayout(layout), ")"))
            .Note(std::string(kLayoutSensitive))
            .Fix("give the ROOT the result layout of entry_computation_layout");
      }
    }
    if (header.entry_result_layout == kNoShape) return;
    const Shape& result = m.shapes().Get(header.entry_result_layout);
    for (const InputOutputAlias& alias : header.input_output_alias) {
      if (!alias.must_alias || alias.parameter < 0 ||
          alias.parameter >= static_cast<int64_t>(header.entry_param_layouts.size())) {
        continue;
      }
      const Shape* out = Subshape(result, alias.output_index);
      const Shape* in =
          Subshape(m.shapes().Get(header.entry_param_layouts[static_cast<size_t>(alias.parameter)]),
                   alias.parameter_index);
      if (out == nullptr || in == nullptr || ShapesEqual(*out, *in)) continue;
      ctx.ReportAt({alias.offset, alias.offset + 1},
                   StrCat("must-alias output ", ShapeIndexToString(alias.output_index),
                          " and parameter ", alias.parameter, " at ",
                          ShapeIndexToString(alias.parameter_index),
                          " differ in shape, layout or memory space"))
          .Note(StrCat(kCheck, "Shape and memory space of the result at index ",
                       ShapeIndexToString(alias.output_index), " (", ShapeToString(*out),
                       ") must be the same as the shape and memory space of aliased "
                       "parameter ", alias.parameter, " at index ",
                       ShapeIndexToString(alias.parameter_index), " (", ShapeToString(*in),
                       ")"))
          .Fix("alias an output and a parameter of the same shape, layout and memory space");
    }
  }
};

}  // namespace

std::unique_ptr<Rule> MakeVerifyEntryLayoutRule() {
  return std::make_unique<VerifyEntryLayoutRule>();
}

}  // namespace hlolint
