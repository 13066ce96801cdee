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
