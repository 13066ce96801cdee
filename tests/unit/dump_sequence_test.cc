// Dump sequences (engine/dump_sequence.h): grouping and ordering dump files
// by module, what neighbouring dumps tell each file, and de-duplication of
// findings over a sequence.
#include <catch2/catch.hpp>

#include "engine/dump_sequence.h"

using namespace hlolint;

namespace {

std::vector<std::string> Paths(const DumpPlan& plan, const std::vector<std::string>& paths,
                               size_t group) {
  std::vector<std::string> out;
  for (size_t i : plan.groups[group].files) out.push_back(paths[i]);
  return out;
}

Diagnostic Finding(std::string rule, std::string fingerprint, Severity severity = Severity::kError) {
  Diagnostic d;
  d.rule = std::move(rule);
  d.fingerprint = std::move(fingerprint);
  d.severity = severity;
  d.message = "m";
  return d;
}

FileResult Result(const std::string& path, std::vector<Diagnostic> diagnostics) {
  FileResult r;
  r.path = path;
  r.diagnostics = std::move(diagnostics);
  return r;
}

}  // namespace

TEST_CASE("dump sequences: files of one module ordered by step, whole-module dumps around them") {
  const std::vector<std::string> paths = {
      "d/module_0001.jit_f.0000.hlo normalization.after_pipeline-start.before_a.txt",
      "d/module_0001.jit_f.0010.hlo normalization.after_b.before_c.txt",
      "d/module_0001.jit_f.0002.hlo normalization.after_a.before_b.txt",
      "d/module_0001.jit_f.after_optimizations.txt",
      "d/module_0001.jit_f.before_optimizations.txt",
      "d/notes.hlo",
  };
  const DumpPlan plan = PlanDumps(paths);
  REQUIRE(plan.groups.size() == 1);
  CHECK(plan.has_sequences());
  CHECK(plan.groups[0].module_id == "0001");
  CHECK(plan.groups[0].module_name == "jit_f");
  CHECK(plan.groups[0].directory == "d");
  CHECK(Paths(plan, paths, 0) == std::vector<std::string>{paths[4], paths[0], paths[2], paths[1],
                                                          paths[3]});
  CHECK(plan.group_of[5] == -1);
  CHECK_FALSE(plan.contexts[5]);
  // The grouped order puts the sequence where its first file was.
  CHECK(GroupedOrder(plan) == std::vector<size_t>{4, 0, 2, 1, 3, 5});
}

TEST_CASE("dump sequences: interleaved modules, timestamps and directories are told apart") {
  const std::vector<std::string> paths = {
      "a/100.module_0001.m.0000.p.after_x.before_y.txt",
      "a/100.module_0002.n.0000.p.after_x.before_y.txt",
      "a/200.module_0001.m.0000.p.after_x.before_y.txt",  // another compilation
      "a/100.module_0001.m.0001.p.after_y.before_z.txt",
      "b/module_0001.m.0000.p.after_x.before_y.txt",      // another directory
      "a/100.module_0002.n.0001.p.after_y.before_z.txt",
  };
  const DumpPlan plan = PlanDumps(paths);
  REQUIRE(plan.groups.size() == 4);
  CHECK(Paths(plan, paths, 0) == std::vector<std::string>{paths[0], paths[3]});
  CHECK(Paths(plan, paths, 1) == std::vector<std::string>{paths[1], paths[5]});
  CHECK(Paths(plan, paths, 2) == std::vector<std::string>{paths[2]});
  CHECK(plan.groups[2].timestamp == "200");
  CHECK_FALSE(plan.groups[2].is_sequence());
  CHECK(Paths(plan, paths, 3) == std::vector<std::string>{paths[4]});
  CHECK(GroupedOrder(plan) == std::vector<size_t>{0, 3, 1, 5, 2, 4});
}

