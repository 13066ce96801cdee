// LayoutPhase: does a module's text show that layout assignment has run?
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "analysis/analyses.h"
#include "analysis/layout_phase.h"
#include "parse/parser.h"
#include "source/source_file.h"

using namespace hlolint;

namespace {

struct Verdict {
  bool assigned_evidence;
  bool unassigned_evidence;
};

Verdict PhaseOf(const std::string& text) {
  auto file = SourceFile::FromString("phase.hlo", text);
  auto modules = ParseAllModules(*file);
  REQUIRE(modules.size() == 1);
  REQUIRE_FALSE(modules[0].error);
  Analyses analyses(*modules[0].module);
  const LayoutPhase& phase = analyses.Get<LayoutPhase>();
  return {phase.has_assignment_evidence(), phase.has_unassigned_evidence()};
}

}  // namespace

TEST_CASE("LayoutPhase: front-end layouts carry no evidence", "[bitcast][layout-phase]") {
  // A transpose with its operand's permuted layout, a default-layout reshape.
  const Verdict v = PhaseOf(R"(HloModule m
ENTRY e {
  p = f32[16,128,8]{2,1,0} parameter(0)
  t = f32[16,8,128]{1,2,0} transpose(p), dimensions={0,2,1}
  ROOT r = f32[128,128]{1,0} reshape(t)
})");
  CHECK_FALSE(v.assigned_evidence);
  CHECK_FALSE(v.unassigned_evidence);
}

TEST_CASE("LayoutPhase: evidence that layouts are assigned", "[bitcast][layout-phase]") {
  CHECK(PhaseOf("HloModule m, is_scheduled=true\nENTRY e {\n  ROOT p = f32[4]{0} parameter(0)\n}")
            .assigned_evidence);
  CHECK(PhaseOf(R"(HloModule m
ENTRY e {
  p = f32[4,2]{1,0} parameter(0)
  ROOT b = f32[8]{0} bitcast(p)
})")
            .assigned_evidence);
  CHECK(PhaseOf(R"(HloModule m
ENTRY e {
  x = f32[4,4]{1,0} parameter(0)
  g = (f32[4,4]{1,0}, s8[64]{0}) custom-call(x, x), custom_call_target="__cublas$lt$matmul"
  ROOT r = f32[4,4]{1,0} get-tuple-element(g), index=0
})")
            .assigned_evidence);
  // A reshape no front end writes: non-default and not a bitcast.
  CHECK(PhaseOf(R"(HloModule m
ENTRY e {
  p = f32[8,3]{1,0} parameter(0)
  ROOT r = f32[4,2,3]{0,1,2} reshape(p)
})")
            .assigned_evidence);
}

TEST_CASE("LayoutPhase: reshapes front ends write are not evidence", "[bitcast][layout-phase]") {
  // torch-xla writes views as bitcast reshapes with permuted layouts.
  CHECK_FALSE(PhaseOf(R"(HloModule m
ENTRY e {
  p = f32[1,128,128]{1,2,0} parameter(0)
  ROOT r = f32[128,128]{0,1} reshape(p)
})")
                  .assigned_evidence);
  // Size-1 dimensions placed anywhere.
  CHECK_FALSE(PhaseOf(R"(HloModule m
ENTRY e {
  p = f32[16,128,8]{2,1,0} parameter(0)
  ROOT r = f32[16,1,128,8]{3,1,2,0} reshape(p)
})")
                  .assigned_evidence);
}

TEST_CASE("LayoutPhase: mixed element-wise layouts mean unassigned", "[bitcast][layout-phase]") {
  const Verdict v = PhaseOf(R"(HloModule m, is_scheduled=true
ENTRY e {
  p = f32[4,6]{0,1} parameter(0)
  q = f32[4,6]{1,0} parameter(1)
  ROOT a = f32[4,6]{1,0} add(p, q)
})");
  CHECK(v.assigned_evidence);
  CHECK(v.unassigned_evidence);
  // Size-1 dimensions do not make layouts differ.
  CHECK_FALSE(PhaseOf(R"(HloModule m
ENTRY e {
  p = f32[4,1]{0,1} parameter(0)
  ROOT n = f32[4,1]{1,0} negate(p)
})")
                  .unassigned_evidence);
}

TEST_CASE("LayoutPhase: a layout-changing copy is no evidence against assignment",
          "[bitcast][layout-phase]") {
  // ReshapeDecomposer's output: the copy changes the layout on purpose.
  const Verdict v = PhaseOf(R"(HloModule m, is_scheduled=true
ENTRY e {
  p = f32[8,6]{1,0} parameter(0)
  c = f32[8,6]{0,1} copy(p)
  ROOT r = f32[6,8]{0,1} reshape(c)
})");
  CHECK(v.assigned_evidence);
  CHECK_FALSE(v.unassigned_evidence);
}

TEST_CASE("LayoutPhase: pass names of per-pass dumps", "[bitcast][layout-phase]") {
  CHECK(LayoutPhase::PassNamesImplyAssignedLayouts("hlo normalization", "cublas-gemm-rewriter",
                                                   "gemm-broadcast-folding-rewriter"));
  CHECK(LayoutPhase::PassNamesImplyAssignedLayouts("post-layout_assignment", "x", "y"));
  CHECK(LayoutPhase::PassNamesImplyAssignedLayouts("p", "something", "layout_normalization"));
  CHECK(LayoutPhase::PassNamesImplyAssignedLayouts("p", "layout-assignment", "x"));
  // Just before layout assignment: not yet.
  CHECK_FALSE(LayoutPhase::PassNamesImplyAssignedLayouts("optimization", "algsimp",
                                                         "layout-assignment"));
  CHECK_FALSE(LayoutPhase::PassNamesImplyAssignedLayouts("", "", ""));
  // XLA writes spaces in pipeline names as '_' since it sanitizes file names;
  // CPU's pipeline after layout assignment.
  CHECK(LayoutPhase::PassNamesImplyAssignedLayouts("hlo_normalization", "a", "b"));
  CHECK(LayoutPhase::PassNamesImplyAssignedLayouts("HLO_passes_after_layout_assignment", "a", "b"));
}

TEST_CASE("LayoutPhase: pass names that place a dump before layout assignment",
          "[bitcast][layout-phase]") {
  CHECK(LayoutPhase::PassNamesImplyUnassignedLayouts("optimization", "algsimp",
                                                     "layout-assignment"));
  // CPU's pipeline up to layout assignment, as file names write it.
  CHECK(LayoutPhase::PassNamesImplyUnassignedLayouts("HLO_passes_through_layout_assignment",
                                                     "reduce-window-rewriter", "x"));
  CHECK(LayoutPhase::PassNamesImplyUnassignedLayouts("HLO passes through layout assignment",
                                                     "reduce-window-rewriter", "x"));
  // ... but its last dump is after the pass.
  CHECK_FALSE(LayoutPhase::PassNamesImplyUnassignedLayouts("HLO_passes_through_layout_assignment",
                                                           "layout-assignment", "pipeline-end"));
  CHECK_FALSE(LayoutPhase::PassNamesImplyUnassignedLayouts("hlo_normalization", "a", "b"));
}
