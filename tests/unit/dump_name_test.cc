#include <catch2/catch.hpp>

#include "dump/dump_name.h"

using hlolint::DumpFileName;
using hlolint::ParseDumpFileName;
using Kind = DumpFileName::Kind;

TEST_CASE("dump names: whole-module dumps") {
  auto before = ParseDumpFileName("module_0001.jit_train_step.before_optimizations.txt");
  REQUIRE(before);
  CHECK(before->kind == Kind::kBeforeOptimizations);
  CHECK(before->module_id == "0001");
  CHECK(before->module_name == "jit_train_step");

  auto after = ParseDumpFileName("module_0042.jit_f.sm_90_gpu_after_optimizations.txt");
  REQUIRE(after);
  CHECK(after->kind == Kind::kAfterOptimizations);
  CHECK(after->platform == "sm_90_gpu");
  CHECK(after->module_name == "jit_f");

  auto plain = ParseDumpFileName("module_0000.after_optimizations.txt");
  REQUIRE(plain);
  CHECK(plain->module_name.empty());
  CHECK(plain->platform.empty());
}

TEST_CASE("dump names: the platform of an after-optimizations dump, dots and all") {
  struct Case {
    const char* name;
    const char* module;
    const char* platform;
  };
  const Case cases[] = {
      {"module_0001.jit_f.sm_8.0_gpu_after_optimizations.txt", "jit_f", "sm_8.0_gpu"},
      {"module_0001.jit_f.1.sm_9.0a_gpu_after_optimizations.txt", "jit_f.1", "sm_9.0a_gpu"},
      {"module_0007.jit_g.gfx90a_gpu_after_optimizations.txt", "jit_g", "gfx90a_gpu"},
      {"module_0002.jit_h.cpu_after_optimizations.txt", "jit_h", "cpu"},
      {"module_0003.sm_8.0_gpu_after_optimizations.txt", "", "sm_8.0_gpu"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto d = ParseDumpFileName(c.name);
    REQUIRE(d);
    CHECK(d->kind == Kind::kAfterOptimizations);
    CHECK(d->module_name == c.module);
    CHECK(d->platform == c.platform);
  }
}

TEST_CASE("dump names: between passes, parsed from the right") {
  auto d = ParseDumpFileName(
      "module_0003.jit_f.1.0017.hlo normalization.after_cublas-gemm-rewriter."
      "before_layout_normalization.txt");
  REQUIRE(d);
  CHECK(d->kind == Kind::kBetweenPasses);
  CHECK(d->module_id == "0003");
  CHECK(d->module_name == "jit_f.1");
  CHECK(d->step == 17);
  CHECK(d->pipeline == "hlo normalization");
  CHECK(d->after_pass == "cublas-gemm-rewriter");
  CHECK(d->before_pass == "layout_normalization");

  auto dotted = ParseDumpFileName(
      "module_0003.m.0002.post-layout_assignment.part.2.after_pipeline-start.before_foo.txt");
  REQUIRE(dotted);
  CHECK(dotted->pipeline == "post-layout_assignment.part.2");
  CHECK(dotted->after_pass == "pipeline-start");
}

TEST_CASE("dump names: timestamps and within-pass dumps") {
  auto ts = ParseDumpFileName("1700000000123.module_0007.m.0010.p.after_a.before_b.txt");
  REQUIRE(ts);
  CHECK(ts->timestamp == "1700000000123");
  CHECK(ts->step == 10);

  auto within = ParseDumpFileName(
      "module_0005.m.0031.copy-insertion.after adding copies to resolve interference.txt");
  REQUIRE(within);
  CHECK(within->kind == Kind::kWithinPass);
  CHECK(within->pass == "copy-insertion");
  CHECK(within->step_name == "after adding copies to resolve interference");
}

TEST_CASE("dump names: other files are not dumps") {
  CHECK_FALSE(ParseDumpFileName("model.hlo"));
  CHECK_FALSE(ParseDumpFileName("notes.txt"));
  CHECK_FALSE(ParseDumpFileName("module_12.m.before_optimizations.txt"));  // id too short
  CHECK_FALSE(ParseDumpFileName("module_0001.m.after_optimizations-buffer-assignment.txt"));
  CHECK_FALSE(ParseDumpFileName("x.module_0001.m.before_optimizations.txt"));
}

TEST_CASE("dump names: the reports XLA writes beside a dump are not HLO") {
  using hlolint::IsNonHloDumpArtifact;
  for (const char* report : {
           "module_0001.jit_f.cpu_after_optimizations-buffer-assignment.txt",
           "module_0001.jit_f.cpu_after_optimizations-buffer-assignment-values.txt",
           "module_0001.jit_f.cpu_after_optimizations-live-range.txt",
           "module_0001.jit_f.cpu_after_optimizations-memory-usage-report.txt",
           "module_0001.jit_f.sm_8.0_gpu_after_optimizations-buffer-assignment.txt",
           "module_0001.jit_f.thunk_sequence.txt",
           "module_0001.jit_f.thunk_sequence_after_thunk_passes.txt",
           "module_0001.jit_f.thunk_metadata.txt",
           "module_0001.jit_f.priority_fusion_dump.txt",
           "module_0001.jit_f.triton_gemm_fusion.before_validation.ttir.txt",
       }) {
    INFO(report);
    CHECK(IsNonHloDumpArtifact(report));
    CHECK_FALSE(ParseDumpFileName(report));
  }
  for (const char* hlo : {
           "module_0001.jit_f.cpu_after_optimizations.txt",
           "module_0001.jit_f.sm_8.0_gpu_after_optimizations.txt",
           "module_0001.jit_f.0004.cpu-pipeline.after_dce.before_simplify.txt",
       }) {
    INFO(hlo);
    CHECK_FALSE(IsNonHloDumpArtifact(hlo));
  }
}