TEST_CASE("dump sequences: a name XLA dropped (too long) joins its module, and two names split") {
  const std::vector<std::string> one_name = {
      "module_0004.jit_long.0000.p.after_x.before_y.txt",
      "module_0004.0001.a very long pipeline name.after_y.before_z.txt",
  };
  DumpPlan plan = PlanDumps(one_name);
  REQUIRE(plan.groups.size() == 1);
  CHECK(plan.groups[0].files.size() == 2);
  CHECK(plan.groups[0].module_name == "jit_long");

  const std::vector<std::string> two_names = {
      "module_0004.jit_a.0000.p.after_x.before_y.txt",
      "module_0004.jit_b.0000.p.after_x.before_y.txt",
      "module_0004.jit_a.0001.p.after_y.before_z.txt",
      "module_0004.0002.a very long pipeline name.after_z.before_w.txt",
      "module_0004.jit_b.0003.p.after_w.before_v.txt",
  };
  plan = PlanDumps(two_names);
  REQUIRE(plan.groups.size() == 3);
  CHECK(plan.groups[0].module_name == "jit_a");
  CHECK(plan.groups[0].files == std::vector<size_t>{0, 2});
  CHECK(plan.groups[1].module_name == "jit_b");
  CHECK(plan.groups[1].files == std::vector<size_t>{1, 4});
  // With two names, a nameless dump cannot be told to belong to either.
  CHECK(plan.groups[2].module_name == "");
  CHECK(plan.groups[2].files == std::vector<size_t>{3});
}

TEST_CASE("dump sequences: the next pass, only across consecutive steps") {
  const std::vector<std::string> paths = {
      "module_0001.m.0005.hlo normalization.after_cublas-gemm-rewriter.before_gemm-broadcast-folding-rewriter.txt",
      "module_0001.m.0006.hlo normalization.after_layout_normalization.before_x.txt",
      "module_0001.m.0007.hlo normalization.after_x.before_y.txt",
      "module_0001.m.0009.hlo normalization.after_layout_normalization.before_z.txt",
  };
  const DumpPlan plan = PlanDumps(paths);
  REQUIRE(plan.contexts[0]);
  CHECK(plan.contexts[0]->next_pass == "layout_normalization");
  CHECK(plan.contexts[0]->RightBeforeLayoutNormalization());
  CHECK(plan.contexts[1]->next_pass == "x");
  CHECK_FALSE(plan.contexts[1]->RightBeforeLayoutNormalization());
  // Step 8 is missing: what ran right after step 7 is unknown.
  CHECK(plan.contexts[2]->next_pass.empty());
  CHECK_FALSE(plan.contexts[2]->RightBeforeLayoutNormalization());
  CHECK(plan.contexts[3]->next_pass.empty());
}

TEST_CASE("dump sequences: whether ReshapeDecomposer has run since layout assignment") {
  const std::vector<std::string> paths = {
      "module_0001.m.0000.layout assignment.after_pipeline-start.before_layout-assignment.txt",
      "module_0001.m.0001.layout assignment.after_layout-assignment.before_pipeline-end.txt",
      "module_0001.m.0002.hlo normalization.after_pipeline-start.before_reshape-decomposer.txt",
      // reshape-decomposer changed nothing (no dump of its own) but ran.
      "module_0001.m.0003.hlo normalization.after_cublas-gemm-rewriter.before_x.txt",
      "module_0001.m.0004.post.after_layout-assignment.before_y.txt",
  };
  const DumpPlan plan = PlanDumps(paths);
  CHECK(plan.contexts[0]->reshape_decomposer == DecomposerState::kUnknown);
  CHECK(plan.contexts[1]->reshape_decomposer == DecomposerState::kNotSinceLayoutAssignment);
  CHECK(plan.contexts[2]->reshape_decomposer == DecomposerState::kNotSinceLayoutAssignment);
  CHECK(plan.contexts[3]->reshape_decomposer == DecomposerState::kRanSinceLayoutAssignment);
  CHECK(plan.contexts[4]->reshape_decomposer == DecomposerState::kNotSinceLayoutAssignment);
  // Once a dump is after layout assignment, every later one is.
  CHECK_FALSE(plan.contexts[0]->after_layout_assignment);
  for (size_t i = 1; i < paths.size(); ++i) CHECK(plan.contexts[i]->after_layout_assignment);

  // A single file: only its own name speaks.
  auto alone = DumpContextFromFileName("x/module_0001.m.0001.la.after_layout-assignment.before_y.txt");
  REQUIRE(alone);
  CHECK(alone->reshape_decomposer == DecomposerState::kNotSinceLayoutAssignment);
  alone = DumpContextFromFileName("module_0001.m.0003.p.after_reshape-decomposer.before_y.txt");
  CHECK(alone->reshape_decomposer == DecomposerState::kRanSinceLayoutAssignment);
}

TEST_CASE("dump sequences: --assume-pass forms") {
  DumpContext c;
  std::string error;
  REQUIRE(ParseAssumedPass("cublas-gemm-rewriter", &c, &error));
  CHECK(c.kind == DumpKind::kAssumed);
  CHECK(c.after_pass == "cublas-gemm-rewriter");
  CHECK(c.before_pass.empty());
  REQUIRE(ParseAssumedPass("after_a.b.before_layout_normalization", &c, &error));
  CHECK(c.after_pass == "a.b");
  CHECK(c.before_pass == "layout_normalization");
  CHECK(c.RightBeforeLayoutNormalization());
  REQUIRE(ParseAssumedPass("before_layout_normalization", &c, &error));
  CHECK(c.after_pass.empty());
  CHECK(c.RightBeforeLayoutNormalization());
  REQUIRE(ParseAssumedPass("after_layout-assignment", &c, &error));
  CHECK(c.reshape_decomposer == DecomposerState::kNotSinceLayoutAssignment);
  CHECK_FALSE(ParseAssumedPass("", &c, &error));
  CHECK_FALSE(ParseAssumedPass("after_", &c, &error));
  CHECK_FALSE(ParseAssumedPass("x.before_", &c, &error));
  CHECK(error.find("--assume-pass") != std::string::npos);

  // Applied to a file named like a dump: the module stays, the passes change.
  ParseAssumedPass("after_p.before_q", &c, &error);
  const DumpContext applied =
      ApplyAssumedPass(DumpContextFromFileName("module_0002.m.before_optimizations.txt"), c);
  CHECK(applied.module_id == "0002");
  CHECK(applied.after_pass == "p");
  CHECK(applied.before_pass == "q");
}

TEST_CASE("dump sequences: each finding once, where it first appears, and where it was fixed") {
  const std::vector<std::string> paths = {
      "d/module_0001.m.0000.p.after_pipeline-start.before_a.txt",
      "d/module_0001.m.0001.p.after_a.before_b.txt",
      "d/module_0001.m.0002.p.after_b.before_c.txt",
      "d/module_0001.m.0005.p.after_e.before_f.txt",
      "d/module_0001.m.0006.p.after_f.before_g.txt",
  };
  const DumpPlan plan = PlanDumps(paths);
  std::vector<FileResult> results = {
      Result(paths[0], {Finding("r1", "aaaa")}),
      Result(paths[1], {Finding("r1", "aaaa"), Finding("r2", "bbbb"), Finding("r2", "bbbb")}),
      Result(paths[2], {Finding("r2", "bbbb")}),
      Result(paths[3], {Finding("r2", "bbbb"), Finding("r3", "cccc")}),
      Result(paths[4], {Finding("r2", "bbbb")}),
  };
  const std::vector<DumpGroupStats> stats = TrackDumpSequences(plan, results, false);
  REQUIRE(stats.size() == 1);
  CHECK(stats[0].findings == 4);  // aaaa, bbbb, bbbb#1, cccc
  CHECK(stats[0].fixed == 3);     // aaaa, bbbb#1, cccc

  REQUIRE(results[0].diagnostics.size() == 1);
  const DumpHistory& a = *results[0].diagnostics[0].history;
  CHECK(a.in_first_dump);
  CHECK(a.first_seen.description == "at the start of pipeline 'p' (step 0)");
  REQUIRE(a.fixed_after);
  CHECK(a.fixed_after->after_pass == "b");
  CHECK(a.fixed_after->file == paths[2]);
  CHECK(a.dumps == 2);

  // Both bbbb findings of step 1 are new there (the second is a finding of its own).
  REQUIRE(results[1].diagnostics.size() == 2);
  CHECK(results[1].diagnostics[0].rule == "r2");
  CHECK(results[1].diagnostics[1].rule == "r2");
  const DumpHistory& b = *results[1].diagnostics[0].history;
  CHECK(b.first_seen.after_pass == "a");
  CHECK(b.first_seen.step == 1);
  CHECK_FALSE(b.fixed_after);
  CHECK(b.in_last_dump);
  CHECK(b.last_seen.step == 6);
  const DumpHistory& b1 = *results[1].diagnostics[1].history;
  REQUIRE(b1.fixed_after);
  CHECK(b1.fixed_after->step == 2);

  CHECK(results[2].diagnostics.empty());
  // cccc first appears after a gap: steps 3-4 are missing.
  REQUIRE(results[3].diagnostics.size() == 1);
  const DumpHistory& c = *results[3].diagnostics[0].history;
  CHECK(c.first_seen.missing_from == 3);
  CHECK(c.first_seen.missing_to == 4);
  REQUIRE(c.fixed_after);
  CHECK(c.fixed_after->step == 6);
  CHECK(results[4].diagnostics.empty());

  CHECK(stats[0].files[1].introduced == 2);
  CHECK(stats[0].files[1].findings == 3);
  CHECK(stats[0].files[2].fixed == 2);
  CHECK(stats[0].files[2].fixed_by_rule.at("r1") == 1);
  CHECK(stats[0].files[2].fixed_by_rule.at("r2") == 1);

  REQUIRE(results[0].sequence);
  CHECK(results[0].sequence == results[4].sequence);
  CHECK(results[0].sequence->dumps == 5);
  CHECK(results[0].sequence->missing_steps == 2);
  CHECK(results[0].sequence->findings == 4);
  CHECK(results[0].sequence->fixed == 3);
}

TEST_CASE("dump sequences: --every-dump keeps every report, and severity escalations are reported") {
  const std::vector<std::string> paths = {
      "module_0001.m.0000.p.after_a.before_b.txt",
      "module_0001.m.0001.p.after_b.before_c.txt",
      "module_0001.m.0002.p.after_c.before_d.txt",
  };
  const DumpPlan plan = PlanDumps(paths);
  auto make = [&] {
    return std::vector<FileResult>{
        Result(paths[0], {Finding("r", "ffff", Severity::kWarning)}),
        Result(paths[1], {Finding("r", "ffff", Severity::kError)}),
        Result(paths[2], {Finding("r", "ffff", Severity::kError)}),
    };
  };
  std::vector<FileResult> results = make();
  TrackDumpSequences(plan, results, false);
  CHECK(results[0].diagnostics.size() == 1);
  REQUIRE(results[1].diagnostics.size() == 1);  // now an error: reported again
  CHECK(results[1].diagnostics[0].history->first_severity == Severity::kWarning);
  CHECK(results[2].diagnostics.empty());

  results = make();
  TrackDumpSequences(plan, results, true);
  for (const FileResult& r : results) {
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].history->first_seen.file == paths[0]);
  }
}

TEST_CASE("dump sequences: a dump that does not parse fixes nothing") {
  const std::vector<std::string> paths = {
      "module_0001.m.0000.p.after_a.before_b.txt",
      "module_0001.m.0001.p.after_b.before_c.txt",
  };
  const DumpPlan plan = PlanDumps(paths);
  std::vector<FileResult> results = {
      Result(paths[0], {Finding("r", "ffff")}),
      Result(paths[1], {Finding("parse-error", "eeee")}),
  };
  results[1].unparsed_modules = 1;
  const std::vector<DumpGroupStats> stats = TrackDumpSequences(plan, results, false);
  CHECK(stats[0].files[1].incomplete);
  CHECK(stats[0].fixed == 0);
  CHECK_FALSE(results[0].diagnostics[0].history->fixed_after);
  CHECK_FALSE(results[0].diagnostics[0].history->in_last_dump);
}

TEST_CASE("dump sequences: a dump that does not parse fixes nothing, parse-error selected or not") {
  const std::vector<std::string> paths = {
      "module_0001.m.0000.p.after_a.before_b.txt",
      "module_0001.m.0001.p.after_b.before_c.txt",
      "module_0001.m.0002.p.after_c.before_d.txt",
  };
  const DumpPlan plan = PlanDumps(paths);
  std::vector<FileResult> results = {
      Result(paths[0], {Finding("r", "ffff")}),
      Result(paths[1], {}),  // did not parse; parse-error not selected
      Result(paths[2], {}),  // parsed: the finding is gone here
  };
  results[1].unparsed_modules = 1;
  const std::vector<DumpGroupStats> stats = TrackDumpSequences(plan, results, false);
  CHECK(stats[0].files[1].incomplete);
  CHECK_FALSE(stats[0].files[2].incomplete);
  REQUIRE(results[0].diagnostics[0].history->fixed_after);
  CHECK(results[0].diagnostics[0].history->fixed_after->file == paths[2]);
  CHECK(stats[0].files[2].fixed == 1);
  CHECK(stats[0].fixed == 1);
}

TEST_CASE("dump sequences: descriptions of dumps") {
  auto describe = [](const std::string& name) { return DumpContextFromFileName(name)->Describe(); };
  CHECK(describe("module_0001.m.0003.hlo normalization.after_cublas-gemm-rewriter.before_x.txt") ==
        "after pass 'cublas-gemm-rewriter' (pipeline 'hlo normalization', step 3)");
  CHECK(describe("module_0001.m.before_optimizations.txt") == "before optimizations");
  CHECK(describe("module_0001.m.sm_90_gpu_after_optimizations.txt") ==
        "after optimizations (sm_90_gpu)");
  CHECK(describe("module_0001.m.0031.copy-insertion.after adding copies.txt") ==
        "during pass 'copy-insertion' (after adding copies, step 31)");
}

TEST_CASE("dump sequences: a finding fixed and brought back is reported again where it comes back") {
  const std::vector<std::string> paths = {
      "module_0001.m.0000.p.after_a.before_b.txt",  // has it
      "module_0001.m.0001.p.after_b.before_c.txt",  // fixed by b
      "module_0001.m.0002.p.after_c.before_d.txt",  // back after c
      "module_0001.m.0003.p.after_d.before_e.txt",  // does not parse: proves nothing
      "module_0001.m.0004.p.after_e.before_f.txt",  // still there
      "module_0001.m.0005.p.after_f.before_g.txt",  // fixed by f
  };
  const DumpPlan plan = PlanDumps(paths);
  std::vector<FileResult> results = {
      Result(paths[0], {Finding("r", "aaaa")}), Result(paths[1], {}),
      Result(paths[2], {Finding("r", "aaaa")}), Result(paths[3], {}),
      Result(paths[4], {Finding("r", "aaaa")}), Result(paths[5], {}),
  };
  results[3].unparsed_modules = 1;
  const std::vector<DumpGroupStats> stats = TrackDumpSequences(plan, results, false);
  CHECK(stats[0].findings == 2);
  CHECK(stats[0].fixed == 2);
  REQUIRE(results[0].diagnostics.size() == 1);
  const DumpHistory& first = *results[0].diagnostics[0].history;
  REQUIRE(first.fixed_after);
  CHECK(first.fixed_after->after_pass == "b");
  CHECK_FALSE(first.earliest_seen);
  // Back after c: reported again, with where it was first seen and fixed.
  REQUIRE(results[2].diagnostics.size() == 1);
  const DumpHistory& back = *results[2].diagnostics[0].history;
  CHECK(back.first_seen.after_pass == "c");
  REQUIRE(back.earliest_seen);
  CHECK(back.earliest_seen->after_pass == "a");
  REQUIRE(back.earlier_fixed_after);
  CHECK(back.earlier_fixed_after->after_pass == "b");
  REQUIRE(back.fixed_after);
  CHECK(back.fixed_after->after_pass == "f");
  // The unparsable dump in between does not split the second run.
  CHECK(results[4].diagnostics.empty());
  CHECK(stats[0].files[2].introduced == 1);
  CHECK(stats[0].files[5].fixed == 1);
}

TEST_CASE("dump sequences: the dumps before layout assignment, and the platform of every dump") {
  const std::vector<std::string> paths = {
      "d/module_0005.jit_u.0008.HLO_passes_through_layout_assignment.after_reduce-window-rewriter."
      "before_reduce-window-resizer.txt",
      "d/module_0005.jit_u.0009.simplification.after_pipeline-start.before_algsimp.txt",
      "d/module_0005.jit_u.0040.HLO_passes_through_layout_assignment.after_layout-assignment."
      "before_pipeline-end.txt",
      "d/module_0005.jit_u.0041.HLO_passes_after_layout_assignment.after_pipeline-start."
      "before_reshape-decomposer.txt",
      "d/module_0005.jit_u.cpu_after_optimizations.txt",
  };
  const DumpPlan plan = PlanDumps(paths);
  REQUIRE(plan.groups.size() == 1);
  auto context = [&](size_t i) -> const DumpContext& { return *plan.contexts[i]; };
  CHECK(context(0).before_layout_assignment);
  CHECK(context(1).before_layout_assignment);
  CHECK_FALSE(context(2).before_layout_assignment);
  CHECK(context(2).after_layout_assignment);
  CHECK_FALSE(context(3).before_layout_assignment);
  CHECK_FALSE(context(4).before_layout_assignment);
  for (size_t i = 0; i < paths.size(); ++i) {
    INFO(paths[i]);
    CHECK(context(i).Platform() == "cpu");
  }
  CHECK(context(0).platform.empty());  // the file's own name says nothing

  // Without a dump after layout assignment, nothing is known.
  const DumpPlan alone = PlanDumps({paths[1], paths[4]});
  CHECK_FALSE(alone.contexts[0]->before_layout_assignment);
}
